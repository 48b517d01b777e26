package kernel

import (
	"fmt"
	"math/bits"

	"github.com/flitsim/flitsim/flit"
)

// Scheduled slots (PacketSpec.Schedule): the packet router carries out a
// schedule instead of routing (Varvarigos 1992, digest 000a §3.2, §4.3):
// in every slot each node decides, from its own state, which of its queued
// packets goes on which of its links. The router keeps one queue per node
// (all its packets), asks the scheduler once per slot for every node that
// holds a packet, and carries the sends out on its links — one packet per
// link direction per slot. A schedule that puts two packets on one link
// direction in a slot, names a packet the node does not hold, or a port
// that is no link, is refused: the slot moves nothing and ScheduleError
// names the link, the slot and the packets. A packet that arrives asks the
// scheduler whether the node keeps it queued (to send on later) or whether
// it leaves the network there (delivered at the node's terminal).
//
// A send may be a copy (SlotSend.Copy): the router makes a new packet with
// the same fields (a new ID; Aux names the logical packet) and sends it,
// while the original stays queued — what a broadcast's store-and-forward
// node does when it forwards a packet it also keeps.

// SlotSend is one transmission a node schedules for a slot.
type SlotSend struct {
	Packet int32 // pool index of a packet queued at the node
	Port   int32 // the node's out-port (a link to another node)
	Copy   bool  // send a copy and keep the packet queued
}

// SlotScheduler decides a scheduled router's transmissions.
type SlotScheduler interface {
	// Sends appends to out node's transmissions for slot (the node's
	// switch index); it is asked for every node that holds a packet.
	Sends(slot int64, node int32, out []SlotSend) []SlotSend
	// Arrived is packet wi (worm w) reaching node over its in-port inPort
	// at the end of slot. It reports whether the node keeps the packet
	// queued; false delivers it at the node's terminal (the scheduler sets
	// w.Dst to that terminal when the packet is a broadcast copy).
	Arrived(slot int64, node, inPort int32, w *flit.Worm, wi int32) bool
}

// ScheduleConflict is a refused schedule: what it asked of which link in
// which slot.
type ScheduleConflict struct {
	Slot    int64
	Node    int32
	Link    string   // the link (its output buffer's name), or "" for a bad port
	Packets []uint64 // packet IDs involved
	Problem string
}

func (e *ScheduleConflict) Error() string {
	return fmt.Sprintf("schedule refused at slot %d, node %d: %s (link %s, packets %v)", e.Slot, e.Node, e.Problem, e.Link, e.Packets)
}

// schedState is the scheduled router's extra state.
type schedState struct {
	s        SlotScheduler
	nodeQ    []int32 // per switch: its queue
	nodePort []int32 // per switch: the port whose buffer shows its queue
	nodeTerm []int32 // per switch: its terminal's ejection port, or −1
	qidx     []int32 // per packet: its index in its node's queue
	used     []int64 // per global port: the last slot it carried a packet (+1)
	taken    []int64 // per packet: the last slot it moved (+1)
	sends    []SlotSend
	moves    []schedMove
	err      *ScheduleConflict
}

type schedMove struct {
	wi, gp int32
	copy   bool
}

// ScheduleError is the refused schedule of a scheduled packet router, or
// nil.
func (k *Kernel) ScheduleError() error {
	if p, ok := k.stepper.(*packetRouter); ok && p.sch != nil && p.sch.err != nil {
		return p.sch.err
	}
	return nil
}

// initSched lays out the per-node queues (layout ran with Shared).
func (p *packetRouter) initSched(k *Kernel) {
	t := k.Topo
	sc := &schedState{s: p.spec.Schedule}
	n := len(t.Switches)
	sc.nodeQ, sc.nodePort, sc.nodeTerm = fill(n, -1), fill(n, -1), fill(n, -1)
	for si, sw := range t.Switches {
		for o, e := range sw.Out {
			gp := k.portBase[si] + int32(o)
			if e.Switch < 0 {
				if sc.nodeTerm[si] < 0 && e.Terminal >= 0 { // (a mesh's edge ports are unwired)
					sc.nodeTerm[si] = gp
				}
				continue
			}
			if sc.nodeQ[si] < 0 {
				sc.nodeQ[si], sc.nodePort[si] = p.pt[gp].q, gp
			}
		}
	}
	sc.used = make([]int64, len(p.pt))
	p.sch = sc
}

// placeSched puts new packet wi in its source node's queue.
func (p *packetRouter) placeSched(k *Kernel, wi int32) {
	w := &k.Pool.Worms[wi]
	sw := k.Topo.InSwitch[w.Src]
	x := &p.ps[wi]
	x.sw, x.in, x.port = sw, k.Topo.InPort[w.Src], p.sch.nodePort[sw]
	x.hops, x.leg, x.final, x.next = 0, 0, -1, -1
	p.outstand++
	w.InjCycle = k.now
	p.joinSched(wi, sw)
}

func (p *packetRouter) joinSched(wi, sw int32) {
	for int(wi) >= len(p.sch.qidx) {
		p.sch.qidx = append(p.sch.qidx, -1)
		p.sch.taken = append(p.sch.taken, 0)
	}
	p.joins = append(p.joins, join{p.sch.nodeQ[sw], wi})
}

// evaluateSched asks every node that holds a packet for its sends and
// checks them against the hardware's rules.
func (p *packetRouter) evaluateSched(k *Kernel) {
	sc := p.sch
	sc.moves = sc.moves[:0]
	if sc.err != nil {
		return
	}
	for wd, word := range p.nonEmpty {
		for ; word != 0; word &= word - 1 {
			q := int32(wd<<6 + bits.TrailingZeros64(word))
			sw := p.qSw[q]
			sc.sends = sc.s.Sends(k.now, sw, sc.sends[:0])
			for _, s := range sc.sends {
				if !p.checkSend(k, sw, q, s) {
					sc.moves = sc.moves[:0]
					return
				}
			}
		}
	}
}

// checkSend validates one send of node sw (queue q) and lists its move.
func (p *packetRouter) checkSend(k *Kernel, sw, q int32, s SlotSend) bool {
	sc := p.sch
	fail := func(link string, problem string, ids ...uint64) bool {
		sc.err = &ScheduleConflict{Slot: k.now, Node: sw, Link: link, Packets: ids, Problem: problem}
		return false
	}
	x := &p.queues[q]
	if s.Packet < 0 || int(s.Packet) >= len(sc.qidx) || sc.qidx[s.Packet] < 0 || sc.qidx[s.Packet] >= x.n() || x.at(sc.qidx[s.Packet]) != s.Packet {
		return fail("", fmt.Sprintf("packet index %d is not queued at the node", s.Packet))
	}
	id := k.Pool.Worms[s.Packet].ID
	nports := k.portBase[sw+1] - k.portBase[sw]
	if s.Port < 0 || s.Port >= nports || p.pt[k.portBase[sw]+s.Port].far.sw < 0 {
		return fail("", fmt.Sprintf("port %d is not a link to another node", s.Port), id)
	}
	gp := k.portBase[sw] + s.Port
	if sc.used[gp] == k.now+1 {
		other := uint64(0)
		for _, m := range sc.moves {
			if m.gp == gp {
				other = k.Pool.Worms[m.wi].ID
			}
		}
		return fail(k.BufferName(p.pt[gp].buf), "two packets on one link direction in one slot", other, id)
	}
	if !s.Copy && sc.taken[s.Packet] == k.now+1 {
		return fail(k.BufferName(p.pt[gp].buf), "a packet sent on two links in one slot (only copies may be)", id)
	}
	sc.used[gp] = k.now + 1
	if !s.Copy {
		sc.taken[s.Packet] = k.now + 1
	}
	sc.moves = append(sc.moves, schedMove{wi: s.Packet, gp: gp, copy: s.Copy})
	return true
}

// commitSched carries the slot's moves out: the packets (or their copies)
// leave their node's queue and cross their links; at the far node the
// scheduler keeps them queued or they are delivered there.
func (p *packetRouter) commitSched(k *Kernel) {
	sc := p.sch
	k.nmoved = 0
	for i := range sc.moves {
		m := &sc.moves[i]
		if m.copy {
			m.wi = p.clone(k, m.wi)
		} else {
			p.unqueue(k, m.wi)
		}
		if !k.chans[m.gp].Carry(k.now) {
			k.Violations.ChannelOverUse++
		}
		k.nmoved++
	}
	k.FlitHops += int64(k.nmoved)
	for _, m := range sc.moves {
		e := p.pt[m.gp].far
		x := &p.ps[m.wi]
		x.sw, x.in = e.sw, e.in
		x.hops++
		if sc.s.Arrived(k.now, e.sw, e.in, &k.Pool.Worms[m.wi], m.wi) {
			x.port = sc.nodePort[e.sw]
			p.joinSched(m.wi, e.sw)
			continue
		}
		x.port = sc.nodeTerm[e.sw]
		if x.port < 0 {
			x.port = -1
		}
		p.legEnd(k, m.wi, k.now+1)
	}
}

// unqueue takes packet wi out of its node's queue (swap with the last:
// a scheduled queue has no order the hardware keeps).
func (p *packetRouter) unqueue(k *Kernel, wi int32) {
	sc := p.sch
	sw := p.ps[wi].sw
	q := sc.nodeQ[sw]
	x := &p.queues[q]
	i, last := sc.qidx[wi], x.n()-1
	if i != last {
		mv := x.at(last)
		x.set(i, mv)
		sc.qidx[mv] = i
	}
	x.dropLast()
	sc.qidx[wi] = -1
	if x.n() == 0 {
		p.nonEmpty[q>>6] &^= 1 << (q & 63)
	}
	gp := p.ps[wi].port
	if p.pt[gp].waiting--; p.pt[gp].waiting == 0 && p.pt[gp].buf >= 0 {
		k.clearActive(p.pt[gp].buf)
	}
	p.node[sw].queued--
}

// clone makes a copy of packet wi (a new ID, the same fields otherwise),
// counted as a packet in flight.
func (p *packetRouter) clone(k *Kernel, wi int32) int32 {
	nw := k.Pool.Get()
	id := k.Pool.Worms[nw].ID
	k.Pool.Worms[nw] = k.Pool.Worms[wi]
	k.Pool.Worms[nw].ID = id
	for int(nw) >= len(k.mc) {
		k.mc = append(k.mc, mcState{})
		k.vetoAt = append(k.vetoAt, -1)
	}
	p.grow(nw)
	p.ps[nw] = p.ps[wi]
	p.outstand++
	return nw
}
