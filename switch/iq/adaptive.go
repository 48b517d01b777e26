package iq

// The adaptive choice (routing: adaptive, west-first, odd-even): which of
// the output VCs a routed head may take it asks for.

// asks lists in r.cbuf the free output VCs the routed head of input VC iv
// at switch s asks for in a VC allocation: every free one of its range
// under a routing without a choice; under an adaptive routing the free
// adaptive VCs of the one candidate port with the fewest flits queued
// beyond it (queued: sent, credits not back, over all its VCs; the first
// port in order on a tie), and its escape VCs only when no candidate port
// has a free adaptive VC. The router chooses rather than the allocator:
// iSLIP, BookSim's and flitsim's default, ignores priorities, and asking
// for every VC at once let heads take escape VCs (dimension order) while
// adaptive ones were free and pick a congested port as often as an idle
// one. A head that finds every adaptive VC held asks for the escape VCs
// in that same cycle, so Duato's way out is always open.
func (r *router) asks(s int, iv int32) []int32 {
	if r.ar == nil {
		return r.candidates(s, iv)
	}
	v := int32(r.v)
	lo, hi := int32(r.lo[iv]), int32(r.hi[iv])
	best, bestQ := int32(-1), 0
	for m := r.cand[iv]; m != 0; {
		o := int32(m.Next())
		if r.firstFree((r.base[s]+o)*v, lo, hi) < 0 {
			continue
		}
		if q := r.queued(s, int(o)); best < 0 || q < bestQ {
			best, bestQ = o, q
		}
	}
	r.cbuf = r.cbuf[:0]
	if best >= 0 {
		r.appendFree((r.base[s]+best)*v, lo, hi)
	} else if e := r.esc[iv]; e >= 0 {
		r.appendFree((r.base[s]+e)*v, int32(r.escLo[iv]), int32(r.escHi[iv]))
	}
	return r.cbuf
}

// firstFree is the first free output VC among ob+lo … ob+hi−1, or −1.
func (r *router) firstFree(ob, lo, hi int32) int32 {
	for u := lo; u < hi; u++ {
		if r.owner[ob+u] == -1 {
			return ob + u
		}
	}
	return -1
}

// appendFree adds the free output VCs among ob+lo … ob+hi−1 to r.cbuf.
func (r *router) appendFree(ob, lo, hi int32) {
	for u := lo; u < hi; u++ {
		if r.owner[ob+u] == -1 {
			r.cbuf = append(r.cbuf, ob+u)
		}
	}
}
