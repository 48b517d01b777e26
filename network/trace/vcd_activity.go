package trace

import "github.com/flitsim/flitsim/network"

// vsw is one traced switch's activity signals (Options.Activity, set by
// run.router_activity): flits_switched counts the flits that left its
// output ports since the trace began; blocked is 1 in the cycles in which a
// front flit of one of its buffers could not move for want of a port, a
// slot, an arbitration win or its tail (not one still on its link) — the
// cycles Result.Routers counts as blocked_cycles.
type vsw struct {
	idFlits, idBlocked string
	flits, cFlits      uint64 // now, and last written
	stamp              int64  // last cycle blocked
	cBlocked           bool   // last written
}

// addSwitch declares switch s's activity signals (ids made by the header).
func (v *VCD) addSwitch(s int, idFlits, idBlocked string) {
	if v.swIdx == nil {
		v.swIdx = make([]int32, len(v.k.Topo.Switches))
		for i := range v.swIdx {
			v.swIdx[i] = -1
		}
	}
	v.swIdx[s] = int32(len(v.sws))
	v.sws = append(v.sws, vsw{idFlits: idFlits, idBlocked: idBlocked, stamp: -1})
}

// switched counts a flit leaving switch sw (a channel owner, < 0 for an
// injection link).
func (v *VCD) switched(sw int32) {
	if sw >= 0 && v.swIdx != nil {
		if i := v.swIdx[sw]; i >= 0 {
			v.sws[i].flits++
		}
	}
}

// blockedAt notes a blocked front flit in switch buffer bi (index into bufs).
func (v *VCD) blockedAt(cycle int64, bi int32, reason network.Wait) {
	if reason == network.WaitLink || v.swIdx == nil {
		return
	}
	if i := v.swIdx[v.bufs[bi].sw]; i >= 0 {
		v.sws[i].stamp = cycle
	}
}

// activity writes the switches' changed signals at the end of cycle.
func (v *VCD) activity(cycle int64) {
	for i := range v.sws {
		s := &v.sws[i]
		if s.flits != s.cFlits || v.force {
			s.cFlits = s.flits
			v.vec(s.flits, s.idFlits)
		}
		if b := s.stamp == cycle; b != s.cBlocked || v.force {
			s.cBlocked = b
			v.scalar(bit(b), s.idBlocked)
		}
	}
}

// idleActivity clears the blocked signals (a skipped cycle: nothing waits);
// with initial, it writes every value as at the start.
func (v *VCD) idleActivity(initial bool) {
	for i := range v.sws {
		s := &v.sws[i]
		if initial {
			v.vec(s.flits, s.idFlits)
		}
		if s.cBlocked || initial {
			s.cBlocked = false
			v.scalar('0', s.idBlocked)
		}
	}
}

// anyBlocked reports whether a blocked signal was last written 1.
func (v *VCD) anyBlocked() bool {
	for i := range v.sws {
		if v.sws[i].cBlocked {
			return true
		}
	}
	return false
}

func bit(b bool) byte {
	if b {
		return '1'
	}
	return '0'
}
