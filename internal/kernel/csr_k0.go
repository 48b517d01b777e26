package kernel

import "math/bits"

// CSR's unbuffered control interval and transmission (csr.k = 0), the
// common case, on a leaner path than §3.5's general rule (csr.go): with
// no buffers a flit books link h + 1 for interval h + 1 at step h, so its
// c_f and T need not be stored, its path is fixed by its entry buffer
// and destination (laid out again where a packet enters, crosses or a
// trace asks), and an entered packet never waits. A flit carries what it
// needs in one dense record, a link its reservation list and its contest
// in another, a packet in the network where it is. The random draws,
// their order and every outcome are csr.go's rule's:
// TestCSRPinnedOutcomes (network) pins them.
//
// Two facts make one pass per forward step enough. At step 0 every flit
// claims its own entry buffer's link (csrAttempts takes that step), so
// no two flits meet and none draws. At a later step a link's claims come
// from the flits at its queue, which arrived over the queue's two input
// links, each booked by one flit at the step before: a link has at most
// two claimants. Of two claimants in a random order the first books the
// link; csr.go draws that as the second claimant (in entry order) taking
// it with probability 1/2, from one draw made when it claims. So a flit
// is listed as it claims, and struck off again (e = −1) if the second
// claimant takes its link.

// csrPos is where a flit or an entered packet is with K = 0: the queue
// whose link it claims or crosses next (dim·N + the node), its node ⊕
// destination (bit i: dimension i is still to cross) and 1 << dim. (No
// shift by a variable count: the two steps below are a few plain
// operations.)
type csrPos struct {
	q, rem, nb int32
}

// csrStart is the position of entry buffer e's flit to dest, at the
// entry buffer's queue (N = 2^ud).
func csrStart(e int, dest int32, ud uint) csrPos {
	q := int32(e >> 1)
	return csrPos{q, q&(1<<ud-1) ^ dest, 1 << (uint(q>>ud) & 31)}
}

// link is the link p claims or crosses: its queue's forward link when
// the queue's dimension is still to cross, else its internal link.
func (p csrPos) link() int32 {
	return p.q<<1 | int32(uint32(-(p.rem&p.nb))>>31)
}

// cross is p at the far end of link(): the queue of the next dimension
// down (mod d) of the node the link leads to (n = N, dn = d·N).
func (p csrPos) cross(n, dn int32) csrPos {
	p.q, p.rem, p.nb = p.q^(p.rem&p.nb)-n, p.rem&^p.nb, p.nb>>1
	if p.nb == 0 { // (from dimension 0 to d − 1)
		p.q, p.nb = p.q+dn, n>>1
	}
	return p
}

// csrFlit is a flit of this control interval with K = 0: its entry
// buffer (−1: blocked this step by a later claimant) and where it is.
type csrFlit struct {
	e int32
	csrPos
}

// csrLinkK0 is a link's state with K = 0: its reservation list (bit t−1:
// booked by an entered packet for the t-th interval from now; t ≤ d ≤ 20)
// and its latest contest — the forward step's tag and the place in the
// flit list of the flit holding the link.
type csrLinkK0 struct {
	mask, tag uint32
	win       int32
}

// csrPktK0 is an entered packet with K = 0: where it is, the links it has
// crossed and its distance to its destination (the bits of rem: counted
// down, not counted anew at each hop).
type csrPktK0 struct {
	csrPos
	h, dist int16
}

// csrStep0K0 is forward step 0 with no buffers: each flit claims its own
// entry buffer's link for interval 1, alone (no two flits meet, none
// draws), and books it unless an entered packet holds it; a flit that
// books is listed at the link's far end.
func (m *slotted) csrStep0K0() {
	c := m.csr
	fl, lk, nres, dest := c.fl[:cap(c.fl)], c.lk, c.nres, c.dest // (a flit per entry buffer at most)
	ud, n1, dn := uint(m.d)&31, int32(m.n), int32(m.d*m.n)
	nf := 0
	for _, e := range c.sent {
		if lk[e].mask&1 != 0 { // blocked
			nres[e] = 0
			continue
		}
		nres[e] = 1 // (d = 1: booked all)
		fl[nf] = csrFlit{e, csrStart(int(e), dest[e], ud).cross(n1, dn)}
		nf++
	}
	c.fl, c.booked, c.going = fl[:nf], int64(nf), nf
}

// csrLean reports whether this interval takes the lean backward phase
// (csrBackwardK0), which needs no flit's booking count.
func (m *slotted) csrLean() bool {
	return m.csr.K == 0 && m.tr == nil && !m.spec.Fresh
}

// csrForwardK0 is forward step h ≥ 1 with no buffers: each flit in entry
// order claims its link for interval h + 1; a link an entered packet
// holds blocks it, and of two claimants the second draws for the link
// (see the top of the file). A blocked flit's bookings are the steps
// before h (nres, written off the lean path only); a flit left after
// step d − 1 booked all d.
//
// The bookings of this interval stay out of the links' masks until the
// backward phase, which writes only the ACKed flits' (csrConfirmK0): bit
// h is booked in this interval only at step h, and there the link's
// contest says who booked it, so a mask need only hold earlier intervals'
// bookings. Ghosts then cost nothing to free.
func (m *slotted) csrForwardK0(k *Kernel, h int) {
	c := m.csr
	if !m.csrLean() { // (each flit going has booked h: kept where it stops)
		c.countGoing(h)
	}
	tag := c.nextTag()
	fl, lk := c.fl, c.lk
	hb, n1, dn := uint32(1)<<(uint(h)&31), int32(m.n), int32(m.d*m.n)
	n := 0
	c.going = 0 // (minus the flits struck off, until the end)
	for i := range fl {
		f := fl[i]
		if f.e < 0 {
			continue
		}
		r := &lk[f.link()]
		if r.mask&hb != 0 { // booked in an earlier interval
			continue
		}
		if r.tag == tag { // the second claimant: the link is its with probability 1/2
			if uint32(k.src.Uint64()) >= 1<<31 {
				continue
			}
			fl[r.win].e = -1 // (struck off: its booking is the second claimant's)
			c.going--
		}
		r.tag, r.win = tag, int32(n)
		fl[n] = csrFlit{f.e, f.cross(n1, dn)}
		n++
	}
	c.fl = fl[:n]
	c.going += n
	c.booked += int64(c.going)
	if h == m.d-1 && !m.csrLean() {
		c.countGoing(m.d)
	}
}

// countGoing sets the booking count of every flit still going to h.
func (c *csrState) countGoing(h int) {
	for _, f := range c.fl {
		if f.e >= 0 {
			c.nres[f.e] = uint8(h)
		}
	}
}

// nextTag is a new forward step's tag; on wrap-around (after 2^32 steps)
// the links' old tags are cleared, so a tag never names two steps.
func (c *csrState) nextTag() uint32 {
	if c.tag++; c.tag == 0 {
		for i := range c.lk {
			c.lk[i].tag = 0
		}
		c.tag = 1
	}
	return c.tag
}

// csrBackwardK0 is csrBackward for K = 0 with no tracer and NACKed
// packets kept (not csr.fresh): a NACKed flit then leaves nothing to undo
// (its ghosts never reached the masks, its entry buffer stays
// backlogged), so only the ACKed flits — those left after step d − 1, in
// entry order as csrBackward takes them — are visited; the NACKs and
// ghosts are counted from the flits sent and the bookings made.
func (m *slotted) csrBackwardK0(now int64, meas bool) {
	c, d := m.csr, m.d
	if meas {
		acked := int64(c.going)
		m.c.Nacks += c.nsent - acked
		m.c.Ghost += c.booked - int64(d)*acked
	}
	for _, f := range c.fl {
		if f.e >= 0 {
			m.csrEnter(int(f.e), now, meas)
		}
	}
}

// csrConfirmK0 writes ACKed flit e's d bookings into the links' masks
// and returns its packet at its first link. A link-slot booked twice
// would carry two packets: counted as a collision (never expected).
func (m *slotted) csrConfirmK0(e int) csrPktK0 {
	c, n1, dn := m.csr, int32(m.n), int32(m.d*m.n)
	p := csrStart(e, c.dest[e], uint(m.d)&31)
	for h, at := uint(0), p; h < uint(m.d); h++ {
		r := &c.lk[at.link()]
		if r.mask>>(h&31)&1 != 0 {
			m.c.Collisions++
		}
		r.mask |= 1 << (h & 31)
		at = at.cross(n1, dn)
	}
	return csrPktK0{p, 0, int16(bits.OnesCount32(uint32(p.rem)))}
}

// csrPathK0 lays out the links of entry buffer e's path (step h's at
// dst[h]), for its trace.
func (m *slotted) csrPathK0(e int, dst []int32) {
	at := csrStart(e, m.csr.dest[e], uint(m.d)&31)
	for h := range dst {
		dst[h] = at.link()
		at = at.cross(int32(m.n), int32(m.d*m.n))
	}
}

// csrTransmitK0 is csrTransmit with no buffers: every packet crosses its
// next link (booked for this slot) and is delivered after its d-th.
func (m *slotted) csrTransmitK0(now int64, meas bool) {
	c, d, n1, dn := m.csr, int16(m.d), int32(m.n), int32(m.d*m.n)
	pk, occ, pi := c.pk0, m.c.Occupancy, m.c.Pi
	m.hops += int64(len(c.active))
	for i := 0; i < len(c.active); {
		p := c.active[i]
		r := &pk[p]
		link := r.link()
		if m.tr != nil {
			m.traceCSR(SlotCrossed, int(link), c.pkt[p].id, 0, c.pkt[p].dest(), int32(r.h)+1)
		}
		if meas {
			occ[r.h+1]++
			if link&1 == 1 { // a forward link (π_i: slotted_pi.go)
				pi[r.dist]++
			}
		}
		r.csrPos, r.dist = r.cross(n1, dn), r.dist-int16(link&1)
		if r.h++; r.h < d {
			i++
			continue
		}
		far := r.q & int32(m.nodeMask)
		if far != c.pkt[p].dest() {
			m.c.Misrouted++
		}
		// (newPacket dates a packet from the slot after it was made, ch.
		// 5's convention; a CSR packet enters in its ACK's slot, so the
		// delivery is counted one slot on to give the slots from entry.)
		m.deliver(c.pkt[p], int(far), now+1, meas, -1)
		c.active[i] = c.active[len(c.active)-1]
		c.active = c.active[:len(c.active)-1]
		c.free = append(c.free, p)
	}
}
