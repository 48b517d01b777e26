package trace

import (
	"bufio"
	"io"
	"strconv"
	"strings"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network"
	xbar "github.com/flitsim/flitsim/switch"
)

// Traces of the slotted router (switching: slotted). Its packets are not
// worms and never enter the kernel's flit buffers: the model reports
// kernel.SlotEvents instead (internal/kernel/slotted_trace.go), and the
// three writers here turn them into an event log, a VCD and a timeline.
// Places are named as elsewhere, by VCD scope: node s is its switch's
// scope (n5), the forward buffer of dimension i and its link the switch's
// output port scope (n5.out_d2), the internal buffer and its link
// int_<port> beside it (n5.int_d2). On the folded butterfly a row r of
// switches (i, r) is a node, named r<digits> (r01), and its links are the
// switches' ports (s1,01's cross link: s1_01.out_cross).

// IsSlotted reports whether k runs the slotted router (whose traces are
// NewSlottedEvents, NewSlottedVCD and NewSlottedTimeline).
func IsSlotted(k *kernel.Kernel) bool {
	_, _, _, _, ok := k.SlottedShape()
	return ok
}

// slotNames names the slotted router's nodes and links, and resolves
// Options against them.
type slotNames struct {
	d, n   int
	defl   bool
	places int // FIFO places per buffer (kernel.SlottedInf: unbounded)
	node   []string
	link   []string // per node·2d + link
	leaf   []string // per node·2d + link: its VCD scope below the node's
	win    Window
	sel    []bool // per node: selected (its switch or its terminal)
}

func newSlotNames(k *kernel.Kernel, o Options) (*slotNames, error) {
	f, err := newFilter(k, o)
	if err != nil {
		return nil, err
	}
	d, defl, places, fly, _ := k.SlottedShape()
	l := newLayout(k)
	l.scopes()
	n := 1 << d
	s := &slotNames{d: d, n: n, defl: defl, places: places, win: o.Window, sel: make([]bool, n),
		node: make([]string, n), link: make([]string, n*2*d), leaf: make([]string, n*2*d)}
	for v := range n {
		s.node[v] = l.swScope[v]
		if fly {
			s.node[v] = "r" + strconv.FormatInt(int64(n|v), 2)[1:]
		}
		for i := range d {
			for b := range 2 {
				sw, port, leaf := v, i, Sanitize("int_"+l.portName(i))
				if b == 1 {
					leaf = l.outScope[l.portBase[v]+int32(i)]
				}
				if fly { // (the switch (i, v) and its port b)
					sw, port = i*n+v, b
					leaf = l.swScope[sw] + "_" + l.outScope[l.portBase[sw]+int32(port)]
					s.sel[v] = s.sel[v] || f.sw[sw]
				}
				s.leaf[v*2*d+2*i+b] = leaf
				s.link[v*2*d+2*i+b] = l.swScope[sw] + "." + leaf
				if fly {
					s.link[v*2*d+2*i+b] = l.swScope[sw] + "." + l.outScope[l.portBase[sw]+int32(port)]
				}
			}
		}
		s.sel[v] = s.sel[v] || !fly && f.sw[v]
	}
	for t, on := range f.term {
		if sw := int(k.Topo.InSwitch[t]); on {
			s.sel[sw%n] = true
		}
	}
	return s, nil
}

// linkName names link l (2·i + b) of node v, or "" for none.
func (s *slotNames) linkName(v, l int32) string {
	if l < 0 {
		return ""
	}
	return s.link[int(v)*2*s.d+int(l)]
}

// nodeName names node v, or "" for none (v < 0).
func (s *slotNames) nodeName(v int32) string {
	if v < 0 {
		return ""
	}
	return s.node[v]
}

// hasLink reports whether the node has link l (the deflection node has only
// the forward ones).
func (s *slotNames) hasLink(l int) bool { return !s.defl || l&1 == 1 }

// traced reports whether an event in cycle at node v is written.
func (s *slotNames) traced(cycle int64, v int32) bool { return s.win.In(cycle) && s.sel[v] }

// slotQuiet gives a slotted writer the kernel Tracer's methods, none of
// which the slotted router calls.
type slotQuiet struct{}

func (slotQuiet) Granted(int64, int32, int32, int32, xbar.PortSet)            {}
func (slotQuiet) Move(int64, flit.Flit, int32, int32, int32, int64)           {}
func (slotQuiet) Blocked(int64, flit.Flit, int32, network.Wait, int32, int32) {}
func (slotQuiet) Delivered(int64, *flit.Worm, int32, int32)                   {}

// SlottedEventColumns are the slotted router's event log columns.
var SlottedEventColumns = []string{"cycle", "event", "packet", "node", "link", "dest", "hops", "queue", "cause", "age",
	"deflections"}

// SlottedEvents writes the slotted router's event log: one row per
// kernel.SlotEvent at a selected node in the window, CSV with a header
// row or JSON lines (only the keys an event fills).
type SlottedEvents struct {
	slotQuiet
	s    *slotNames
	bw   *bufio.Writer
	buf  []byte
	json bool
}

// NewSlottedEvents writes k's slotted-router events to w in format ft.
func NewSlottedEvents(w io.Writer, k *kernel.Kernel, ft EventFormat, o Options) (*SlottedEvents, error) {
	s, err := newSlotNames(k, o)
	if err != nil {
		return nil, err
	}
	e := &SlottedEvents{s: s, bw: bufio.NewWriterSize(w, 1<<16), json: ft == JSONL}
	if !e.json {
		e.bw.WriteString(strings.Join(SlottedEventColumns, ",") + "\n")
	}
	return e, nil
}

// Slot writes one event.
func (e *SlottedEvents) Slot(cycle int64, ev kernel.SlotEvent) {
	if !e.s.traced(cycle, ev.Node) {
		return
	}
	var cause string
	if ev.Kind == kernel.SlotDropped {
		cause = kernel.DropCauseNames[ev.Cause]
	}
	queued := ev.Kind == kernel.SlotWaited || ev.Kind == kernel.SlotSent || ev.Kind == kernel.SlotDropped
	defl := ev.Kind == kernel.SlotDeflected || e.s.defl && (ev.Kind == kernel.SlotDelivered || ev.Kind == kernel.SlotCrossed)
	b := e.buf[:0]
	if e.json {
		b = append(b, '{')
	}
	c := &colWriter{b: b, json: e.json}
	c.int(0, cycle, true)
	c.str(1, ev.Kind.String())
	c.int(2, int64(ev.Packet), true)
	c.str(3, e.s.node[ev.Node])
	c.str(4, e.s.linkName(ev.Node, ev.Link))
	c.str(5, e.s.nodeName(ev.Dest))
	c.int(6, int64(ev.Hops), !e.s.defl && ev.Kind != kernel.SlotDeflected)
	c.int(7, int64(ev.Queue), queued)
	c.str(8, cause)
	c.int(9, int64(ev.Age), ev.Kind == kernel.SlotDelivered)
	c.int(10, int64(ev.Defl), defl)
	b = c.b
	if e.json {
		b = append(b, '}')
	}
	b = append(b, '\n')
	e.bw.Write(b)
	e.buf = b
}

// colWriter appends the columns of one row (SlottedEventColumns), CSV or
// JSON; names are VCD identifiers and never need quoting in CSV.
type colWriter struct {
	b    []byte
	json bool
	n    int // columns written (JSON: members)
}

func (c *colWriter) sep(col int, empty bool) bool {
	if c.json {
		if empty {
			return false
		}
		if c.n > 0 {
			c.b = append(c.b, ',')
		}
		c.b = append(c.b, '"')
		c.b = append(c.b, SlottedEventColumns[col]...)
		c.b = append(c.b, '"', ':')
	} else if col > 0 {
		c.b = append(c.b, ',')
	}
	c.n++
	return !empty
}

func (c *colWriter) int(col int, v int64, on bool) {
	if c.sep(col, !on) {
		c.b = strconv.AppendInt(c.b, v, 10)
	}
}

func (c *colWriter) str(col int, v string) {
	if !c.sep(col, v == "") {
		return
	}
	if c.json {
		c.b = append(c.b, '"')
		c.b = append(c.b, v...)
		c.b = append(c.b, '"')
	} else {
		c.b = append(c.b, v...)
	}
}

// EndCycle does nothing: events are written as they come.
func (e *SlottedEvents) EndCycle(int64) {}

// Close flushes the log.
func (e *SlottedEvents) Close() error { return e.bw.Flush() }
