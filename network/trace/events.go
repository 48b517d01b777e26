package trace

import (
	"bufio"
	"encoding/json"
	"fmt"
	"github.com/flitsim/flitsim/internal/kernel"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/network"
	xbar "github.com/flitsim/flitsim/switch"
)

// EventFormat is the encoding of an event log.
type EventFormat uint8

const (
	CSV   EventFormat = iota // comma-separated, with a header row
	JSONL                    // one JSON object per line
)

// EventColumns are the CSV columns of the event log, in order (also the JSON
// keys).
var EventColumns = []string{"cycle", "event", "worm", "seq", "kind", "buffer", "to", "channel", "ready",
	"reason", "waiting_for", "waiting_at", "switch", "ports", "terminal", "complete"}

// EventFormatOf picks the format by the file name's extension: .csv, or
// .jsonl / .ndjson.
func EventFormatOf(name string) (EventFormat, error) {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".csv":
		return CSV, nil
	case ".jsonl", ".ndjson":
		return JSONL, nil
	}
	return 0, fmt.Errorf("--trace-events: %q has an unknown extension (allowed: .csv, .jsonl)", name)
}

// Events writes the event log (see the package documentation).
type Events struct {
	k    *kernel.Kernel
	f    *filter
	l    *layout
	bw   *bufio.Writer
	buf  []byte
	json bool

	names   []string // quoted for the format: buffers, then terminals
	chNames []string
	swNames []string
	ports   [][]string // per switch: unquoted port names
	kinds   [4]string
	reasons []string
	r       row // the event being assembled
}

// NewEvents writes k's events to w in format ft (buffered; Close flushes).
func NewEvents(w io.Writer, k *kernel.Kernel, ft EventFormat, o Options) (*Events, error) {
	f, err := newFilter(k, o)
	if err != nil {
		return nil, err
	}
	e := &Events{k: k, f: f, l: newLayout(k), bw: bufio.NewWriterSize(w, 1<<16), json: ft == JSONL}
	q := e.quote
	for _, n := range e.l.names() {
		e.names = append(e.names, q(n))
	}
	for _, n := range e.l.chNames() {
		e.chNames = append(e.chNames, q(n))
	}
	for s := range k.Topo.Switches {
		e.swNames = append(e.swNames, q(e.l.switchName(s)))
		ps := make([]string, len(k.Topo.Switches[s].Out))
		for p := range ps {
			ps[p] = e.l.portName(p)
		}
		e.ports = append(e.ports, ps)
	}
	for i := range e.kinds {
		e.kinds[i] = q(flit.Kind(i).String())
	}
	for r := network.WaitLink; r <= network.WaitInject; r++ {
		e.reasons = append(e.reasons, q(r.String()))
	}
	if !e.json {
		e.bw.WriteString(strings.Join(EventColumns, ",") + "\n")
	}
	return e, nil
}

// quote escapes s as a CSV field or a JSON string.
func (e *Events) quote(s string) string {
	if e.json {
		b, _ := json.Marshal(s)
		return string(b)
	}
	if strings.ContainsAny(s, ",\"\r\n") || strings.TrimSpace(s) != s {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}

// row assembles one event: fields by column index, empty ones skipped in
// JSON. ints holds numeric columns (-1: empty), strs quoted strings.
type row struct {
	ints [len16]int64
	strs [len16]string
}

const len16 = 16

const (
	colCycle = iota
	colEvent
	colWorm
	colSeq
	colKind
	colBuffer
	colTo
	colChannel
	colReady
	colReason
	colWaitingFor
	colWaitingAt
	colSwitch
	colPorts
	colTerminal
	colComplete
)

// numeric columns.
var numeric = [len16]bool{colCycle: true, colWorm: true, colSeq: true, colReady: true, colWaitingFor: true, colTerminal: true}

func (e *Events) emit(r *row) {
	b := e.buf[:0]
	if e.json {
		b = append(b, '{')
	}
	first := true
	for c := 0; c < len16; c++ {
		var empty bool
		if numeric[c] {
			empty = r.ints[c] < 0
		} else {
			empty = r.strs[c] == ""
		}
		if e.json {
			if empty {
				continue
			}
			if !first {
				b = append(b, ',')
			}
			b = append(b, '"')
			b = append(b, EventColumns[c]...)
			b = append(b, '"', ':')
		} else if c > 0 {
			b = append(b, ',')
		}
		first = false
		if empty {
			continue
		}
		if numeric[c] {
			b = strconv.AppendInt(b, r.ints[c], 10)
		} else {
			b = append(b, r.strs[c]...)
		}
	}
	if e.json {
		b = append(b, '}')
	}
	b = append(b, '\n')
	e.bw.Write(b)
	e.buf = b
}

func (e *Events) newRow(cycle int64, event string, wi int32) *row {
	r := &e.r
	*r = row{}
	for i := range r.ints {
		r.ints[i] = -1
	}
	r.ints[colCycle] = cycle
	if e.json {
		r.strs[colEvent] = `"` + event + `"`
	} else {
		r.strs[colEvent] = event
	}
	if wi >= 0 {
		r.ints[colWorm] = int64(serial(e.k, wi))
	}
	return r
}

func (e *Events) flitCols(r *row, f *flit.Flit) {
	r.ints[colSeq] = int64(f.Seq)
	r.strs[colKind] = e.kinds[f.Kind&3]
}

func (e *Events) selected(b int32) bool {
	if b >= e.f.nb {
		return e.f.term[b-e.f.nb]
	}
	return e.f.buf[b]
}

// Scoped reports whether the trace leaves anything out (--trace-window,
// --trace-only): only then do packets' records wait for it.
func (e *Events) Scoped() bool { return e.f.some }

// Traces reports whether an event in cycle at buffer (or terminal) b is
// written (kernel.TraceScope: the scheduled router keeps records only of
// packets traced).
func (e *Events) Traces(cycle int64, b int32) bool {
	return b >= 0 && e.f.win.In(cycle) && e.selected(b)
}

// Granted logs a grant.
func (e *Events) Granted(cycle int64, b, wi, sw int32, ports xbar.PortSet) {
	if !e.f.win.In(cycle) || !e.f.sw[sw] {
		return
	}
	r := e.newRow(cycle, "granted", wi)
	r.strs[colBuffer] = e.names[b]
	r.strs[colSwitch] = e.swNames[sw]
	var ps []string
	for m := ports; m != 0; {
		ps = append(ps, e.ports[sw][m.Next()])
	}
	r.strs[colPorts] = e.quote(strings.Join(ps, " "))
	e.emit(r)
}

// Move logs a flit's move.
func (e *Events) Move(cycle int64, f flit.Flit, from, to, ch int32, ready int64) {
	if !e.f.win.In(cycle) || !e.selected(from) && !e.selected(to) {
		return
	}
	r := e.newRow(cycle, "moved", f.Worm)
	e.flitCols(r, &f)
	r.strs[colBuffer] = e.names[from]
	r.strs[colTo] = e.names[to]
	if ch >= 0 {
		r.strs[colChannel] = e.chNames[ch]
	}
	r.ints[colReady] = ready
	e.emit(r)
}

// Blocked logs a front flit that did not move.
func (e *Events) Blocked(cycle int64, f flit.Flit, b int32, reason network.Wait, who, at int32) {
	if !e.f.win.In(cycle) || !e.f.buf[b] {
		return
	}
	r := e.newRow(cycle, "blocked", f.Worm)
	e.flitCols(r, &f)
	r.strs[colBuffer] = e.names[b]
	r.strs[colReason] = e.reasons[reason]
	if who >= 0 {
		r.ints[colWaitingFor] = int64(serial(e.k, who))
	}
	r.strs[colWaitingAt] = e.waitingAt(reason, at)
	e.emit(r)
}

// Dropped logs a packet dropped by the full queue behind buffer b
// (queue.full: drop).
func (e *Events) Dropped(cycle int64, f flit.Flit, b int32) {
	if !e.f.win.In(cycle) || !e.f.buf[b] {
		return
	}
	r := e.newRow(cycle, "dropped", f.Worm)
	e.flitCols(r, &f)
	r.strs[colBuffer] = e.names[b]
	e.emit(r)
}

// Escaped logs the first wait-for cycle an escape VC broke
// (Result.EscapedCycles): a row per packet of the cycle, its wait in
// words as the reason, then one for the escape wait that breaks it.
func (e *Events) Escaped(cycle int64, worms []int32, waits []string) {
	if !e.f.win.In(cycle) {
		return
	}
	for i, wi := range worms {
		event := "escaped-cycle"
		if i == len(worms)-1 {
			event = "escaped-by"
		}
		r := e.newRow(cycle, event, wi)
		r.strs[colReason] = e.quote(waits[i])
		e.emit(r)
	}
}

// waitingAt names what a blocked flit waits at: a global port, a buffer or a
// terminal, by reason.
func (e *Events) waitingAt(reason network.Wait, at int32) string {
	if at < 0 {
		return ""
	}
	switch reason {
	case network.WaitPort:
		return e.chNames[at]
	case network.WaitInject:
		return e.names[e.f.nb+at]
	}
	return e.names[at]
}

// Delivered logs a tail's arrival at a destination.
func (e *Events) Delivered(cycle int64, w *flit.Worm, wi, term int32) {
	if !e.f.win.In(cycle) || !e.f.term[term] {
		return
	}
	r := e.newRow(cycle, "delivered", wi)
	r.ints[colTerminal] = int64(term)
	r.strs[colComplete] = "false"
	if w.Done == w.Dests {
		r.strs[colComplete] = "true"
	}
	e.emit(r)
}

// EndCycle does nothing: events are written as they come.
func (e *Events) EndCycle(int64) {}

// Close flushes the log.
func (e *Events) Close() error { return e.bw.Flush() }
