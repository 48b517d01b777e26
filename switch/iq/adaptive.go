package iq

// The adaptive choice (routing: adaptive, west-first, odd-even): which of
// the output VCs a routed head may take it asks for.

// askVCs adds the requests of the routed head of input VC iv at switch s
// to its VC allocation (askPort): every free output VC of its range under
// a routing without a choice; under an adaptive routing the free
// adaptive VCs of the one candidate port with the fewest flits queued
// beyond it (queued: sent, credits not back, over all its VCs; the first
// port in order on a tie), and its escape VCs only when no candidate port
// has a free adaptive VC. The router chooses rather than the allocator:
// iSLIP, BookSim's and flitsim's default, ignores priorities, and asking
// for every VC at once let heads take escape VCs (dimension order) while
// adaptive ones were free and pick a congested port as often as an idle
// one. A head that finds every adaptive VC held asks for the escape VCs
// in that same cycle, so Duato's way out is always open.
func (r *router) askVCs(s int, iv int32) {
	c := &r.vc[iv]
	if r.ar == nil {
		for m := c.cand; m != 0; {
			r.askPort(s, iv, int32(m.Next()), c.lo, c.hi)
		}
		if e := c.esc; e >= 0 {
			r.askPort(s, iv, e, c.escLo, c.escHi)
		}
		return
	}
	best, bestQ := int32(-1), 0
	for m := c.cand; m != 0; {
		o := int32(m.Next())
		if r.freeOV[r.base[s]+o]&(uint64(1)<<c.hi-1)>>c.lo<<c.lo == 0 {
			continue
		}
		if q := r.queued(s, int(o)); best < 0 || q < bestQ {
			best, bestQ = o, q
		}
	}
	if best >= 0 {
		r.askPort(s, iv, best, c.lo, c.hi)
	} else if e := c.esc; e >= 0 {
		r.askPort(s, iv, e, c.escLo, c.escHi)
	}
}
