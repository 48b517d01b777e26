package kernel

import (
	"fmt"
	"math"
	"slices"

	"github.com/flitsim/flitsim/flit"
)

// What the packet router shows the kernel's observers. Its queues are
// named by the output buffers of the kernel's layout (one per out-link), so
// traces and reports name them as they name the flit crossbar's; a shared
// queue shows, at each out-link's buffer, the packets waiting for that link.

// moves reports whether the queue behind buffer b sends over b's link in
// the cycle being stepped.
func (p *packetRouter) moves(k *Kernel, b int32) bool {
	s := p.sendAt(b)
	return s != nil && s.ok
}

// sendAt is the send chosen for b's link this cycle, or nil.
func (p *packetRouter) sendAt(b int32) *send {
	gp := p.portOfBuf[b]
	if gp < 0 || p.queueOf(gp) < 0 {
		return nil
	}
	q := p.queueOf(gp)
	i, ok := slices.BinarySearchFunc(p.sends, q, func(s send, q int32) int { return int(s.q - q) })
	if !ok || p.ps[p.sends[i].wi].port != gp {
		return nil
	}
	return &p.sends[i]
}

// rule: a queued packet waits only for room in its next queue (bounded
// queues): behind a full queue (WaitSpace), or for a slot another packet
// won (WaitArb).
func (p *packetRouter) rule(k *Kernel, b int32, h *holds) bool {
	s := p.sendAt(b)
	if s == nil || s.ok {
		return s != nil
	}
	if p.pt[s.to].n() >= p.cap {
		fw := p.pt[s.to].at(p.rings, 0)
		h.add(WaitSpace, fw, p.pc[p.ps[fw].port].buf, b)
	} else {
		h.add(WaitArb, -1, -1, b)
	}
	return false
}

// traceBlocked reports every queue whose packet was refused.
func (p *packetRouter) traceBlocked(k *Kernel) {
	for i := range p.sends {
		s := &p.sends[i]
		if s.ok {
			continue
		}
		b := p.pc[p.ps[s.wi].port].buf
		reason, who, at := WaitArb, int32(-1), int32(-1)
		if p.pt[s.to].n() >= p.cap {
			fw := p.pt[s.to].at(p.rings, 0)
			reason, who, at = WaitSpace, fw, p.pc[p.ps[fw].port].buf
		}
		k.tr.Blocked(k.now, flit.Flit{Worm: s.wi, Kind: flit.HeadTail}, b, reason, who, at)
	}
}

// detect finds queues that can never send again: a refused packet waits
// for a full queue; the deadlocked set is the largest one in which every
// such wait is for a member (nothing in it moves before something else in
// it does). Refusals for a slot another packet won pass and are no nodes.
func (p *packetRouter) detect(k *Kernel) *Deadlock {
	in := map[int32]int32{} // queue → its blocked send
	for i := range p.sends {
		if s := &p.sends[i]; !s.ok && p.pt[s.to].n() >= p.cap {
			in[s.q] = int32(i)
		}
	}
	for changed := true; changed; {
		changed = false
		for q, i := range in {
			if _, ok := in[p.sends[i].to]; !ok {
				delete(in, q)
				changed = true
			}
		}
	}
	if len(in) == 0 {
		return nil
	}
	qs := make([]int32, 0, len(in))
	for q := range in {
		qs = append(qs, q)
	}
	slices.Sort(qs)
	dl := &Deadlock{Cycle: k.now}
	sws := map[string]bool{}
	for _, q := range qs {
		s := &p.sends[in[q]]
		w := &k.Pool.Worms[s.wi]
		dl.Since = max(dl.Since, p.lastMove[q]+1)
		dl.Worms = append(dl.Worms, DeadlockWorm{ID: w.ID, Src: w.Src, Dst: []int32{p.finalDst(k, s.wi)}})
		fw := p.pt[s.to].at(p.rings, 0)
		dl.Resources = append(dl.Resources, fmt.Sprintf("packet %d (%d→%d) at %s waits for space in %s (front: packet %d)",
			w.ID, w.Src, p.finalDst(k, s.wi), k.BufferName(p.pc[p.ps[s.wi].port].buf), k.BufferName(p.pc[p.ps[fw].port].buf), k.Pool.Worms[fw].ID))
		sws[k.Topo.Switches[p.pc[q].sw].Label] = true
	}
	for s := range sws {
		dl.Switches = append(dl.Switches, s)
	}
	slices.Sort(dl.Switches)
	return dl
}

func (p *packetRouter) finalDst(k *Kernel, wi int32) int32 {
	if p.ps[wi].final >= 0 {
		return p.ps[wi].final
	}
	return k.Pool.Worms[wi].Dst
}

// inFlight is the number of packets in the network: queued, joining a
// queue, or waiting at an intermediate node for the barrier.
func (p *packetRouter) inFlight() int {
	n := len(p.joins) + len(p.parked)
	for i := range p.node {
		n += int(p.node[i].queued)
	}
	return n
}

// occupancy is the number of packets waiting for buffer b's link.
func (p *packetRouter) occupancy(b int32) int {
	if sc := p.sch; sc != nil { // (scheduled: a node's packets show at its node buffer)
		if gp := p.portOfBuf[b]; gp >= 0 && p.pc[gp].sw >= 0 && sc.nodePort[p.pc[gp].sw] == gp {
			return int(sc.held[p.pc[gp].sw])
		}
		return 0
	}
	if gp := p.portOfBuf[b]; gp >= 0 {
		return int(p.waitingAt(gp))
	}
	return 0 // (source registers: packets wait in the source queue)
}

// waitingAt is the number of packets queued to leave by port gp: its
// queue's, or with Shared queues its own count (kept only then: a hop
// saves the update).
func (p *packetRouter) waitingAt(gp int32) int32 {
	if p.spec.Shared {
		return p.waiting[gp]
	}
	if p.queueOf(gp) != gp {
		return 0
	}
	return p.pt[gp].cnt
}

// queuedAny reports whether a queue holds a packet (Kernel.AnyActive: the
// router sets no buffer's active bit, its queues are not buffers).
func (p *packetRouter) queuedAny() bool { return p.nonEmpty.any() }

// owner is the packet a queue sends next by FIFO order: its oldest.
func (p *packetRouter) owner(b int32) int32 {
	gp := p.portOfBuf[b]
	if gp < 0 || p.queueOf(gp) < 0 || p.waitingAt(gp) == 0 {
		return -1
	}
	x := &p.pt[p.queueOf(gp)]
	for i := range x.n() {
		if wi := x.at(p.rings, i); p.ps[wi].port == gp {
			return wi
		}
	}
	return -1
}

// depth of a queue: its capacity, or MaxInt32 when unbounded.
func (p *packetRouter) depth() int {
	if p.cap > 0 {
		return int(p.cap)
	}
	return math.MaxInt32
}

// PacketMeasures are the batch measures of each phase so far (digest §3.3),
// or nil for another switch model. The last phase's time counts to the
// latest arrival.
func (k *Kernel) PacketMeasures() []PhaseMeasures {
	p, ok := k.stepper.(*packetRouter)
	if !ok {
		return nil
	}
	out := slices.Clone(p.phases)
	out[len(out)-1].Time = p.lastArrive - p.phaseStart
	return out
}

// RestartIdle makes an idle packet-router kernel ready for another batch
// experiment: cycle 0, the random source seeded with (seed, stream), fresh
// measures and statistics window [start, end). What an experiment's
// outcome does not read is no longer kept: the statistics count packets
// but record no latencies, and the channel counts (ChannelFlits) stop
// counting where the fast step runs (packet_fast.go). It reports false
// (and changes nothing) for another model or a kernel that is not idle.
func (k *Kernel) RestartIdle(seed, stream uint64, start, end int64) bool {
	p, ok := k.stepper.(*packetRouter)
	if !ok || !k.Idle() || len(k.later[0])+len(k.later[1]) > 0 {
		return false
	}
	k.now = 0
	k.src.Seed(seed, stream)
	if p.chansDirty { // (counts and the one-per-cycle check start afresh)
		chans := k.chans // (a local: a store through k.chans[i] would reload k.chans)
		for i := range chans {
			chans[i].Restart()
		}
		p.chansDirty = false
	}
	p.countLinks = false
	p.shrinkQueues()
	k.Deadlock = nil
	k.maxOcc = 0
	k.CollectStats(start, end, k.stats != nil && k.stats.keep).countOnly = true
	p.phases = append(p.phases[:0], PhaseMeasures{})
	p.phaseStart, p.lastArrive, p.outstand = 0, 0, 0
	for i := range p.node {
		p.node[i].arrived = 0
	}
	if p.cap > 0 {
		clear(p.lastMove)
	}
	return true
}
