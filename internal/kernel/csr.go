package kernel

import (
	"math"
	"slices"
)

// Conflict Sense Routing (SlottedCSR) on the slotted hypercube router:
// Varvarigos 1992 §6.2–6.3 (digest 000b §3.5, §3.6). The links, their
// indices and the descending-dimensions wiring are the slotted router's
// (slotted.go): link (i, s, b) is Q_i^b(s), stored at (i·N + s)·2 + b, and
// it ends at Q_{i−1}(s ⊕ b·e_i). A packet never meets another on a link:
// before it enters, a control flit books every link of its path for the
// transmission interval the packet will cross it in.
//
// Entry buffers: one per link buffer Q_l^b(s) (2d per node; digest §7.15),
// at the same index, holding one packet whose destination has tag bit l =
// b. Each slot a packet arrives at each entry buffer with probability p0
// (traffic.p0, q_a), destination uniform over the nodes that fit. An empty
// buffer takes it and sends its flit at once; a backlogged one (its packet
// was NACKed) discards it (dropped, cause "discarded") and retries its own
// packet with probability Retry (csr.retry, q_r). With Retry = p0 every
// entry buffer attempts with probability p0 a slot whatever its state, but
// a retry keeps its blocked destination. Fresh (csr.fresh) instead drops a
// NACKed packet (cause "nacked"): every attempt is then a new packet, the
// independent Bernoulli(p0) attempts of the analysis (§6.4), which is what
// Table 6.1's p0 means.
//
// Reservation list of a link: mask bit t−1 set = the link is booked for
// the t-th transmission interval from now (t = 1: this slot's), t ≤ L =
// min(64, d(K+1)); with K > 0, buf counts the packets booked to wait in
// the link's buffer per interval (a ring by absolute slot mod L). The list
// shifts by one at the end of each transmission interval.
//
// One slot = one control interval (β time units) then one transmission
// interval (one time unit):
//
//	control, forward phase, steps h = 0..d−1: every flit still going
//	  claims the link of its step (dimension l − h mod d, forward or
//	  internal by its tag bit). The claims of one link are taken one at a
//	  time in a random order (the flits shuffled afresh each step), each by
//	  §3.5's rule: the least T ≥ c_f whose link bit is free, every
//	  interval in [c_f, T) having a free buffer place; then c_f = T + 1.
//	  With K = 0 this is T = c_f = h + 1: the flit books link h + 1 for
//	  slot h + 1 only; of two flits at one link the first in the random
//	  order books it and the other finds it booked (drawn without a
//	  shuffle: csrForwardK0). A flit that cannot
//	  book is blocked there. Links are disjoint, so the outcome does not
//	  depend on the order in which links are visited.
//	control, backward phase: flits retrace their path (the 2d − i rule
//	  makes it collision-free, so it is not stepped): a flit that booked
//	  all d links is ACKed and its packet enters; a blocked flit is NACKed
//	  and frees what it booked. Its bookings were ghosts: they blocked
//	  others during the forward phase and are now free again.
//	transmission: every packet in the network crosses the link it booked
//	  for this slot or waits in a buffer; two packets on one link
//	  (Collisions) or more than K waiting at one buffer (Overflows) would
//	  break the protocol and are counted, never expected. A packet that
//	  crosses its d-th link is delivered at its end.
//
// Every random draw is made in a fixed order from the run's one stream, so
// a run is deterministic per seed; the flits, bookings and packets live in
// typed slices reused from slot to slot (the packet pool grows to its
// steady-state size once).

// csrState is the CSR scheme's part of the slotted router.
type csrState struct {
	L, K     int
	retry    uint64 // Retry as a threshold on a 64-bit draw
	retryAll bool   // Retry ≥ 1
	mask     []uint64
	buf      []uint8
	dest     []int32 // per entry buffer: its packet's destination, −1 empty
	fixed    []int32 // per entry buffer: csrFixed's
	// This control interval's flits, by entry buffer: where the flit is,
	// its c_f, how many links it booked and, per step, the link, the
	// interval T and the c_f it waited from.
	node       []int32
	cf, nres   []uint8
	resL       []int32
	resT, resC []uint8
	sent, live []int32
	disc       []int32 // (csrAttempts: the entry buffers whose arrival was discarded, when tracing)
	// K = 0 (csr_k0.go): the flits, per link its list and contest, the
	// last forward step's tag; flits sent, bookings made and flits still
	// going this control interval.
	fl            []csrFlit
	lk            []csrLinkK0
	tag           uint32
	nsent, booked int64
	going         int
	// Packets in the network, a pool: per packet its links and absolute
	// slots per hop, the next hop (K = 0: where it is, pk0), and the
	// packet itself.
	pk0          []csrPktK0
	pLink        []int32
	pSlot        []int64
	pNext        []uint8
	pkt          []slotPkt
	active, free []int32
	stamp        []int64 // per link: 1 + the last slot it carried a packet
	wstamp       []int64 // per link: 1 + the slot wcnt counts
	wcnt         []int32
}

func newCSR(sp SlottedSpec, d, n int) *csrState {
	nl := 2 * d * n
	c := &csrState{K: sp.K, L: min(64, d*(sp.K+1))}
	c.retryAll = sp.Retry >= 1
	c.retry = uint64(math.Ldexp(max(sp.Retry, 0), 64))
	c.dest, c.fixed = make([]int32, nl), csrFixed(sp.Fixed, d, n)
	for e := range c.dest {
		c.dest[e] = -1
	}
	// At most one flit per entry buffer; with K = 0 every packet in the
	// network is on a link, so the pool never outgrows 2dN (with K > 0 it
	// grows to its steady state once).
	c.nres, c.sent, c.disc = make([]uint8, nl), make([]int32, 0, nl), make([]int32, 0, nl)
	if c.K == 0 { // (csr_k0.go: T = c_f = h + 1 at step h, the path laid out again, no waiting)
		c.lk, c.fl, c.pk0 = make([]csrLinkK0, nl), make([]csrFlit, 0, nl), make([]csrPktK0, 0, nl)
	} else {
		c.mask, c.buf = make([]uint64, nl), make([]uint8, nl*c.L)
		c.node, c.cf, c.resL = make([]int32, nl), make([]uint8, nl), make([]int32, nl*d)
		c.resT, c.resC, c.live = make([]uint8, nl*d), make([]uint8, nl*d), make([]int32, 0, nl)
		c.stamp, c.wstamp, c.wcnt = make([]int64, nl), make([]int64, nl), make([]int32, nl)
		c.pLink, c.pSlot = make([]int32, 0, nl*d), make([]int64, 0, nl*d)
		c.pNext = make([]uint8, 0, nl)
	}
	c.pkt = make([]slotPkt, 0, nl)
	c.active, c.free = make([]int32, 0, nl), make([]int32, 0, nl)
	return c
}

// stepCSR is one slot of the CSR scheme: a control interval, then a
// transmission interval.
func (m *slotted) stepCSR(k *Kernel, now int64, meas bool) {
	c := m.csr
	m.csrAttempts(k, now, meas)
	if c.K == 0 {
		for h := 1; h < m.d; h++ { // (step 0 was taken with the attempts)
			m.csrForwardK0(k, h)
		}
	} else {
		c.live = append(c.live[:0], c.sent...)
		for h := range m.d {
			m.csrForward(k, h, now)
		}
	}
	if m.csrLean() {
		m.csrBackwardK0(now, meas)
	} else {
		m.csrBackward(now, meas)
	}
	m.csrTransmit(now, meas)
	for i := range c.lk {
		c.lk[i].mask >>= 1
	}
	for i := range c.mask {
		c.mask[i] >>= 1
	}
	if c.K > 0 { // (the intervals of slot now are over: the ring's place is slot now + L's)
		at := int(now % int64(c.L))
		for l := range c.mask {
			c.buf[l*c.L+at] = 0
		}
	}
}

// csrAttempts draws this slot's arrivals and retries and lists the entry
// buffers that send a flit; with K = 0 it then takes forward step 0
// (csrStep0K0). The loop makes no call (a call in it would keep its
// variables in memory): the discarded arrivals are traced after it.
func (m *slotted) csrAttempts(k *Kernel, now int64, meas bool) {
	c, trace := m.csr, m.tr != nil
	src, dest, always, p0 := k.src, c.dest, m.always, m.p0
	sent, disc := c.sent[:cap(c.sent)], c.disc[:cap(c.disc)] // (each at most one per entry buffer)
	ns, nd := 0, 0
	var discarded int64
	for e := range dest {
		arrive := always || src.Uint64() < p0
		if dest[e] >= 0 { // backlogged
			if arrive {
				discarded++
				if trace {
					disc[nd] = int32(e)
					nd++
				}
			}
			if !c.retryAll && src.Uint64() >= c.retry {
				continue
			}
		} else if !arrive {
			continue
		} else if dest[e] = m.csrDest(e, src.Uint64()); dest[e] < 0 {
			continue
		}
		sent[ns] = int32(e)
		ns++
	}
	c.sent, c.nsent = sent[:ns], int64(ns)
	for _, e := range disc[:nd] {
		m.traceCSR(SlotDropped, int(e), 0, uint8(DropDiscarded), -1, 0) // (the arrival's destination is not drawn)
	}
	m.countDrops(DropDiscarded, discarded, meas)
	if c.K == 0 {
		m.csrStep0K0()
		return
	}
	for _, e := range c.sent {
		c.node[e], c.cf[e], c.nres[e] = int32(m.linkNode(int(e))), 1, 0
	}
}

// dropEntry counts a packet dropped at entry buffer e, before it
// entered (so it is not among MeasuredDropped).
func (m *slotted) dropEntry(e, cause int, meas bool) {
	if m.tr != nil {
		m.traceCSR(SlotDropped, e, 0, uint8(cause), -1, 0) // (forgotten: its destination is not reported)
	}
	m.countDrops(cause, 1, meas)
}

// countDrops counts n packets dropped for cause before they entered.
func (m *slotted) countDrops(cause int, n int64, meas bool) {
	m.c.TotalDropped += n
	m.c.DroppedAll[cause] += n
	if meas {
		m.c.Dropped[cause] += n
	}
}

// csrDest is the destination of a new packet at the empty entry buffer e
// (of link buffer Q_l^b(s)) from the draw x: uniform over those with tag
// bit l = b, or the fixed one (csrFixed).
func (m *slotted) csrDest(e int, x uint64) int32 {
	if f := m.csr.fixed; f != nil && f[e] != csrUniform {
		return f[e]
	}
	b, s, l := uint64(e&1), uint64(m.linkNode(e)), uint(m.linkDim(e))&31
	return int32(x&m.nodeMask&^(1<<l) | b<<l ^ s)
}

// csrUniform marks an entry buffer with no fixed destination (csrFixed).
const csrUniform = -2

// csrFixed is, per entry buffer, its fixed destination (the spec's, per
// node) if it fits the buffer (tag bit l = b), −1 (it takes no packet)
// if not, csrUniform if the node has none; nil with no fixed pattern.
func csrFixed(fixed []int32, d, n int) []int32 {
	if fixed == nil {
		return nil
	}
	f := make([]int32, 2*d*n)
	for e := range f {
		b, s, l := e&1, e>>1&(n-1), e>>1/n
		switch dst := int(fixed[s]); {
		case dst < 0:
			f[e] = csrUniform
		case (s^dst)>>l&1 == b:
			f[e] = int32(dst)
		default:
			f[e] = -1
		}
	}
	return f
}

// csrForward is forward step h: every flit still going claims its step's
// link, and the claims of a link are served in a random order — the
// flits are shuffled afresh each step (a flit that won a contest is no
// likelier to win the next) and served in that order; flits at different
// links do not meet, so only each link's share of the order matters.
func (m *slotted) csrForward(k *Kernel, h int, now int64) {
	c := m.csr
	live := c.live
	for i := len(live) - 1; i > 0; i-- {
		j := int(uint64(uint32(k.src.Uint64())) * uint64(i+1) >> 32)
		live[i], live[j] = live[j], live[i]
	}
	kept := live[:0]
	for _, fe := range live {
		link := m.csrLink(int(fe), h)
		if T, ok := c.reserve(link, int(c.cf[fe]), now); ok {
			m.csrBook(int(fe), h, link, T)
			kept = append(kept, fe)
		} // (else blocked: NACKed in the backward phase)
	}
	c.live = kept
}

// csrLink is the link flit e claims at step h: dimension l − h mod d of
// the node it is at, forward or internal by its tag bit there.
func (m *slotted) csrLink(e, h int) int {
	c, d := m.csr, m.d
	dim := m.linkDim(e) - h
	if dim < 0 {
		dim += d
	}
	s := int(c.node[e])
	return (dim<<d|s)<<1 | (s^int(c.dest[e]))>>dim&1
}

// linkNode and linkDim are the node s and dimension i of link (or entry
// buffer) (i·N + s)·2 + b (N = 2^d: shifts, not divisions).
func (m *slotted) linkNode(link int) int { return link >> 1 & int(m.nodeMask) }
func (m *slotted) linkDim(link int) int  { return link >> (1 + m.d) }

// csrBook records flit e's booking of link for interval T at step h and
// moves the flit to the link's far end.
func (m *slotted) csrBook(e, h, link, T int) {
	c := m.csr
	r := e*m.d + h
	c.resL[r], c.resT[r], c.resC[r] = int32(link), uint8(T), c.cf[e]
	c.cf[e], c.nres[e] = uint8(T+1), c.nres[e]+1
	c.node[e] ^= int32(link&1) << m.linkDim(link)
}

// reserve books link for the least interval T ≥ cf it may by §3.5's rule
// (the link free at T, a buffer place free at every interval in [cf, T)),
// counting the waiting places; it reports false when the flit is blocked.
func (c *csrState) reserve(link, cf int, now int64) (int, bool) {
	mk := c.mask[link]
	for t := cf; t <= c.L; t++ {
		if mk>>(t-1)&1 == 0 {
			c.mask[link] = mk | 1<<(t-1)
			for u := cf; u < t; u++ {
				c.buf[c.at(link, u, now)]++
			}
			return t, true
		}
		if c.K == 0 || int(c.buf[c.at(link, t, now)]) >= c.K {
			return 0, false
		}
	}
	return 0, false
}

// at is the place of link's buffer count for interval t (from now).
func (c *csrState) at(link, t int, now int64) int {
	return link*c.L + int((now+int64(t)-1)%int64(c.L))
}

// csrBackward is the backward phase: ACKed packets enter, NACKed flits
// free their bookings (ghosts) and leave their entry buffer backlogged.
func (m *slotted) csrBackward(now int64, meas bool) {
	c, d := m.csr, m.d
	for _, e := range c.sent {
		nr := int(c.nres[e])
		if nr < d {
			m.csrFree(int(e), nr, now)
			if m.tr != nil {
				m.traceBookings(int(e), nr, 0)
			}
			if meas {
				m.c.Nacks++
				m.c.Ghost += int64(nr)
			}
			if m.spec.Fresh {
				c.dest[e] = -1
				m.dropEntry(int(e), DropNacked, meas)
			}
			continue
		}
		m.csrEnter(int(e), now, meas)
	}
}

// csrEnter lets ACKed flit e's packet enter: its d bookings are confirmed.
func (m *slotted) csrEnter(e int, now int64, meas bool) {
	c, d := m.csr, m.d
	if meas {
		m.c.Confirmed += int64(d)
	}
	p := m.csrAlloc()
	if c.K == 0 {
		c.pk0[p] = m.csrConfirmK0(e)
	} else {
		copy(c.pLink[p*d:(p+1)*d], c.resL[e*d:])
		for h := range d {
			c.pSlot[p*d+h] = now + int64(c.resT[e*d+h]) - 1
		}
		c.pNext[p] = 0
	}
	c.pkt[p] = m.newPacket(m.linkNode(e), uint64(c.dest[e]), uint32(d), now, meas)
	if m.tr != nil {
		m.traceCSR(SlotEntered, e, c.pkt[p].id, 0, c.dest[e], 0)
		m.traceBookings(e, d, c.pkt[p].id)
	}
	c.dest[e] = -1
}

// csrFree frees the nr bookings of NACKed flit e (ghosts).
func (m *slotted) csrFree(e, nr int, now int64) {
	c, d := m.csr, m.d
	if c.K == 0 {
		return // (never written into the masks: csr_k0.go)
	}
	for h := range nr {
		r := e*d + h
		link := int(c.resL[r])
		c.mask[link] &^= 1 << (c.resT[r] - 1)
		for u := int(c.resC[r]); u < int(c.resT[r]); u++ {
			c.buf[c.at(link, u, now)]--
		}
	}
}

// slotT is the interval T of booking r, made at step h.
func (c *csrState) slotT(r, h int) int {
	if c.K == 0 {
		return h + 1
	}
	return int(c.resT[r])
}

// csrAlloc takes a packet place from the pool (growing it only until the
// network holds its steady-state number of packets).
func (m *slotted) csrAlloc() int {
	c := m.csr
	if n := len(c.free); n > 0 {
		p := c.free[n-1]
		c.free = c.free[:n-1]
		c.active = append(c.active, p)
		return int(p)
	}
	p := len(c.pkt)
	c.pkt = append(c.pkt, slotPkt{})
	if c.K == 0 {
		c.pk0 = append(c.pk0, csrPktK0{})
	} else {
		c.pNext = append(c.pNext, 0)
		c.pLink, c.pSlot = slices.Grow(c.pLink, m.d)[:len(c.pLink)+m.d], slices.Grow(c.pSlot, m.d)[:len(c.pSlot)+m.d]
	}
	c.active = append(c.active, int32(p))
	return p
}

// csrTransmit is the transmission interval: each packet crosses the link
// booked for this slot, or waits in the buffer of its next link.
func (m *slotted) csrTransmit(now int64, meas bool) {
	c, d := m.csr, m.d
	if c.K == 0 {
		m.csrTransmitK0(now, meas)
		return
	}
	for i := 0; i < len(c.active); {
		p := int(c.active[i])
		h := int(c.pNext[p])
		link := int(c.pLink[p*d+h])
		if c.pSlot[p*d+h] != now { // waiting in link's buffer
			if c.wstamp[link] != now+1 {
				c.wstamp[link], c.wcnt[link] = now+1, 0
			}
			if c.wcnt[link]++; int(c.wcnt[link]) > c.K {
				m.c.Overflows++
			}
			i++
			continue
		}
		if c.stamp[link] == now+1 {
			m.c.Collisions++
		}
		c.stamp[link] = now + 1
		if m.tr != nil {
			m.traceCSR(SlotCrossed, link, c.pkt[p].id, 0, c.pkt[p].dest(), int32(h+1))
		}
		m.hops++
		if meas {
			m.c.Occupancy[h+1]++
			if link&1 == 1 { // a forward link (π_i: slotted_pi.go)
				m.countPi(c.pkt[p], m.linkNode(link))
			}
		}
		if h++; h < d {
			c.pNext[p] = uint8(h)
			i++
			continue
		}
		far := m.linkNode(link) ^ (link&1)<<m.linkDim(link)
		if int32(far) != c.pkt[p].dest() {
			m.c.Misrouted++
		}
		// (newPacket dates a packet from the slot after it was made, ch.
		// 5's convention; a CSR packet enters in its ACK's slot, so the
		// delivery is counted one slot on to give the slots from entry.)
		m.deliver(c.pkt[p], far, now+1, meas, -1)
		c.active[i] = c.active[len(c.active)-1]
		c.active = c.active[:len(c.active)-1]
		c.free = append(c.free, int32(p))
	}
}
