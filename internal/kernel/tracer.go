package kernel

import (
	"github.com/flitsim/flitsim/flit"
	xbar "github.com/flitsim/flitsim/switch"
)

// Tracer observes the kernel cycle by cycle, for cycle traces (VCD, event
// logs, timelines). The kernel calls it only when one is set, so tracing
// costs nothing when off. Buffers are the kernel's buffer ids (see
// Kernel.Buffers); a destination ≥ Kernel.Buffers() is terminal
// (to − Buffers()). Calls within a cycle come in this order: Blocked for
// every front flit that does not move, Granted, Move and Delivered as the
// commit phase does them, then EndCycle.
type Tracer interface {
	// Granted: worm wi was granted ports of switch sw for the flits in
	// buffer b.
	Granted(cycle int64, b, wi, sw int32, ports xbar.PortSet)
	// Move: flit f left buffer from for to (every copy of a replicated flit
	// is one Move), crossing channel ch (see Kernel.ChannelName; -1: only a
	// crossbar). It can leave to from cycle ready on.
	Move(cycle int64, f flit.Flit, from, to, ch int32, ready int64)
	// Blocked: the front flit f of buffer b did not move, for reason; who is
	// the worm holding what b waits for (or -1) and at the buffer or global
	// port waited for (or -1).
	Blocked(cycle int64, f flit.Flit, b int32, reason Wait, who, at int32)
	// Delivered: worm w's tail reached terminal term; it is complete when
	// w.Done == w.Dests.
	Delivered(cycle int64, w *flit.Worm, wi, term int32)
	// EndCycle closes the cycle.
	EndCycle(cycle int64)
}

// Wait is why a front flit did not move.
type Wait uint8

const (
	WaitLink   Wait = iota // still on the link (or waiting for its routing delay)
	WaitPort               // needs a port another worm holds (at: global port)
	WaitArb                // asked for free ports and lost the arbitration
	WaitSpace              // a destination buffer is full (at: that buffer)
	WaitTail               // store-and-forward: its tail has not arrived
	WaitSync               // a synchronous worm held back by another branch
	WaitInject             // a node's injection channel is in use (at: terminal)
)

var waitNames = []string{"link", "port", "arbitration", "space", "tail", "sync", "injection"}

func (w Wait) String() string { return waitNames[w] }

// SetTracer attaches t (nil detaches).
func (k *Kernel) SetTracer(t Tracer) { k.tr = t }

// Buffers is the number of switch buffers and source registers; ids below
// it are buffers, ids from it on are terminals.
func (k *Kernel) Buffers() int32 { return k.nb }

// BufferInfo describes buffer b: the switch (or, for a source register, the
// terminal) it belongs to, its port, whether it is an output buffer or a
// source register, and its depth. Depth 0 marks an id that is no buffer (a
// gap that aligns the lanes of a two-thread kernel); it never holds a flit.
func (k *Kernel) BufferInfo(b int32) (sw, port int32, output, source bool, depth int) {
	x := &k.bs[b]
	depth = x.Depth()
	if p, ok := k.stepper.(queueModel); ok && x.kind == kindOut {
		depth = p.depth()
	}
	return k.bSw[b], k.bPort[b], x.kind == kindOut, x.kind == kindSource, depth
}

// Occupancy is the number of flits in buffer b (slots reserved by flits on
// the link count).
func (k *Kernel) Occupancy(b int32) int {
	if p, ok := k.stepper.(queueModel); ok {
		return p.occupancy(b)
	}
	return k.bs[b].Len()
}

// Owner is the worm bound at buffer b (the one whose flits it routes), or -1.
func (k *Kernel) Owner(b int32) int32 {
	if p, ok := k.stepper.(queueModel); ok {
		return p.owner(b)
	}
	return k.bs[b].worm
}

// Channels is the number of channels: every switch output port's link, then
// every terminal's injection link.
func (k *Kernel) Channels() int32 { return int32(len(k.Links) + len(k.injLinks)) }

// ChannelName names channel ch.
func (k *Kernel) ChannelName(ch int32) string {
	if int(ch) < len(k.Links) {
		return k.PortName(ch)
	}
	return "terminal " + itoa(int(ch)-len(k.Links)) + " injection"
}

// ChannelEnd names the receiving end of channel ch: a switch's input port,
// e.g. "r(4,4).in[x-]", or "terminal 12".
func (k *Kernel) ChannelEnd(ch int32) string {
	t := k.Topo
	var sw, port int32
	if int(ch) < len(k.Links) {
		s := k.switchOf(ch)
		e := t.Switches[s].Out[ch-k.portBase[s]]
		if e.Switch < 0 {
			return "terminal " + itoa(int(e.Terminal))
		}
		sw, port = e.Switch, e.Port
	} else {
		term := int(ch) - len(k.Links)
		sw, port = t.InSwitch[term], t.InPort[term]
	}
	return t.Switches[sw].Label + ".in[" + k.portName(int(port)) + "]"
}

// ChannelConnected reports whether channel ch is wired (mesh edge ports are
// not).
func (k *Kernel) ChannelConnected(ch int32) bool {
	return int(ch) >= len(k.Links) || k.pDest[ch] >= 0
}

func itoa(v int) string {
	if v == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for ; v > 0; v /= 10 {
		i--
		b[i] = byte('0' + v%10)
	}
	return string(b[i:])
}

// traceBlocked reports every front flit that does not move this cycle.
func (k *Kernel) traceBlocked() {
	for b := range k.activeBuffers() {
		if k.stepper.moves(k, b) {
			continue
		}
		reason, who, at := k.blockReason(b)
		k.tr.Blocked(k.now, *k.bs[b].Front(), b, reason, who, at)
	}
}

// blockReason is the first thing b's front flit waits for, by the
// movement rule (rule.go).
func (k *Kernel) blockReason(b int32) (Wait, int32, int32) {
	h := &k.traceHolds
	h.list = h.list[:0]
	if k.stepper.rule(k, b, h) || len(h.list) == 0 {
		return WaitSpace, -1, -1 // (flow found no move: it cannot happen)
	}
	w := h.list[0]
	return w.why, w.who, w.at
}
