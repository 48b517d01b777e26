package kernel

import (
	"math/bits"
	"slices"

	"github.com/flitsim/flitsim/flit"
)

// step simulates cycle k.now (see packet.go for the semantics).
func (p *packetRouter) step(k *Kernel) {
	if p.fast && p.fastNow(k) {
		p.stepFast(k) // (packet_fast.go)
		return
	}
	p.chansDirty = true
	if p.multi != nil {
		p.multi.at = k.now
	}
	k.placeLater() // → place: injections join p.joins
	if p.cap > 0 {
		p.admit(k)
	}
	p.commitJoins(k, k.now)
	p.barrier(k, k.now)
	if p.sch != nil {
		p.evaluateSched(k)
	} else {
		p.evaluate(k)
	}
	if p.cap > 0 && !p.spec.Drop {
		p.grant(k)
	}
	if k.Deadlock == nil && p.cap > 0 && !p.spec.Drop && (k.CheckDeadlock || p.sentNone() && p.anyQueued()) {
		k.Deadlock = p.detect(k)
	}
	if k.tr != nil {
		p.traceBlocked(k)
	}
	if p.multi != nil {
		p.multi.at = k.now + 1
	}
	if p.sch != nil {
		p.commitSched(k)
	} else {
		p.commit(k)
	}
	p.commitJoins(k, k.now+1)
	p.barrier(k, k.now+1)
	k.settle(&k.whole)
	if k.tr != nil {
		k.tr.EndCycle(k.now)
	}
	k.now++
}

// admit moves packets from the terminals' source queues into their first
// queues while these have room (bounded queues).
func (p *packetRouter) admit(k *Kernel) {
	pend := p.pendingCounts()
	for src := range k.queues {
		sq := &k.queues[src]
		for sq.n > 0 {
			wi := sq.front()
			q := p.queueOf(p.ps[wi].port)
			if p.pt[q].n()+pend[q] >= p.cap {
				break
			}
			pend[q]++
			sq.popIf(1)
			if p.ps[wi].leg == 0 {
				k.Pool.Worms[wi].InjCycle = k.now
			}
			p.enter(k, wi, int32(src))
		}
	}
	clear(pend)
}

// pendingCounts counts the joins listed so far per queue (scratch in
// p.pend, reused).
func (p *packetRouter) pendingCounts() []int32 {
	if len(p.pend) < len(p.pt) {
		p.pend = make([]int32, len(p.pt))
	}
	pend := p.pend[:len(p.pt)]
	for _, j := range p.joins {
		pend[j.q]++
	}
	return pend
}

// commitJoins appends the listed joins to their queues, in random or scan
// order, at instant at, and samples the measures.
func (p *packetRouter) commitJoins(k *Kernel, at int64) {
	if p.fast && p.fastNow(k) {
		p.joinFast(k) // (the barrier's joins in a fast step: packet_fast.go)
		return
	}
	js := p.joins
	if !p.scan {
		p.orderArrivals(k, js)
	}
	ph := &p.phases[len(p.phases)-1]
	maxPop, maxQ, maxQP := ph.MaxPopulation, ph.MaxQueue, ph.MaxQueuedPopulation
	for _, j := range js {
		if p.multi != nil && p.multi.merge(p, k, j) {
			continue // (a write combined into one queued there: packet_combine.go)
		}
		q := elem(p.pt, j.q)
		if p.spec.Drop && q.cnt >= p.cap {
			p.drop(k, j.wi)
			continue
		}
		if q.full(p.rings) {
			p.growQueue(j.q)
		}
		q.push(p.rings, j.wi)
		p.nonEmpty.add(j.q)
		if p.spec.Shared { // (own queues: the queue's count is its port's)
			p.waiting[elem(p.ps, j.wi).port]++
		}
		nd := elem(p.node, elem(p.pc, j.q).sw)
		nd.queued++
		maxPop = max(maxPop, nd.queued+nd.arrived)
		maxQP = max(maxQP, nd.queued)
		if p.cap > 0 && q.cnt > p.cap {
			k.Violations.Overflow++ // (a bounded queue over its capacity)
		}
		maxQ = max(maxQ, q.cnt)
	}
	ph.MaxPopulation, ph.MaxQueue, ph.MaxQueuedPopulation = maxPop, maxQ, maxQP
	k.maxOcc = max(k.maxOcc, maxQ)
	p.joins = js[:0]
}

// barrier ends the phase at instant at when every packet has reached its
// leg's target and some wait at an intermediate node: each node's packets
// start their second leg, in random order, in the same instant.
func (p *packetRouter) barrier(k *Kernel, at int64) {
	for p.outstand == 0 && len(p.parked) > 0 {
		ph := &p.phases[len(p.phases)-1]
		ph.Time = p.lastArrive - p.phaseStart
		p.phases = append(p.phases, PhaseMeasures{})
		p.phaseStart, p.lastArrive = at, at
		for i := range p.node {
			p.node[i].arrived = 0
		}
		ps := p.parked
		shuffle(k, ps)
		for _, wi := range ps {
			p.nextLeg(k, wi, k.Pool.Worms[wi].Dst)
		}
		p.parked = ps[:0]
		p.commitJoins(k, at)
	}
}

// evaluate picks every non-empty queue's packet for the cycle.
func (p *packetRouter) evaluate(k *Kernel) {
	sends := p.sends[:0]
	oldest := p.disc == discFIFO && !p.spec.Phase1First
	for sd, sw := range p.nonEmpty.sum {
		for ; sw != 0; sw &= sw - 1 {
			wd := sd<<6 + bits.TrailingZeros64(sw)
			for word := p.nonEmpty.w[wd]; word != 0; word &= word - 1 {
				q := int32(wd<<6 + bits.TrailingZeros64(word))
				var pos int32
				if !oldest {
					pos = p.pick(k, q)
				}
				wi := elem(p.pt, q).at(p.rings, pos)
				sends = append(sends, send{q: q, pos: pos, wi: wi, to: -1, ok: true})
			}
		}
	}
	p.sends = sends
}

// pick is the position of the packet queue q sends by its discipline.
func (p *packetRouter) pick(k *Kernel, q int32) int32 {
	x := &p.pt[q]
	n := x.n()
	var pos int32
	switch {
	case p.spec.Phase1First:
		for i := range n {
			if p.ps[x.at(p.rings, i)].leg == 0 {
				pos = i
				break
			}
		}
	case p.disc == discFurthest:
		best := int32(-1)
		for i := range n {
			if l := p.ps[x.at(p.rings, i)].left; l > best {
				best, pos = l, i
			}
		}
	case p.disc == discRandom:
		pos = int32(k.rng.IntN(int(n)))
	}
	return pos
}

// grant applies backpressure: a packet moves only into a queue that had a
// free slot, the lowest-ranked requests first (see packet.go).
func (p *packetRouter) grant(k *Kernel) {
	t := k.Topo
	contested := false
	pend := p.pendingCounts() // (empty: requests per target, counted here)
	for i := range p.sends {
		s := &p.sends[i]
		e := p.pt[p.ps[s.wi].port].far
		o := p.peek(k, s.wi, e.sw, e.in)
		if gp := k.portBase[e.sw] + o; p.queueOf(gp) >= 0 {
			s.to = p.queueOf(gp)
			deg := int32(len(t.Switches[e.sw].Out))
			s.rank = ((e.in-int32(k.now%int64(deg)))%deg + deg) % deg
			if pend[s.to]++; pend[s.to] > p.cap-p.pt[s.to].n() {
				contested = true
			}
		}
	}
	if contested {
		slices.SortFunc(p.sends, func(a, b send) int {
			if a.to != b.to {
				return int(a.to - b.to)
			}
			return int(a.rank - b.rank)
		})
		p.grantSorted()
		// (back to queue order, which scan-order joins follow)
		slices.SortFunc(p.sends, func(a, b send) int { return int(a.q - b.q) })
	}
	clear(pend)
}

// grantSorted grants, per target queue, its free slots to the first
// requests in rank order (sends sorted by target, then rank).
func (p *packetRouter) grantSorted() {
	for i := 0; i < len(p.sends); {
		j := i + 1
		to := p.sends[i].to
		for j < len(p.sends) && p.sends[j].to == to {
			j++
		}
		if to >= 0 {
			free := p.cap - p.pt[to].n()
			for x := i; x < j; x++ {
				p.sends[x].ok = int32(x-i) < free
			}
		}
		i = j
	}
}

// peek is the port packet wi will take at switch sw, entered on port in
// (the next hop of its route), without advancing the route.
func (p *packetRouter) peek(k *Kernel, wi, sw, in int32) int32 {
	if p.spec.HopRoutes {
		// Decided here, once: decide takes this answer when the packet
		// arrives at sw (a stateful router is asked once per switch).
		if x := &p.ps[wi]; x.next < 0 {
			w := &k.Pool.Worms[wi]
			x.next = int32(p.routeAt(k, w, int(sw), int(in), &w.Route))
		}
		return p.ps[wi].next
	}
	return p.hop(wi, p.ps[wi].pos)
}

// commit moves the granted packets over their links and routes them at the
// next node (joins listed, arrivals delivered or parked): first every
// packet leaves its queue, so that the population sampled at an arrival
// counts none that has left.
func (p *packetRouter) commit(k *Kernel) {
	now, moved := k.now, 0
	for i := range p.sends {
		s := &p.sends[i]
		if !s.ok {
			continue
		}
		x := elem(p.pt, s.q)
		if s.pos == 0 {
			x.popFront(p.rings)
		} else {
			x.remove(p.rings, s.pos)
		}
		if x.cnt == 0 {
			p.nonEmpty.remove(s.q)
		}
		gp := s.q // (its own queue's port: the packet leaves by it)
		if p.spec.Shared {
			gp = elem(p.ps, s.wi).port
			p.waiting[gp]--
		}
		elem(p.node, elem(p.pc, s.q).sw).queued--
		if !elem(k.chans, gp).Carry(now) {
			k.Violations.ChannelOverUse++
		}
		if p.cap > 0 {
			p.lastMove[s.q] = now // (for a deadlock's Since)
		}
		moved++
	}
	k.nmoved = moved
	k.FlitHops += int64(moved)
	for i := range p.sends {
		if s := &p.sends[i]; s.ok {
			p.cross(k, s.wi)
		}
	}
}

// cross is packet wi crossing the link of its port: at the next node it
// arrives or is routed and listed to join its next queue.
func (p *packetRouter) cross(k *Kernel, wi int32) {
	x := elem(p.ps, wi)
	gp := x.port
	e := elem(p.pt, gp).far
	x.sw, x.in = e.sw, e.in
	x.hops++
	x.left--
	var arrived bool
	if x.pos < x.rlen && x.rlen <= inlineHops && !p.spec.HopRoutes && p.multi == nil {
		// (decide's common case, inline: the next entry of a route kept
		// in the packet's record)
		ngp := *elem(k.portBase, e.sw) + int32(x.inl[x.pos])
		x.pos++
		x.port = ngp
		arrived = p.queueOf(ngp) < 0
	} else {
		arrived = !p.decide(k, wi)
	}
	if k.tr != nil {
		to := k.nb + p.pt[x.port].far.in
		if !arrived {
			to = p.pc[x.port].buf
		}
		k.tr.Move(k.now, flit.Flit{Worm: wi, Kind: flit.HeadTail, Hops: uint16(x.hops)}, p.pc[gp].buf, to, gp, k.now+1)
	}
	if arrived {
		p.legEnd(k, wi, k.now+1)
		return
	}
	p.joins = append(p.joins, p.joinOf(p.queueOf(x.port), wi))
}

func (p *packetRouter) sentNone() bool {
	for i := range p.sends {
		if p.sends[i].ok {
			return false
		}
	}
	return true
}

func (p *packetRouter) anyQueued() bool { return len(p.sends) > 0 }
