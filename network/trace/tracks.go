package trace

import (
	"github.com/flitsim/flitsim/internal/kernel"
	"io"
	"strconv"
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/network"
	xbar "github.com/flitsim/flitsim/switch"
)

// TrackMode is what a timeline's threads (tracks) are.
type TrackMode uint8

const (
	// TracksWorm: a thread per worm in a process per source terminal
	// (NewPerfetto).
	TracksWorm TrackMode = iota
	// TracksRouter: a process per router, a thread per buffer (input, and
	// output if any); a span per worm at the buffer's front, from the cycle
	// its head reached the front to the cycle its tail left, with its
	// blocked runs inside.
	TracksRouter
	// TracksLink: a process per router (and one for the terminals'
	// injection links), a thread per link; a span per worm crossing it, from
	// its head's crossing to its tail's.
	TracksLink
)

// TrackModes are the modes' names, in order.
var TrackModes = []string{"worm", "router", "link"}

// ParseTracks reads a --trace-perfetto-tracks value.
func ParseTracks(s string) (TrackMode, error) {
	for i, n := range TrackModes {
		if s == n {
			return TrackMode(i), nil
		}
	}
	return 0, inputerr.New("--trace-perfetto-tracks", strconv.Quote(s), "%s", strings.Join(TrackModes, ", "))
}

// NewTimeline writes k's timeline with tracks per worm, router or link.
func NewTimeline(w io.Writer, k *kernel.Kernel, mode TrackMode, o Options) (Writer, error) {
	if mode == TracksWorm {
		return NewPerfetto(w, k, o)
	}
	f, err := newFilter(k, o)
	if err != nil {
		return nil, err
	}
	l := newLayout(k)
	t := &Tracks{k: k, f: f, l: l, mode: mode, jsonStream: newJSONStream(w),
		names: l.names(), chNames: l.chNames(), nb: k.Buffers()}
	t.bufs = make([]tbuf, t.nb)
	t.links = make([]tlink, k.Channels())
	t.src = make([]bool, t.nb)
	for b := int32(0); b < t.nb; b++ {
		_, _, _, t.src[b], _ = k.BufferInfo(b)
	}
	t.procNamed = make([]bool, len(k.Topo.Switches)+1)
	t.bw.WriteString(`{"otherData":{"time_unit":"1 us = 1 cycle","tracks":"` + TrackModes[mode] + `"},"traceEvents":[`)
	return t, nil
}

// Tracks writes a timeline by router or by link (see TrackMode).
type Tracks struct {
	k    *kernel.Kernel
	f    *filter
	l    *layout
	mode TrackMode
	jsonStream
	names   []string
	chNames []string
	nb      int32
	src     []bool

	bufs      []tbuf  // router mode, per buffer
	links     []tlink // link mode, per channel
	procNamed []bool
}

// tbuf is a buffer's worms in arrival order; the first is at the front.
type tbuf struct {
	q     []tworm
	left  int64 // the cycle after the previous front's tail left
	named bool
}

type tworm struct {
	wi     int32
	serial uint64
	enter  int64
	runs   []run
}

// tlink is the worm crossing a link.
type tlink struct {
	wi     int32
	to     int32 // where its head went (for the thread's name)
	serial uint64
	start  int64
	flits  int64 // of the worm that crossed so far
	busy   bool
	named  bool
}

// Granted is not shown.
func (t *Tracks) Granted(int64, int32, int32, int32, xbar.PortSet) {}

// Delivered is not shown.
func (t *Tracks) Delivered(int64, *flit.Worm, int32, int32) {}

// EndCycle does nothing: spans are written when they end.
func (t *Tracks) EndCycle(int64) {}

// Move follows heads into and tails out of buffers, or across links.
func (t *Tracks) Move(cycle int64, f flit.Flit, from, to, ch int32, ready int64) {
	s := t.k.Pool.Worms[f.Worm].ID
	if t.mode == TracksLink {
		if ch >= 0 {
			t.linkMove(cycle, f, s, to, ch)
		}
		return
	}
	if x := &t.bufs[from]; len(x.q) > 0 && x.q[0].serial == s && f.Kind >= flit.Tail {
		t.routerSpan(from, &x.q[0], cycle+1, false)
		x.left = cycle + 1
		runs := x.q[0].runs[:0]
		copy(x.q, x.q[1:])
		x.q[len(x.q)-1].runs = runs
		x.q = x.q[:len(x.q)-1]
	}
	if to < t.nb && f.IsHead() && !t.src[to] {
		x := &t.bufs[to]
		if len(x.q) < cap(x.q) {
			x.q = x.q[:len(x.q)+1]
			x.q[len(x.q)-1] = tworm{wi: f.Worm, serial: s, enter: cycle, runs: x.q[len(x.q)-1].runs[:0]}
		} else {
			x.q = append(x.q, tworm{wi: f.Worm, serial: s, enter: cycle})
		}
	}
}

// Blocked extends or starts a blocked run of the front worm of b (waiting
// for the link or the routing delay does not count, as in NewPerfetto).
func (t *Tracks) Blocked(cycle int64, f flit.Flit, b int32, reason network.Wait, who, at int32) {
	if t.mode != TracksRouter || reason == network.WaitLink {
		return
	}
	x := &t.bufs[b]
	if len(x.q) == 0 || x.q[0].serial != t.k.Pool.Worms[f.Worm].ID {
		return
	}
	h := &x.q[0]
	ws := int64(-1)
	if who >= 0 {
		ws = int64(t.k.Pool.Worms[who].ID)
	}
	h.runs = extendRuns(h.runs, cycle, reason, ws, at)
}

func (t *Tracks) linkMove(cycle int64, f flit.Flit, s uint64, to, ch int32) {
	x := &t.links[ch]
	if f.IsHead() {
		*x = tlink{wi: f.Worm, to: to, serial: s, start: cycle, busy: true, named: x.named}
	}
	x.flits++
	if f.Kind >= flit.Tail && x.busy && x.serial == s {
		x.busy = false
		t.linkSpan(ch, x, cycle+1, false)
	}
}

func (t *Tracks) linkSelected(ch int32) bool {
	if ch < t.l.nlinks {
		return t.f.sw[t.l.portSw[ch]]
	}
	return t.f.term[ch-t.l.nlinks]
}

// linkPid is the process of link ch: its router's, or the injection links'.
func (t *Tracks) linkPid(ch int32) int {
	if ch < t.l.nlinks {
		return int(t.l.portSw[ch])
	}
	return len(t.k.Topo.Switches)
}

// clip limits [start, end) to the window; ok is false if nothing is left.
func (t *Tracks) clip(start, end int64) (int64, int64, bool) {
	start, end = max(start, t.f.win.From), min(end, t.f.win.end())
	return start, end, start < end
}

func (t *Tracks) linkSpan(ch int32, x *tlink, end int64, open bool) {
	start, end, ok := t.clip(x.start, end)
	if !ok || !t.linkSelected(ch) {
		return
	}
	if !x.named {
		x.named = true
		pid := t.linkPid(ch)
		t.process(pid)
		t.thread(pid, int64(ch), t.chNames[ch]+" → "+t.names[x.to], int64(ch))
	}
	b := t.span(t.wormName(x.serial), t.linkPid(ch), int64(ch), start, end)
	b = t.wormArgs(b, x.wi, x.serial, open)
	if open {
		b = append(b, `,"crossed":`...)
		b = strconv.AppendInt(b, x.flits, 10)
	}
	t.close(append(b, "}}"...))
}

func (t *Tracks) routerSpan(b int32, h *tworm, end int64, open bool) {
	if !t.f.buf[b] {
		return
	}
	x := &t.bufs[b]
	start, end, ok := t.clip(max(h.enter, x.left), end)
	if !ok {
		return
	}
	sw, _, _, _, _ := t.k.BufferInfo(b)
	if !x.named {
		x.named = true
		t.process(int(sw))
		name := t.names[b][len(t.l.swScope[sw])+1:]
		t.thread(int(sw), int64(b), name, int64(b))
	}
	e := t.span(t.wormName(h.serial), int(sw), int64(b), start, end)
	e = t.wormArgs(e, h.wi, h.serial, open)
	t.close(append(e, "}}"...))
	for _, r := range h.runs {
		rs, re, ok := t.clip(r.start, min(r.last+1, end))
		if !ok {
			continue
		}
		e := t.span(jsonString("blocked: "+r.reason.String()), int(sw), int64(b), rs, re)
		e = append(e, `,"args":{"waiting_for":`...)
		e = strconv.AppendInt(e, r.who, 10)
		if r.at >= 0 {
			e = append(e, `,"waiting_at":`...)
			e = append(e, jsonString(t.waitingAt(r.reason, r.at))...)
		}
		t.close(append(e, "}}"...))
	}
}

func (t *Tracks) waitingAt(reason network.Wait, at int32) string {
	return waitName(reason, at, t.names, t.chNames, t.nb)
}

func (t *Tracks) wormName(s uint64) string { return `"worm ` + strconv.FormatUint(s, 10) + `"` }

// wormArgs appends the worm's source, destination(s) and length (its pool
// slot still holds it: its tail is moving, or the run ended).
func (t *Tracks) wormArgs(b []byte, wi int32, s uint64, open bool) []byte {
	w := &t.k.Pool.Worms[wi]
	b = append(b, `,"args":{"worm":`...)
	b = strconv.AppendUint(b, s, 10)
	if w.ID == s {
		b = appendWormFields(append(b, ','), w)
	}
	if open {
		b = append(b, `,"open":true`...)
	}
	return b
}

// span starts a complete event (the caller adds args and closes it).
func (t *Tracks) span(name string, pid int, tid, start, end int64) []byte {
	b := t.open()
	b = append(b, `{"name":`...)
	b = append(b, name...)
	b = append(b, `,"ph":"X","pid":`...)
	b = strconv.AppendInt(b, int64(pid), 10)
	b = append(b, `,"tid":`...)
	b = strconv.AppendInt(b, tid, 10)
	b = append(b, `,"ts":`...)
	b = strconv.AppendInt(b, start, 10)
	b = append(b, `,"dur":`...)
	return strconv.AppendInt(b, end-start, 10)
}

// process names process pid (a router, or the injection links) once.
func (t *Tracks) process(pid int) {
	if t.procNamed[pid] {
		return
	}
	t.procNamed[pid] = true
	var name string
	switch {
	case pid == len(t.k.Topo.Switches):
		name = "injection links"
	case t.mode == TracksLink:
		name = "links of " + t.l.swScope[pid] + " (" + t.k.Topo.Switches[pid].Label + ")"
	default:
		name = "router " + t.l.swScope[pid] + " (" + t.k.Topo.Switches[pid].Label + ")"
	}
	t.meta("process_name", pid, -1, `"name":`+jsonString(name))
	t.meta("process_sort_index", pid, -1, `"sort_index":`+strconv.Itoa(pid))
}

func (t *Tracks) thread(pid int, tid int64, name string, sort int64) {
	t.meta("thread_name", pid, tid, `"name":`+jsonString(name))
	t.meta("thread_sort_index", pid, tid, `"sort_index":`+strconv.FormatInt(sort, 10))
}

func (t *Tracks) meta(what string, pid int, tid int64, args string) {
	t.close(appendMeta(t.open(), what, int64(pid), tid, args))
}

// Close writes the spans still open at the end of the run (args.open true)
// and ends the JSON document.
func (t *Tracks) Close() error {
	end := t.k.Now()
	for b := range t.bufs {
		x := &t.bufs[b]
		for i := range x.q {
			t.routerSpan(int32(b), &x.q[i], end, true)
			x.left = max(x.left, end) // the others never reached the front
		}
		x.q = nil
	}
	for ch := range t.links {
		if x := &t.links[ch]; x.busy {
			x.busy = false
			t.linkSpan(int32(ch), x, end, true)
		}
	}
	t.bw.WriteString("\n]}\n")
	return t.bw.Flush()
}

// appendMeta appends a Perfetto metadata event (process or thread name and
// sort order) for pid, and tid unless it is negative, to b.
func appendMeta(b []byte, what string, pid, tid int64, args string) []byte {
	b = append(b, `{"name":"`+what+`","ph":"M","pid":`...)
	b = strconv.AppendInt(b, pid, 10)
	if tid >= 0 {
		b = append(b, `,"tid":`...)
		b = strconv.AppendInt(b, tid, 10)
	}
	b = append(b, `,"args":{`...)
	b = append(b, args...)
	return append(b, "}}"...)
}
