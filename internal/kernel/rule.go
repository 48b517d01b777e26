package kernel

import (
	"github.com/flitsim/flitsim/flit"
	xbar "github.com/flitsim/flitsim/switch"
)

// The movement rule: may the front flit of a buffer move in this cycle, and
// if not, what does it wait for. moveRule is the one statement of it. The
// general path's flow asks it for the answer alone (canMove); the tracer
// asks for the first thing a blocked flit waits for (blockReason); the
// deadlock detector asks for every one of them and turns those that last
// into edges of its wait-for graph (waits). The fast path decides the same
// question for its narrower case in its own way (flow_fast.go), and the
// lockstep test (TestFastPathMatchesGeneral) holds it to this rule.

// hold is one thing a front flit waits for: why, the worm holding it (or
// -1), where (the buffer, global port or terminal, as in Tracer.Blocked;
// or -1) and the buffer whose front flit must move for the wait to end,
// where the rule knows it (a full destination, a source register about to
// start its own packet), or -1.
type hold struct {
	why     Wait
	who, at int32
	buf     int32
}

// holds collects what moveRule finds: with all, every hold (the deadlock
// detector); without, the first (the tracer).
type holds struct {
	all  bool
	list []hold
}

// add records a hold and reports whether the rule should look for more. A
// nil h (flow) records nothing and ends the rule at the first hold.
func (h *holds) add(why Wait, who, at, buf int32) bool {
	if h == nil {
		return false
	}
	h.list = append(h.list, hold{why: why, who: who, at: at, buf: buf})
	return h.all
}

// moveRule reports whether the front flit of b (x is its state) moves this
// cycle, and reports to h what it waits for if it does not. The checks, in
// order:
//   - ready: not still on a link or waiting for its routing delay (WaitLink);
//   - a synchronous worm not held back by another branch (WaitSync);
//   - bound: its worm has been routed at this buffer (else WaitArb, at −1);
//   - ports: its worm holds every port it is copied to (else, per port,
//     WaitPort with the holder, or WaitArb when the port is free: it lost
//     the arbitration or has not asked yet);
//   - injection: a path worm relayed here, and a source register, need the
//     node's one injection channel (WaitInject, at: the terminal);
//   - store-and-forward: a head waits for its own tail (WaitTail);
//   - room: every destination can take the flit, or under virtual
//     cut-through the whole packet (WaitSpace, at: the full buffer). Room
//     counts a slot whose own front flit moves on in this cycle (with
//     switch.reuse), which is the combinational chain canMove resolves.
func (k *Kernel) moveRule(b int32, x *bufState, h *holds) bool {
	// (With h nil, flow's case, every failed check returns at once; the
	// holds are reported off that path, so that flow pays nothing for
	// them.)
	if x.Empty() {
		return false
	}
	f := x.Front()
	if !f.Ready(k.now) {
		h.add(WaitLink, -1, -1, -1)
		return false
	}
	var cm xbar.PortSet
	if x.rSw >= 0 {
		if x.worm != f.Worm {
			if h != nil && k.syncHold(f, h) {
				h.add(WaitArb, -1, -1, -1) // routed in the next routing pass
			}
			return false
		}
		cm = k.need(x, f)
		if miss := cm &^ x.mask; miss != 0 {
			if h != nil && k.syncHold(f, h) {
				k.portHolds(x, miss, h)
			}
			return false
		}
	}
	ok, need := true, 1
	if k.syncLive > 0 || k.pathLive > 0 || k.mode != xbar.Wormhole {
		var more bool
		if need, ok, more = k.specialRule(b, x, f, h); !more {
			return false
		}
	}
	if h != nil {
		return k.roomHolds(x, cm, need, h) && ok
	}
	// (Here every check so far passed: with h nil a failed one returns.)
	if x.rSw < 0 {
		return k.hasRoom(x.fixed, need)
	}
	base := k.portBase[x.rSw]
	for m := cm; m != 0; {
		if !k.hasRoom(k.pDest[base+int32(m.Next())], need) {
			return false
		}
	}
	return true
}

// syncHold reports a synchronous worm held back by another branch
// (WaitSync), and whether the rule should look for more.
func (k *Kernel) syncHold(f *flit.Flit, h *holds) bool {
	if k.syncLive > 0 && k.vetoAt[f.Worm] == k.now {
		return h.add(WaitSync, f.Worm, -1, -1)
	}
	return true
}

// roomHolds reports the destinations of x's front flit that cannot take
// need flits (its fixed one, or those of the ports cm at x's switch), and
// whether all can.
func (k *Kernel) roomHolds(x *bufState, cm xbar.PortSet, need int, h *holds) bool {
	if x.rSw < 0 {
		if !k.hasRoom(x.fixed, need) {
			h.add(WaitSpace, k.frontWorm(x.fixed), x.fixed, x.fixed)
			return false
		}
		return true
	}
	base, ok := k.portBase[x.rSw], true
	for m := cm; m != 0; {
		if d := k.pDest[base+int32(m.Next())]; !k.hasRoom(d, need) {
			if ok = false; !h.add(WaitSpace, k.frontWorm(d), d, d) {
				return false
			}
		}
	}
	return ok
}

// specialRule holds the checks that only synchronous or path-based worms and
// cut-through or store-and-forward switching need, off the common path. It
// returns the free slots each destination must offer, whether these checks
// pass, and whether moveRule should go on (to report more holds, or to
// decide the room).
func (k *Kernel) specialRule(b int32, x *bufState, f *flit.Flit, h *holds) (need int, ok, more bool) {
	need, ok = 1, true
	if k.syncLive > 0 && k.vetoAt[f.Worm] == k.now {
		if ok = false; !h.add(WaitSync, f.Worm, -1, -1) {
			return 0, false, false
		}
	}
	if x.also >= 0 {
		if x.worm != f.Worm {
			h.add(WaitArb, -1, -1, -1) // not bound yet
			return 0, false, false
		}
		if o, src, free := k.relayWait(x); !free {
			if h == nil {
				return 0, false, false
			}
			if src >= 0 {
				o = k.bs[src].Front().Worm // the node's own packet goes first
			}
			if ok = false; !h.add(WaitInject, o, x.relT, src) {
				return 0, false, false
			}
		}
	}
	if x.kind == kindSource && k.pathLive > 0 {
		// A path worm is relaying through this node.
		if o := k.injOwner[k.bSw[b]]; o >= 0 && o != f.Worm {
			if ok = false; !h.add(WaitInject, o, k.bSw[b], -1) {
				return 0, false, false
			}
		}
	}
	if f.Seq == 0 && k.mode != xbar.Wormhole {
		// The switching mode's rules for a head (switch/mode.go).
		w := &k.Pool.Worms[f.Worm]
		// (The source holds the whole packet by construction.)
		if k.mode.HeadWaitsForTail() && x.kind != kindSource && !k.wholeIn(x, w) {
			h.add(WaitTail, f.Worm, -1, -1)
			return 0, false, false
		}
		need = k.mode.HeadRoom(int(w.Len))
	}
	if x.also >= 0 && !k.hasRoom(x.also, need) {
		if h == nil {
			return 0, false, false
		}
		if ok = false; !h.add(WaitSpace, k.frontWorm(x.also), x.also, x.also) {
			return 0, false, false
		}
	}
	return need, ok, true
}

// portHolds reports the ports of miss (at x's switch) that x's worm does
// not hold: every one, held (WaitPort) or free (WaitArb, at the port), to
// a list of all holds; else the first held one, or WaitArb.
func (k *Kernel) portHolds(x *bufState, miss xbar.PortSet, h *holds) {
	base := k.portBase[x.rSw]
	held := false
	for m := miss; m != 0; {
		gp := base + int32(m.Next())
		if o := k.owner[gp]; o != xbar.Free {
			held = true
			if !h.add(WaitPort, o, gp, -1) {
				return
			}
		} else if h.all {
			h.add(WaitArb, -1, gp, -1)
		}
	}
	if !held && !h.all {
		h.add(WaitArb, -1, -1, -1)
	}
}

// frontWorm is the worm at the front of destination d, or -1 (a terminal,
// or an empty buffer short of room for a whole packet).
func (k *Kernel) frontWorm(d int32) int32 {
	if d >= k.nb || k.bs[d].Empty() {
		return -1
	}
	return k.bs[d].Front().Worm
}
