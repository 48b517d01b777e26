package kernel

// Traces of the slotted router (issue 25): the slotted packets have no
// worm records and never touch the kernel's flit buffers, so the Tracer's
// Move/Blocked/Delivered calls do not fit them. Instead the model reports
// each thing that happens to a packet as one SlotEvent to a tracer that
// implements SlotTracer (network/trace's writers do); a tracer without it
// sees only EndCycle. With no tracer attached m.tr is nil and every call
// site is one predictable branch: tracing costs nothing when off.
//
// A scheme adds an event with one call: inside the slotted model
//
//	if m.tr != nil {
//		m.tr.Slot(now, SlotEvent{Kind: SlotReserved, Packet: p.id, Node: s, Link: l, Dest: p.dest()})
//	}
//
// and from a stepper of its own (a CSR model that is not the slotted
// struct) the same through the kernel:
//
//	if k.tr != nil {
//		k.TraceSlot(SlotEvent{Kind: SlotNacked, Packet: id, Node: s, Link: l, Dest: dest})
//	}
//
// The writers show any kind: the event log by its name (SlotKindNames),
// the timeline as an instant; a new kind needs only its constant and name. Links are named per node: Link = 2·i + b is the link of buffer
// Q_i^b (b = 1 forward, crossing dimension i; b = 0 internal); the
// deflection node has only forward links (2·i + 1).

// SlotKind is what happened to a packet of the slotted router.
type SlotKind uint8

const (
	// SlotEntered: a new packet was taken into buffer Link of Node (the
	// deflection node: into Node, Link −1); it is on a link from the
	// next slot.
	SlotEntered SlotKind = iota
	// SlotCrossed: the packet was on link Link of Node in this slot (one
	// event per link-slot; it reaches the link's end at the slot's end).
	// Hops counts the links crossed, this one included.
	SlotCrossed
	// SlotWaited: the packet lost a conflict for buffer Link of Node and
	// waits at its FIFO's tail; Queue is the FIFO's length after.
	SlotWaited
	// SlotSent: the head of buffer Link's FIFO left it for the link (it is
	// on the link next slot); Queue is the FIFO's length after.
	SlotSent
	// SlotDropped: the packet was dropped at buffer Link of Node, for
	// Cause (DropConflict, DropBufferFull; CSR may add its own).
	SlotDropped
	// SlotDeflected: the packet was sent on link Link of Node, which does
	// not bring it closer (deflection schemes); Deflections counts its
	// deflections so far, this one included.
	SlotDeflected
	// SlotDelivered: the packet reached its destination Node after Hops
	// links, Age slots after it entered (Deflections: deflection schemes).
	SlotDelivered
	// SlotReserved: (CSR) the control flit booked link Link of Node for
	// slot Hops of the packet's transmission.
	SlotReserved
	// SlotNacked: (CSR) the control flit was blocked at link Link of Node
	// and the packet's reservations are released.
	SlotNacked
	// SlotGhost: (CSR) link Link of Node holds a reservation of a packet
	// that was NACKed (a ghost that blocks others until it is freed).
	SlotGhost
	slotKinds
)

// SlotKindNames name the event kinds in traces.
var SlotKindNames = [slotKinds]string{"entered", "crossed", "waited", "sent", "dropped", "deflected",
	"delivered", "reserved", "nacked", "ghost"}

func (s SlotKind) String() string { return SlotKindNames[s] }

// SlotEvent is one thing that happened to a packet of the slotted router
// (the fields a kind does not use are zero; Link is −1 for none).
type SlotEvent struct {
	Kind   SlotKind
	Cause  uint8  // SlotDropped: the drop cause (DropCauseNames)
	Packet uint32 // the packet's serial: its rank among the entered packets, from 1 (mod 2^32)
	Node   int32
	Link   int32 // per node: 2·dimension + (1 forward, 0 internal); −1 none
	Dest   int32
	Hops   int32 // links crossed
	Queue  int32 // SlotWaited, SlotSent: the FIFO's length after
	Age    int32 // SlotDelivered: slots since entry
	Defl   int32 // SlotDeflected, SlotDelivered: deflections so far
}

// SlotTracer is a Tracer that also logs the slotted router's packets.
type SlotTracer interface {
	Slot(cycle int64, e SlotEvent)
}

// TraceSlot reports e, in the current cycle, to the tracer if it logs the
// slotted router's packets.
func (k *Kernel) TraceSlot(e SlotEvent) {
	if t, ok := k.tr.(SlotTracer); ok {
		t.Slot(k.now, e)
	}
}

// SlottedShape describes the slotted router for its traces: the
// dimension d, whether the node is the deflection crossbar (d forward
// links) or the descending-dimensions one (2d links), the FIFO places per
// buffer (SlottedInf: unbounded) and whether the network is the folded
// butterfly (node r's link 2·i + b is then port b of switch i·2^d + r,
// slotted_fbfly.go). ok is false for other models.
func (k *Kernel) SlottedShape() (d int, deflection bool, places int, butterfly, ok bool) {
	m := k.slottedModel()
	if m == nil {
		return 0, false, 0, false, false
	}
	return m.d, IsDeflection(m.spec.Scheme), m.spec.K, m.spec.Butterfly, true
}

// SlottedEventKinds are the kinds of SlotEvent the running scheme reports
// (nil for other models); the VCD gives each node a counter per kind but
// crossed, waited and sent. A scheme that reports more kinds adds them here.
func (k *Kernel) SlottedEventKinds() []SlotKind {
	m := k.slottedModel()
	switch {
	case m == nil:
		return nil
	case IsDeflection(m.spec.Scheme):
		return []SlotKind{SlotEntered, SlotCrossed, SlotDeflected, SlotDelivered}
	case m.csr != nil:
		return []SlotKind{SlotEntered, SlotCrossed, SlotDropped, SlotDelivered, SlotReserved, SlotNacked, SlotGhost}
	}
	return []SlotKind{SlotEntered, SlotCrossed, SlotWaited, SlotSent, SlotDropped, SlotDelivered}
}

// linkAt is the node and per-node link of the descending node's link
// register bi ((i·N + s)·2 + b).
func (m *slotted) linkAt(bi int) (node, link int32) {
	q := bi >> 1
	return int32(q % m.n), int32(q/m.n*2 + bi&1)
}

// traceLinks reports every packet on a link in slot now, in the order
// of the link registers, before the slot's other events (a pass of its
// own, so that the stages carry no check for it).
func (m *slotted) traceLinks(now int64) {
	defl := IsDeflection(m.spec.Scheme)
	for r, p := range m.cur {
		switch {
		case p.dt == 0:
		case defl: // (register s·d + i: node s's link in dimension i)
			m.traceCrossed(now, p, int32(r/m.d), int32(2*(r%m.d)+1))
		default:
			node, link := m.linkAt(r)
			m.traceCrossed(now, p, node, link)
		}
	}
}

// traceCrossed reports packet p on link link of node this slot. (The
// deflection node keeps no hop count: Hops is 0 there.)
func (m *slotted) traceCrossed(now int64, p slotPkt, node, link int32) {
	e := SlotEvent{Kind: SlotCrossed, Packet: p.id, Node: node, Link: link, Dest: p.dest(), Hops: p.typ()}
	if IsDeflection(m.spec.Scheme) {
		e.Hops, e.Defl = 0, int32(p.dt&0xff)-1
	}
	m.tr.Slot(now, e)
}

// traceQueue reports packet p, which has crossed typ − 1 links, joining
// (SlotWaited) or leaving (SlotSent) buffer bi's FIFO.
func (m *slotted) traceQueue(now int64, kind SlotKind, bi int, p slotPkt) {
	node, link := m.linkAt(bi)
	m.tr.Slot(now, SlotEvent{Kind: kind, Packet: p.id, Node: node, Link: link, Dest: p.dest(), Hops: p.typ() - 1,
		Queue: m.size[bi]})
}

// traceWait reports the loser p of a conflict at buffer bi waiting
// (cause −1) or dropped for cause.
func (m *slotted) traceWait(now int64, bi int, p slotPkt, cause int) {
	if cause < 0 {
		m.traceQueue(now, SlotWaited, bi, p)
		return
	}
	node, link := m.linkAt(bi)
	m.tr.Slot(now, SlotEvent{Kind: SlotDropped, Cause: uint8(cause), Packet: p.id, Node: node, Link: link,
		Dest: p.dest(), Hops: p.typ() - 1, Queue: m.size[bi]})
}

// traceDeliver reports p delivered at node s after defl deflections (−1:
// none counted), in the slot being stepped; its age is counted to the end
// of slot now (CSR's deliver passes the next slot: its packets enter in
// their ACK's slot).
func (m *slotted) traceDeliver(now int64, p slotPkt, s, defl int) {
	e := SlotEvent{Kind: SlotDelivered, Packet: p.id, Node: int32(s), Link: -1, Dest: p.dest(), Hops: p.typ(),
		Age: int32(uint32(now+1) - p.birth), Defl: int32(max(defl, 0))}
	if defl >= 0 {
		e.Hops = 0
	}
	m.tr.Slot(m.slot, e)
}

// traceEntered reports a new packet of the deflection node s.
func (m *slotted) traceEntered(now int64, p slotPkt, s int) {
	m.tr.Slot(now, SlotEvent{Kind: SlotEntered, Packet: p.id, Node: int32(s), Link: -1, Dest: p.dest()})
}

// traceDeflected reports p (its deflections counted) sent on link l of
// the deflection node s.
func (m *slotted) traceDeflected(now int64, p slotPkt, s, l int) {
	m.tr.Slot(now, SlotEvent{Kind: SlotDeflected, Packet: p.id, Node: int32(s), Link: int32(2*l + 1), Dest: p.dest(),
		Defl: int32(p.dt&0xff) - 1})
}

// traceCSR reports a CSR event of packet id (0: a flit whose packet has
// not entered) at link register link ((i·N + s)·2 + b: an entry buffer
// shares its link's index).
func (m *slotted) traceCSR(kind SlotKind, link int, id uint32, cause uint8, dest, hops int32) {
	node, l := m.linkAt(link)
	m.tr.Slot(m.slot, SlotEvent{Kind: kind, Cause: cause, Packet: id, Node: node, Link: l, Dest: dest, Hops: hops})
}

// traceBookings reports the nr bookings of entry buffer e's flit: an ACKed
// packet's (id ≠ 0; nr = d) as reserved, a NACKed flit's as ghosts after
// one nacked event at its entry buffer. Hops is the transmission interval
// booked, counted from this slot's (1).
func (m *slotted) traceBookings(e, nr int, id uint32) {
	c, kind := m.csr, SlotReserved
	if id == 0 {
		m.traceCSR(SlotNacked, e, 0, 0, c.dest[e], int32(nr))
		kind = SlotGhost
	}
	var path [20]int32 // (d ≤ 20)
	if c.K == 0 {
		m.csrPathK0(e, path[:nr])
	} else {
		copy(path[:nr], c.resL[e*m.d:])
	}
	for h := range nr {
		m.traceCSR(kind, int(path[h]), id, 0, c.dest[e], int32(c.slotT(e*m.d+h, h)))
	}
}
