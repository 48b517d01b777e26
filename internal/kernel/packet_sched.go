package kernel

import (
	"fmt"
	"math/bits"
)

// Scheduled slots (PacketSpec.Schedule): the packet router carries out a
// schedule instead of routing (Varvarigos 1992, digest 000a §3.2, §4.3):
// in every slot each node decides, from its own state, which of its held
// packets goes on which of its links. The router asks the scheduler once
// per slot for every node that holds a packet and carries the sends out on
// its links — one packet per link direction per slot. A schedule that puts
// two packets on one link direction in a slot, names a packet the node
// does not hold, or a port that is no link, is refused: the slot moves
// nothing and ScheduleError names the link, the slot and the packets. A
// packet that arrives asks the scheduler whether the node keeps it (to
// send on later) or whether it leaves the network there (delivered at the
// node's terminal).
//
// A send may be a copy (SlotSend.Copy): the router makes a new packet with
// the same fields (a new index; Aux names the logical packet) and sends it,
// while the original stays held — what a broadcast's store-and-forward
// node does when it forwards a packet it also keeps.
//
// Scheduled packets are a different piece of hardware from Brebner's
// routing queues and live in a compact store of their own (sched_store.go):
// a packet is an int32 index of a 20-byte record (origin, destination,
// aux, the node holding it) in fixed pages, recycled when it leaves, with
// no flit.Worm record and no per-packet queue entry. A node's packets are known by the node
// each packet is at; the router keeps per node only a count.
//
// Interface (changed from the flit.Worm-based one, mechanically):
//
//	wi := k.EnqueueScheduled(srcTerm, dstTerm, aux uint64) // was: k.Enqueue(src, dst, 1); k.Pool.Worms[wi].Aux = aux
//	pk := k.ScheduledPackets()                     // the store: pk.Src(wi), pk.Dst(wi) (terminals), pk.Aux(wi) (uint64)
//	Arrived(slot int64, node, inPort int32, pkt int32) bool // was: (..., w *flit.Worm, wi int32)
//
// A packet that Arrived delivers (returns false) leaves at the node's
// terminal, whatever its Dst: the scheduler no longer rewrites w.Dst for
// broadcast copies (the delivery check is the scheduler's, e.g. the
// collective package's checker). Observers: when a tracer, a delivery hook
// or statistics are attached at the time a packet is created, the packet
// also gets a flit.Worm record (materialised, sched_store.go) so that
// traces name it and deliveries reach the hooks and statistics as before;
// without observers no record exists. (network/collective keeps a
// worm-style Arrived for its schedules through a view: its proxy.)

// SlotSend is one transmission a node schedules for a slot.
type SlotSend struct {
	Packet int32 // a scheduled packet (EnqueueScheduled's index) held at the node
	Port   int32 // the node's out-port (a link to another node)
	Copy   bool  // send a copy and keep the packet held
}

// SlotScheduler decides a scheduled router's transmissions.
type SlotScheduler interface {
	// Sends appends to out node's transmissions for slot (the node's
	// switch index); it is asked for every node that holds a packet.
	Sends(slot int64, node int32, out []SlotSend) []SlotSend
	// Arrived is packet pkt reaching node over its in-port inPort at the
	// end of slot (its fields: Kernel.ScheduledPackets). It reports
	// whether the node keeps the packet; false delivers it at the node's
	// terminal.
	Arrived(slot int64, node, inPort int32, pkt int32) bool
}

// ScheduleConflict is a refused schedule: what it asked of which link in
// which slot.
type ScheduleConflict struct {
	Slot    int64
	Node    int32
	Link    string   // the link (its output buffer's name), or "" for a bad port
	Packets []uint64 // the packets involved (their scheduled-packet indices)
	Problem string
}

func (e *ScheduleConflict) Error() string {
	return fmt.Sprintf("schedule refused at slot %d, node %d: %s (link %s, packets %v)", e.Slot, e.Node, e.Problem, e.Link, e.Packets)
}

// schedState is the scheduled router's state.
type schedState struct {
	s        SlotScheduler
	nodePort []int32  // per switch: the port whose buffer shows its packets
	nodeTerm []int32  // per switch: its terminal's ejection port, or −1
	held     []int32  // per switch: packets held there
	busy     []uint64 // bit sw: switch sw holds a packet (evaluate visits only these)
	used     []int64  // per global port: the last slot it carried a packet (+1)
	pk       ScheduledPackets
	sends    []SlotSend
	moves    []schedMove
	gone     []int32 // packets delivered in the slot being committed
	err      *ScheduleConflict
}

// schedMove is a send checked for the slot: 16 bytes, as TE on the
// 14-cube lists 229 K of them a slot between evaluate and commit.
type schedMove struct {
	pkt, gp, from int32
	copy          bool
}

// ScheduleError is the refused schedule of a scheduled packet router, or
// nil.
func (k *Kernel) ScheduleError() error {
	if sc := k.sched(); sc != nil && sc.err != nil {
		return sc.err
	}
	if l := k.lock(); l != nil && l.err != nil {
		return l.err
	}
	return nil
}

// sched is the kernel's scheduled router state, or nil.
func (k *Kernel) sched() *schedState {
	if p, ok := k.stepper.(*packetRouter); ok {
		return p.sch
	}
	return nil
}

// initSched finds each node's ports (layout ran with Shared).
func (p *packetRouter) initSched(k *Kernel) {
	t := k.Topo
	sc := &schedState{s: p.spec.Schedule}
	n := len(t.Switches)
	sc.nodePort, sc.nodeTerm = fill(n, -1), fill(n, -1)
	sc.held = make([]int32, n)
	sc.busy = make([]uint64, (n+63)/64)
	for si, sw := range t.Switches {
		for o, e := range sw.Out {
			gp := k.portBase[si] + int32(o)
			if e.Switch < 0 {
				if sc.nodeTerm[si] < 0 && e.Terminal >= 0 { // (a mesh's edge ports are unwired)
					sc.nodeTerm[si] = gp
				}
				continue
			}
			if sc.nodePort[si] < 0 {
				sc.nodePort[si] = gp
			}
		}
	}
	sc.used = make([]int64, len(p.pt))
	sc.pk.k, sc.pk.free = k, -1
	p.sch = sc
}

// placeSched refuses a packet made by Enqueue: scheduled packets have no
// flit.Worm of their own (EnqueueScheduled).
func (p *packetRouter) placeSched(k *Kernel, wi int32) {
	panic("kernel: a scheduled packet router takes packets from EnqueueScheduled, not Enqueue")
}

// hold puts packet pkt at switch sw.
func (sc *schedState) hold(k *Kernel, pkt, sw int32) {
	sc.pk.r(pkt).at = sw
	sc.count(k, sw)
}

// count counts a packet put at switch sw.
func (sc *schedState) count(k *Kernel, sw int32) {
	if sc.held[sw]++; sc.held[sw] == 1 {
		sc.busy[sw>>6] |= 1 << (sw & 63)
		if b := k.stepper.(*packetRouter).pc[sc.nodePort[sw]].buf; b >= 0 {
			k.setActive(b)
		}
	}
}

// release takes packet pkt from switch sw.
func (sc *schedState) release(k *Kernel, sw int32) {
	if sc.held[sw]--; sc.held[sw] == 0 {
		sc.busy[sw>>6] &^= 1 << (sw & 63)
		if b := k.stepper.(*packetRouter).pc[sc.nodePort[sw]].buf; b >= 0 {
			k.clearActive(b)
		}
	}
}

// evaluateSched asks every node that holds a packet for its sends and
// checks them against the hardware's rules.
func (p *packetRouter) evaluateSched(k *Kernel) {
	sc := p.sch
	sc.moves = sc.moves[:0]
	if sc.err != nil {
		return
	}
	for wd, word := range sc.busy {
		for ; word != 0; word &= word - 1 {
			sw := int32(wd<<6 + bits.TrailingZeros64(word))
			sc.sends = sc.s.Sends(k.now, sw, sc.sends[:0])
			for _, s := range sc.sends {
				if !p.checkSend(k, sw, s) {
					p.undoSched()
					return
				}
			}
		}
	}
}

// sentMark is At's value for a packet of switch sw sent (not as a copy) in
// the slot being evaluated: a second such send of it is refused.
func sentMark(sw int32) int32 { return -2 - sw }

// checkSend validates one send of node sw and lists its move.
func (p *packetRouter) checkSend(k *Kernel, sw int32, s SlotSend) bool {
	sc := p.sch
	fail := func(link string, problem string, pkts ...uint64) bool {
		sc.err = &ScheduleConflict{Slot: k.now, Node: sw, Link: link, Packets: pkts, Problem: problem}
		return false
	}
	pk := &sc.pk
	if s.Packet < 0 || s.Packet >= pk.n {
		return fail("", fmt.Sprintf("packet index %d is not held at the node", s.Packet))
	}
	r := pk.r(s.Packet)
	if r.at != sw && r.at != sentMark(sw) { // (a free record's is freeMark)
		return fail("", fmt.Sprintf("packet index %d is not held at the node", s.Packet))
	}
	id := uint64(s.Packet)
	nports := k.portBase[sw+1] - k.portBase[sw]
	if s.Port < 0 || s.Port >= nports || p.pt[k.portBase[sw]+s.Port].far.sw < 0 {
		return fail("", fmt.Sprintf("port %d is not a link to another node", s.Port), id)
	}
	gp := k.portBase[sw] + s.Port
	if sc.used[gp] == k.now+1 {
		other := uint64(0)
		for _, m := range sc.moves {
			if m.gp == gp {
				other = uint64(m.pkt)
			}
		}
		return fail(k.BufferName(p.pc[gp].buf), "two packets on one link direction in one slot", other, id)
	}
	if r.at == sentMark(sw) && !s.Copy {
		return fail(k.BufferName(p.pc[gp].buf), "a packet sent on two links in one slot (only copies may be)", id)
	}
	sc.used[gp] = k.now + 1
	if !s.Copy {
		r.at = sentMark(sw)
	}
	sc.moves = append(sc.moves, schedMove{pkt: s.Packet, gp: gp, from: sw, copy: s.Copy})
	return true
}

// undoSched forgets the slot's moves (a refused slot moves nothing).
func (p *packetRouter) undoSched() {
	sc := p.sch
	for _, m := range sc.moves {
		if !m.copy {
			sc.pk.r(m.pkt).at = m.from
		}
	}
	sc.moves = sc.moves[:0]
}

// commitSched carries the slot's moves out: the packets (or their copies)
// leave their node and cross their links; at the far node the scheduler
// keeps them or they are delivered there. One pass (a packet's record is
// read once per hop); records of delivered packets are freed after it, so
// that none is reused within the slot.
func (p *packetRouter) commitSched(k *Kernel) {
	sc := p.sch
	k.nmoved = len(sc.moves)
	k.FlitHops += int64(k.nmoved)
	sc.gone = sc.gone[:0]
	for i := range sc.moves {
		m := &sc.moves[i]
		pkt := m.pkt
		if m.copy {
			pkt = sc.pk.clone(k, m.pkt, *sc.pk.r(m.pkt)) // (its fields: not changed by the slot, and freed only after it)
		} else {
			sc.release(k, m.from)
		}
		if !k.chans[m.gp].Carry(k.now) {
			k.Violations.ChannelOverUse++
		}
		e := p.pt[m.gp].far
		r := sc.pk.r(pkt)
		r.at = -1
		kept := sc.s.Arrived(k.now, e.sw, e.in, pkt)
		if sc.pk.mirror != nil {
			p.traceHop(k, pkt, m.gp, e.sw, kept)
		}
		if kept {
			r.at = e.sw
			sc.count(k, e.sw)
			continue
		}
		sc.pk.leave(k, pkt, sc.nodeTerm[e.sw], k.now+1)
		sc.gone = append(sc.gone, pkt)
	}
	for _, i := range sc.gone {
		sc.pk.release(i)
	}
}
