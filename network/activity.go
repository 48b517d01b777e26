package network

import (
	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/internal/kernel"
	xbar "github.com/flitsim/flitsim/switch"
)

// activity counts, per switch, the cycles of the window [lo, hi) in which a
// front flit of one of its buffers was blocked (run.router_activity). It is
// a kernel tracer: attached only when asked for.
type activity struct {
	k       *kernel.Kernel
	lo, hi  int64
	blocked []int64 // per switch
	last    []int64 // per switch: the last cycle counted (−1 none)
}

func newActivity(k *kernel.Kernel, lo, hi int64) *activity {
	a := &activity{k: k, lo: lo, hi: hi, blocked: make([]int64, len(k.Topo.Switches)),
		last: make([]int64, len(k.Topo.Switches))}
	for i := range a.last {
		a.last[i] = -1
	}
	return a
}

func (a *activity) Blocked(cycle int64, _ flit.Flit, b int32, reason Wait, _, _ int32) {
	if reason == WaitLink || cycle < a.lo || cycle >= a.hi {
		return
	}
	sw, _, _, source, _ := a.k.BufferInfo(b)
	if source || a.last[sw] == cycle {
		return
	}
	a.last[sw] = cycle
	a.blocked[sw]++
}

func (a *activity) Granted(int64, int32, int32, int32, xbar.PortSet)  {}
func (a *activity) Move(int64, flit.Flit, int32, int32, int32, int64) {}
func (a *activity) Delivered(int64, *flit.Worm, int32, int32)         {}
func (a *activity) EndCycle(int64)                                    {}

// Tracers sends every call to each of its tracers in turn (several trace
// writers, or the router-activity counter beside them, on one kernel).
type Tracers []Tracer

func (m Tracers) Granted(c int64, b, wi, sw int32, p xbar.PortSet) {
	for _, t := range m {
		t.Granted(c, b, wi, sw, p)
	}
}
func (m Tracers) Move(c int64, f flit.Flit, from, to, ch int32, ready int64) {
	for _, t := range m {
		t.Move(c, f, from, to, ch, ready)
	}
}
func (m Tracers) Blocked(c int64, f flit.Flit, b int32, r Wait, who, at int32) {
	for _, t := range m {
		t.Blocked(c, f, b, r, who, at)
	}
}
func (m Tracers) Delivered(c int64, w *flit.Worm, wi, term int32) {
	for _, t := range m {
		t.Delivered(c, w, wi, term)
	}
}

// Scoped reports whether every tracer says which events it writes
// (kernel.TraceScope), so that Traces is exact, and none that says by its
// own Scoped that it leaves nothing out.
func (m Tracers) Scoped() bool {
	for _, t := range m {
		_, ok := t.(kernel.TraceScope)
		if s, nested := t.(interface{ Scoped() bool }); !ok || nested && !s.Scoped() {
			return false
		}
	}
	return true
}

// Traces reports whether any tracer writes an event in cycle at buffer b.
func (m Tracers) Traces(cycle int64, b int32) bool {
	for _, t := range m {
		if sc, ok := t.(kernel.TraceScope); !ok || sc.Traces(cycle, b) {
			return true
		}
	}
	return false
}

// Follows reports whether any tracer writes the life of a packet created
// at terminal src in cycle gen (kernel.LifeScope).
func (m Tracers) Follows(src int32, gen int64) bool {
	for _, t := range m {
		if f, ok := t.(kernel.LifeScope); ok && f.Follows(src, gen) {
			return true
		}
	}
	return false
}

// Dropped passes a dropped packet (queue.full: drop) to the tracers that
// log drops (Dropper).
func (m Tracers) Dropped(c int64, f flit.Flit, b int32) {
	for _, t := range m {
		if d, ok := t.(Dropper); ok {
			d.Dropped(c, f, b)
		}
	}
}

// Escaped passes the first cycle an escape VC broke to the tracers that
// log it (Escaper).
func (m Tracers) Escaped(c int64, worms []int32, waits []string) {
	for _, t := range m {
		if e, ok := t.(Escaper); ok {
			e.Escaped(c, worms, waits)
		}
	}
}

// Slot passes a slotted-router event to the tracers that log them
// (kernel.SlotTracer).
func (m Tracers) Slot(c int64, e kernel.SlotEvent) {
	for _, t := range m {
		if s, ok := t.(kernel.SlotTracer); ok {
			s.Slot(c, e)
		}
	}
}
func (m Tracers) EndCycle(c int64) {
	for _, t := range m {
		t.EndCycle(c)
	}
}

// SetTracer attaches t to the kernel (nil: none), beside the counter that
// run.router_activity attaches; use it rather than K.SetTracer.
func (n *Network) SetTracer(t Tracer) {
	switch {
	case n.activity == nil:
		n.k.SetTracer(t)
	case t == nil:
		n.k.SetTracer(n.activity)
	default:
		n.k.SetTracer(Tracers{n.activity, t})
	}
}
