package kernel

// CSR's unbuffered control interval (csr.k = 0), the common case, on a
// leaner path than §3.5's general rule (csr.go): with no buffers a flit
// books link h + 1 for interval h + 1 at step h, so its c_f and T need
// not be stored, and its path is fixed by its entry buffer and
// destination. A flit carries what it needs in one dense record (the
// links it meets are the slotted router's), and a link's contest in one
// place. The random draws, their order and every outcome are csr.go's
// rule's: TestCSRPinnedOutcomes (network) pins them.

// csrFlit is a flit of this control interval with K = 0.
type csrFlit struct {
	e    int32 // its entry buffer
	q    int32 // the queue it is at: dim·N + the node (its link's index / 2)
	diff int32 // source ⊕ destination: bit i, cross dimension i
	dim  int32 // the dimension of this step's link
	link int32 // this step's link, −1 when it is booked already
}

// at is the link flit f claims this step: its queue's internal or
// forward link by the destination's bit in the queue's dimension.
func (f *csrFlit) at() int32 { return f.q<<1 | f.diff>>(uint(f.dim)&31)&1 }

// cross moves f over link at() to the link's far end, the queue of the
// next dimension down (mod d; ud = d). (Shift counts masked: d ≤ 20, and
// the compiler then drops its over-wide-shift checks.)
func (f *csrFlit) cross(ud uint) {
	dim := uint(f.dim) & 31
	f.q = f.q ^ (f.diff>>dim&1)<<dim - 1<<ud // (the node's bit, then dim − 1)
	if f.dim--; f.dim < 0 {
		f.dim += int32(ud)
		f.q += int32(ud) << ud
	}
}

// csrContest is a link's K = 0 contest in one step: the step's tag, the
// claims counted and the one kept.
type csrContest struct {
	tag      int64
	cnt, win int32
}

// csrFlitK0 is the K = 0 record of entry buffer e's flit (csrAttempts
// lists them).
func (m *slotted) csrFlitK0(e int) csrFlit {
	s := int32(m.linkNode(e))
	return csrFlit{e: int32(e), q: int32(e >> 1), diff: s ^ m.csr.dest[e], dim: int32(m.linkDim(e))}
}

// csrLean reports whether this interval takes the lean backward phase
// (csrBackwardK0), which needs no flit's booking count.
func (m *slotted) csrLean() bool {
	return m.csr.K == 0 && m.tr == nil && !m.spec.Fresh
}

// csrForwardK0 is csrForward with no buffers: every claim at a link in
// step h is for interval h + 1, so of a random order only its first claim
// can book. It is drawn without the shuffle: the claims of a free link
// are counted and one is kept uniformly (reservoir sampling), then the
// kept ones book. The outcome is the same rule's, in two passes over the
// flits in entry order (cache-friendly at large d). A blocked flit's
// bookings are the steps before h (nres); a flit left after step d − 1
// booked all d.
//
// The bookings of this interval stay out of the links' masks until the
// backward phase, which writes only the ACKed flits' (csrConfirmK0): bit
// h is booked in this interval only at step h, and there the link's
// contest says who booked it, so a mask need only hold earlier intervals'
// bookings. Ghosts then cost nothing to free.
func (m *slotted) csrForwardK0(k *Kernel, h int, now int64) {
	c, d := m.csr, m.d
	tag := now*int64(d) + int64(h) + 1 // (unique per step)
	fl, con, mask, lean := c.fl, c.con, c.mask, m.csrLean()
	ud, uh := uint(d)&31, uint(h)&63 // (masked: see cross)
	for i := range fl {
		f := &fl[i]
		link := int(f.at())
		if mask[link]>>uh&1 != 0 { // booked in an earlier interval
			f.link = -1 // (no flit contests it: blocked)
			continue
		}
		f.link = int32(link)
		ct := &con[link]
		if ct.tag != tag {
			ct.tag, ct.cnt, ct.win = tag, 1, f.e
			continue
		}
		ct.cnt++
		if uint64(uint32(k.src.Uint64()))*uint64(ct.cnt)>>32 == 0 {
			ct.win = f.e
		}
	}
	n := 0
	for i := range fl {
		f := &fl[i]
		link := int(f.link)
		if link < 0 || con[link].tag != tag || con[link].win != f.e {
			if !lean {
				c.nres[f.e] = uint8(h) // blocked: NACKed in the backward phase
			}
			continue
		}
		c.resL[int(f.e)*d+h] = f.link
		f.cross(ud)
		fl[n] = *f
		n++
	}
	c.fl = fl[:n]
	c.booked += int64(n)
	if h == d-1 && !lean {
		for _, f := range c.fl {
			c.nres[f.e] = uint8(d)
		}
	}
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
		acked := int64(len(c.fl))
		m.c.Nacks += int64(len(c.sent)) - acked
		m.c.Ghost += c.booked - int64(d)*acked
	}
	for _, f := range c.fl {
		m.csrEnter(int(f.e), now, meas)
	}
}

// csrConfirmK0 writes ACKed flit e's d bookings into the links' masks.
func (m *slotted) csrConfirmK0(e int) {
	c, d := m.csr, m.d
	for h, link := range c.resL[e*d : e*d+d] {
		c.mask[link] |= 1 << (uint(h) & 63)
	}
}
