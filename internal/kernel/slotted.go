package kernel

import (
	"math"
	"math/bits"
)

// The slotted hypercube router (KernelSpec.Model "slotted",
// KernelSpec.Slotted): Varvarigos 1992 ch. 5, the "descending dimensions"
// node of Fig. 6.6 (digest 000b §2.1, §4.1). Time is slotted and every
// link carries at most one packet per slot.
//
// Node s has d link queues Q_i(s), i = 0..d−1. Q_i has two buffers: the
// forward buffer Q_i^1, for packets that must cross dimension i (it feeds
// the link to s ⊕ e_i, which ends at Q_{i−1}(s ⊕ e_i)), and the internal
// buffer Q_i^0 (its link ends at Q_{i−1}(s)); indices are mod d. So a
// node has 2d links, and a packet is transmitted exactly d times, visiting
// the dimensions in descending cyclic order from the queue it entered. A
// buffer holds the packet on its link plus up to k waiting packets (FIFO).
// A packet's type is the number of links it has crossed, counting the one
// it is on: 1 on its first link, d on its last.
//
// One slot, two phases, at every stage (n, i) — the 2×2 switch of queue
// Q_i(n), whose inputs are the links ending there: the internal link of
// Q_{i+1}(n) and the forward link of Q_{i+1}(n ⊕ e_{i+1}):
//
//	evaluate: a packet of type d on an input is delivered (it is at its
//	  destination after d crossings); any other claims the buffer Q_i^b(n),
//	  b = bit i of n ⊕ dest. Each of the two buffers then picks what its
//	  link carries next slot: of two claimants the winner is random
//	  (simple) or the higher type, ties random (priority); the loser waits
//	  at the tail of the buffer's FIFO, or is dropped when k packets wait.
//	  One claimant is sent; with none, the FIFO's head is sent; with an
//	  empty FIFO too the buffer is free and takes a new packet with
//	  probability p0 (traffic.p0), destination uniform over the nodes that
//	  need this buffer (bit i of s ⊕ dest = b), so the 2d buffers of a node
//	  together draw destinations uniformly over all N nodes, the source
//	  included. A new packet is never retransmitted: if the buffer is busy
//	  none is drawn.
//	commit: the links carry what their buffers picked (cur and nxt swap).
//
// A stage reads only the registered link contents and writes only its own
// two buffers, so the stages could run in any order; they run in a fixed
// order (by dimension, then node) so that the random draws, one stream per run, make a run
// deterministic per seed. Packets live in typed slices by value (a link
// register and k FIFO places per buffer), so a slot allocates nothing.
//
// The kernel's flit buffers, source queues and worm pool stay empty: the
// model's injection is per link buffer (not per terminal), so the
// network's generator is idle and Network.Result reads SlottedCounts.

// Slotted schemes (SlottedSpec.Scheme).
const (
	SlottedSimple uint8 = iota
	SlottedPriority
	SlottedDeflSimple   // deflection, random processing order (deflect.go)
	SlottedDeflPriority // deflection, closest first
	SlottedCSR          // Conflict Sense Routing (csr.go)
)

// IsDeflection reports whether scheme is one of the deflection schemes.
func IsDeflection(scheme uint8) bool {
	return scheme == SlottedDeflSimple || scheme == SlottedDeflPriority
}

// SlottedInf is SlottedSpec.K for unbounded buffers.
const SlottedInf = -1

// SlottedSpec configures the slotted router.
type SlottedSpec struct {
	Scheme uint8
	K      int     // waiting places per buffer (0: unbuffered; SlottedInf)
	P0     float64 // probability per free link buffer per slot of a new packet
	// Start and End bound the measured slots [Start, End).
	Start, End int64
	// Fixed, when set (deflection schemes), is a destination per source
	// node, −1 for uniform (Fig. 6.7's lockout pattern).
	Fixed []int32
	// Retry is CSR's q_r: the probability per slot that a backlogged
	// entry buffer retries (csr.go; K is then CSR's link buffer places).
	Retry float64
	// Fresh (CSR) drops a NACKed packet instead of backlogging its entry
	// buffer, so every attempt is a new packet: the memoryless attempt
	// process the analysis of §6.4 assumes.
	Fresh bool
	// Butterfly: the network is the folded butterfly, whose switch (i, r)
	// is stage i of node r (slotted_fbfly.go); else the d-cube.
	Butterfly bool
}

// Drop causes (SlottedCounts.Dropped).
const (
	DropConflict   = iota // k = 0: the loser of a conflict
	DropBufferFull        // k ≥ 1: the loser found k packets waiting
	DropDiscarded         // CSR: a new packet found its entry buffer backlogged
	DropNacked            // CSR with Fresh: a NACKed packet (never entered)
	dropCauses
)

// DropCauseNames name the drop causes in results.
var DropCauseNames = [dropCauses]string{"conflict", "buffer_full", "discarded", "nacked"}

// SlottedCounts is what the slotted router measured in the window.
type SlottedCounts struct {
	Slots     int64             // measured slots
	Injected  int64             // new packets that entered in them
	Delivered int64             // packets delivered in them
	Dropped   [dropCauses]int64 // packets dropped in them, by cause
	// DroppedAll is Dropped over the whole run (TotalDropped by cause).
	DroppedAll [dropCauses]int64
	// Occupancy[t] is the number of link-slots that carried a packet of
	// type t (1..d; index 0 unused): p_t = Occupancy[t] / (2dN·Slots).
	Occupancy []int64
	// DeliverySlots[s] counts the packets delivered in the window s slots
	// after they entered (d for a packet that never waited).
	DeliverySlots []int64
	// Whole run: entered = delivered + dropped + in flight.
	TotalInjected, TotalDelivered, TotalDropped, InFlight int64
	// Misrouted counts deliveries away from the destination (always 0;
	// an invariant the tests check).
	Misrouted int64
	// Deflections[j] counts the packets delivered in the window after j
	// deflections (deflection schemes only; nil otherwise).
	Deflections []int64
	// InjectedBy[s] counts the packets node s injected in the window.
	InjectedBy []int64
	// Of the packets that entered in the window (Injected), MeasuredDone
	// were delivered and MeasuredDropped dropped, whenever that happened.
	MeasuredDone, MeasuredDropped int64
	// WindowHops counts the link-slots that carried a packet in the window
	// (deflection schemes; the others count them by type in Occupancy).
	WindowHops int64
	// CSR, in the window: link bookings confirmed (their packet entered)
	// and ghost (made, then freed by the flit's NACK), and flits NACKed.
	Confirmed, Ghost, Nacks int64
	// CSR, whole run: link-slots claimed by two packets and buffer-slots
	// holding more than K waiting ones. The protocol rules both out:
	// invariants the tests check, always 0.
	Collisions, Overflows int64
	// Links is the number of the model's links (SlottedLinks).
	Links int
	// Livelock (deflection schemes, whole run; deflect_live.go).
	Livelock *DeflLivelock
	// Pi[i] counts the forward link-slots in the window whose packet was i
	// hops from its destination (1..d; index 0 unused; nil for the
	// deflection schemes): slotted_pi.go.
	Pi []int64
}

// slotPkt is a packet on a link or in a FIFO, 12 bytes: the link
// registers of a 10-cube then fit in half a megabyte.
type slotPkt struct {
	birth uint32 // first slot on a link, mod 2^32 (only ages are read)
	dt    uint32 // destination << 8 | type (type 0: no packet; d ≤ 20)
	id    uint32 // serial, for traces (SlotEvent.Packet)
}

func (p slotPkt) typ() int32  { return int32(p.dt & 0xff) }
func (p slotPkt) dest() int32 { return int32(p.dt >> 8) }

type slotted struct {
	spec     SlottedSpec
	d, n     int
	nodeMask uint64
	p0       uint64 // P0 as a threshold on a 64-bit draw (p0 ≥ 1: always)
	always   bool
	// Per link (= per buffer): (i·N + s)·2 + b, so that a dimension's
	// stages read and write contiguous runs.
	cur, nxt []slotPkt
	// FIFOs, k places per buffer (unbounded: grown per buffer).
	fifo       []slotPkt
	head, size []int32
	grow       [][]slotPkt // SlottedInf: per buffer
	c          SlottedCounts
	hops       int64 // link-slots carrying a packet, whole run
	csr        *csrState
	tr         SlotTracer // the slot's tracer, or nil (slotted_trace.go)
	slot       int64      // the slot being stepped (for traces)
	live       *deflLive  // deflection schemes' livelock watch (deflect_live.go)
}

func init() { switchModels["slotted"] = newSlotted }

// IsSlottedCube reports whether a network can host the slotted router: a
// binary d-cube whose port i of node s leads to s ⊕ 2^i and which has no
// other link (nbr is −1 past the links: the folded cube's extra link does
// not fit the descending-dimensions node).
func IsSlottedCube(nbr func(s, port int) int, nodes, ports int) bool {
	if nodes < 2 || nodes&(nodes-1) != 0 {
		return false
	}
	d := bits.TrailingZeros(uint(nodes))
	if ports < d {
		return false
	}
	for s := range nodes {
		for p := range ports {
			if want := s ^ 1<<p; p >= d && nbr(s, p) >= 0 || p < d && nbr(s, p) != want {
				return false
			}
		}
	}
	return true
}

func newSlotted(k *Kernel) Stepper {
	sp := k.spec.Slotted
	d, n := slottedShape(sp, len(k.Topo.Switches))
	m := &slotted{spec: sp, d: d, n: n, nodeMask: uint64(n - 1)}
	m.always = sp.P0 >= 1
	m.p0 = uint64(math.Ldexp(max(sp.P0, 0), 64)) // (< 1 here, so it fits)
	nl := SlottedLinks(sp.Scheme, d, n)
	m.c.Links = nl
	m.cur, m.nxt = make([]slotPkt, nl), make([]slotPkt, nl)
	m.head, m.size = make([]int32, nl), make([]int32, nl)
	switch {
	case sp.K == SlottedInf:
		m.grow = make([][]slotPkt, nl)
	case sp.K > 0:
		m.fifo = make([]slotPkt, nl*sp.K)
	}
	m.c.Occupancy = make([]int64, d+1)
	m.c.DeliverySlots = make([]int64, d+1)
	m.c.InjectedBy = make([]int64, n)
	m.c.Pi = make([]int64, d+1)
	if sp.Fixed != nil { // (checked by the caller: in range, not the source)
		m.spec.Fixed = make([]int32, n)
		for s := range n {
			m.spec.Fixed[s] = -1
			if s < len(sp.Fixed) {
				m.spec.Fixed[s] = sp.Fixed[s]
			}
		}
	}
	if IsDeflection(sp.Scheme) {
		m.c.Occupancy = nil // (no types: a packet's path length varies)
		m.c.Pi = nil        // (not a shortest-path scheme)
		m.c.Deflections = make([]int64, 1)
		m.live = &deflLive{lockRun: make([]int32, n)}
	}
	if sp.Scheme == SlottedCSR {
		m.csr = newCSR(m.spec, d, n) // (its Fixed padded to n nodes)
	}
	k.fast = false
	return m
}

// slottedModel is the kernel's slotted router, or nil.
func (k *Kernel) slottedModel() *slotted {
	m, _ := k.stepper.(*slotted)
	return m
}

// SlottedCounts returns what the slotted router measured (nil for other
// models).
func (k *Kernel) SlottedCounts() *SlottedCounts {
	m := k.slottedModel()
	if m == nil {
		return nil
	}
	c := m.c
	c.Occupancy = append([]int64(nil), m.c.Occupancy...)
	c.DeliverySlots = append([]int64(nil), m.c.DeliverySlots...)
	c.Deflections = append([]int64(nil), m.c.Deflections...)
	c.InjectedBy = append([]int64(nil), m.c.InjectedBy...)
	c.Pi = append([]int64(nil), m.c.Pi...)
	if m.live != nil {
		c.Livelock = m.livelock(k.now)
	}
	// (discarded packets never entered)
	c.InFlight = c.TotalInjected - c.TotalDelivered - c.TotalDropped + c.DroppedAll[DropDiscarded] + c.DroppedAll[DropNacked]
	return &c
}

// SlottedDrained reports whether every packet that entered in the
// measured slots has left (delivered or dropped); false for other models.
func (k *Kernel) SlottedDrained() bool {
	m := k.slottedModel()
	return m != nil && m.c.MeasuredDone+m.c.MeasuredDropped == m.c.Injected
}

// SlottedHops is the number of packet-hops (link-slots carrying a packet)
// of the whole run (0 for other models).
func (k *Kernel) SlottedHops() int64 {
	if m := k.slottedModel(); m != nil {
		return m.hops
	}
	return 0
}

func (m *slotted) step(k *Kernel) {
	now := k.now
	meas := now >= m.spec.Start && now < m.spec.End
	if meas {
		m.c.Slots++
	}
	if m.tr, _ = k.tr.(SlotTracer); m.tr != nil {
		m.slot = now
		m.traceLinks(now)
	}
	switch {
	case IsDeflection(m.spec.Scheme):
		m.stepDeflect(k, now, meas)
	case m.csr != nil:
		m.stepCSR(k, now, meas)
	default:
		m.stepDescending(k, now, meas)
	}
	m.cur, m.nxt = m.nxt, m.cur
	if k.tr != nil {
		k.tr.EndCycle(now)
	}
	k.now++
}

// stepDescending is one slot of the descending-dimensions node.
func (m *slotted) stepDescending(k *Kernel, now int64, meas bool) {
	d, n := m.d, m.n
	for i := range d {
		up := i + 1
		if up == d {
			up = 0
		}
		in, out, bit := m.cur[up*n*2:(up+1)*n*2], i*n*2, 1<<up
		for s := range n {
			a := in[s*2]         // internal link of Q_{i+1}(s)
			b := in[(s^bit)*2+1] // forward link of Q_{i+1}(s ⊕ e_{i+1})
			if meas {
				m.countPi(b, s^bit)
			}
			a, b = m.arrive(a, s, now, meas), m.arrive(b, s, now, meas)
			// The buffer each claims (−1: none); a conflict is settled
			// here, a's claim first, so that decide's arguments fit in
			// registers.
			ja, jb := -1, -1
			if a.dt != 0 {
				ja = int((uint64(s) ^ uint64(a.dest())) >> i & 1)
				a.dt++ // (the next link's type)
			}
			if b.dt != 0 {
				jb = int((uint64(s) ^ uint64(b.dest())) >> i & 1)
				b.dt++
			}
			for j := range 2 {
				bi := out + s*2 + j
				switch {
				case ja == j && jb == j:
					w, l := a, b
					if m.winner(k, a, b) == 1 {
						w, l = b, a
					}
					m.nxt[bi] = w
					m.wait(bi, l, now, meas)
				case ja == j:
					m.nxt[bi] = a
				case jb == j:
					m.nxt[bi] = b
				default:
					m.decide(k, bi, s, i, j, now, meas)
				}
			}
		}
	}
}

// arrive counts packet p at the end of its link (into node s) and returns
// it, or no packet when it is delivered there.
func (m *slotted) arrive(p slotPkt, s int, now int64, meas bool) slotPkt {
	if p.dt == 0 {
		return p
	}
	m.hops++
	if meas {
		m.c.Occupancy[p.typ()]++
	}
	if int(p.typ()) < m.d {
		return p
	}
	if int(p.dest()) != s {
		m.c.Misrouted++
	}
	m.deliver(p, s, now, meas, -1)
	return slotPkt{}
}

// deliver counts packet p delivered at node s at the end of slot now
// after defl deflections (−1: a scheme without them).
func (m *slotted) deliver(p slotPkt, s int, now int64, meas bool, defl int) {
	if m.tr != nil {
		m.traceDeliver(now, p, s, defl)
	}
	m.c.TotalDelivered++
	if m.bornMeasured(p) {
		m.c.MeasuredDone++
	}
	if !meas {
		return
	}
	m.c.Delivered++
	m.c.DeliverySlots = countAt(m.c.DeliverySlots, int(uint32(now+1)-p.birth))
	if defl >= 0 {
		m.c.Deflections = countAt(m.c.Deflections, defl)
	}
}

// countAt adds one to h[i], growing h as needed (to the longest wait, once).
func countAt(h []int64, i int) []int64 {
	for len(h) <= i {
		h = append(h, 0)
	}
	h[i]++
	return h
}

// bornMeasured reports whether p entered in the measured slots.
func (m *slotted) bornMeasured(p slotPkt) bool {
	b := int64(p.birth) - 1 // (runs stay below 2^32 slots)
	return b >= m.spec.Start && b < m.spec.End
}

// newPacket is a new packet of node s to dest, entering its first link
// next slot, with low byte low.
func (m *slotted) newPacket(s int, dest uint64, low uint32, now int64, meas bool) slotPkt {
	m.c.TotalInjected++
	if meas {
		m.c.Injected++
		m.c.InjectedBy[s]++
	}
	return slotPkt{birth: uint32(now + 1), dt: uint32(dest)<<8 | low, id: uint32(m.c.TotalInjected)}
}

// decide picks what buffer bi (Q_i^j(s)), claimed by no packet, sends
// next slot: its FIFO's head, or a new packet.
func (m *slotted) decide(k *Kernel, bi, s, i, j int, now int64, meas bool) {
	var out slotPkt
	if m.size[bi] > 0 {
		out = m.pop(bi)
		if m.tr != nil {
			m.traceQueue(now, SlotSent, bi, out)
		}
	} else if m.always || k.src.Uint64() < m.p0 {
		x := k.src.Uint64()&m.nodeMask&^(1<<i) | uint64(j)<<i
		out = m.newPacket(s, uint64(s)^x, 1, now, meas)
		if m.tr != nil {
			m.tr.Slot(now, SlotEvent{Kind: SlotEntered, Packet: out.id, Node: int32(s), Link: int32(2*i + j), Dest: out.dest()})
		}
	}
	m.nxt[bi] = out
}

// winner is the index (0 or 1) of the claimant that takes the buffer.
func (m *slotted) winner(k *Kernel, a, b slotPkt) int {
	if m.spec.Scheme == SlottedPriority && a.typ() != b.typ() {
		if a.typ() > b.typ() {
			return 0
		}
		return 1
	}
	return int(k.src.Uint64() >> 63)
}

// wait puts the loser p at the tail of buffer bi's FIFO, or drops it.
func (m *slotted) wait(bi int, p slotPkt, now int64, meas bool) {
	K := m.spec.K
	cause := DropBufferFull // (−1: it waits)
	switch {
	case K == SlottedInf:
		m.grow[bi] = append(m.grow[bi], p)
		m.size[bi]++
		cause = -1
	case int(m.size[bi]) < K:
		m.fifo[bi*K+int((m.head[bi]+m.size[bi])%int32(K))] = p
		m.size[bi]++
		cause = -1
	case K == 0:
		cause = DropConflict
	}
	if m.tr != nil {
		m.traceWait(now, bi, p, cause)
	}
	if cause < 0 {
		return
	}
	m.c.TotalDropped++
	m.c.DroppedAll[cause]++
	if m.bornMeasured(p) {
		m.c.MeasuredDropped++
	}
	if meas {
		m.c.Dropped[cause]++
	}
}

// pop takes the head of buffer bi's FIFO.
func (m *slotted) pop(bi int) slotPkt {
	m.size[bi]--
	if m.spec.K == SlottedInf {
		q := m.grow[bi]
		p := q[0]
		m.grow[bi] = append(q[:0], q[1:]...) // (short queues: a copy beats a ring's bookkeeping)
		return p
	}
	K := int32(m.spec.K)
	p := m.fifo[int32(bi)*K+m.head[bi]]
	m.head[bi] = (m.head[bi] + 1) % K
	return p
}

func (m *slotted) moves(*Kernel, int32) bool { return false }

func (m *slotted) rule(*Kernel, int32, *holds) bool { return false }
