package kernel

import "math/bits"

// The packet router's fast step: the cycle of packet_step.go for its
// common configuration — FIFO queues of their own (not shared), unbounded,
// routes carried from the source, no multiple reads or writes, no tracer,
// Valiant's phases separate or one phase — with what that configuration
// makes constant left out (a packet's hops left, read only by
// furthest-first, is not kept). It moves the same packets in the same order and
// draws the same random numbers, so a run is the same whichever step takes
// it (TestPacketFastEqualsGeneral); why each piece is shaped as it is:
// speed.md.

// fastOK reports whether the router's configuration allows the fast step
// (chosen once; step checks what may change later: a tracer, multi).
func (p *packetRouter) fastOK() bool {
	s := &p.spec
	merged := s.Via != nil && !s.Barrier // (an arrival re-joins at once: its join's place in the list matters)
	return !packetGeneralOnly && s.Schedule == nil && p.disc == discFIFO && !s.Phase1First &&
		p.cap == 0 && !s.Shared && !s.HopRoutes && !merged
}

// fastNow reports whether this cycle may take the fast step: no observer
// that sees packets one by one (a tracer; a delivery hook, which may
// create packets while the cycle's joins are listed) and no multiple
// reads or writes.
func (p *packetRouter) fastNow(k *Kernel) bool {
	return k.tr == nil && p.multi == nil && k.Hooks.Delivered == nil && k.Hooks.Ejected == nil &&
		(k.stats == nil || k.stats.onDelivered == nil)
}

// packetGeneralOnly makes every packet router take the general step (the
// tests that compare the two paths set it).
var packetGeneralOnly bool

// stepFast is step for the fast configuration.
func (p *packetRouter) stepFast(k *Kernel) {
	p.chansDirty = p.chansDirty || p.countLinks
	p.fastSteps++
	k.placeLater() // → place: injections join p.joins
	p.joinFast(k)
	p.barrier(k, k.now)
	p.moveFast(k)
	p.joinFast(k)
	p.barrier(k, k.now+1)
	k.settle(&k.whole)
	k.now++
}

// moveFast is evaluate, commit and cross for the fast configuration:
// every non-empty queue sends its oldest packet, which crosses its link
// and is listed to join its next queue. The sending queues are listed
// first (sendersFast), then each sends (sendFast); packets that reach
// their leg's target are handled after that, in the same order, so that
// the population sampled at an arrival counts none that left in this
// cycle (legEnd lists no join in this configuration).
func (p *packetRouter) moveFast(k *Kernel) {
	qs := p.sendersFast()
	n0 := len(p.joins)
	p.sendFast(k, qs)
	moved := len(p.joins) - n0 + len(p.arrived)
	k.nmoved = moved
	k.FlitHops += int64(moved)
	for _, wi := range p.arrived {
		p.legEnd(k, wi, k.now+1)
	}
}

// sendersFast lists the non-empty queues in id order (in p.senders).
func (p *packetRouter) sendersFast() []int32 {
	qs := p.senders[:0]
	ne := &p.nonEmpty
	for sd, sword := range ne.sum {
		for ; sword != 0; sword &= sword - 1 {
			wd := sd<<6 + bits.TrailingZeros64(sword)
			for word := *elem(ne.w, wd); word != 0; word &= word - 1 {
				qs = append(qs, int32(wd<<6+bits.TrailingZeros64(word)))
			}
		}
	}
	p.senders = qs
	return qs
}

// sendFast sends the oldest packet of each queue in qs over its link: it
// leaves, and at the next switch is listed to join its next queue
// (p.joins) or has arrived (p.arrived). (No call in the loop: the lists
// have room for every packet beforehand, so that the loop's values stay
// in registers.)
func (p *packetRouter) sendFast(k *Kernel, qs []int32) {
	pt, ps, node, chans, ne, counts := p.pt, p.ps, p.node, k.chans, &p.nonEmpty, p.countLinks
	js, arr := p.room(len(qs))
	nj, na := len(p.joins), 0
	for _, q := range qs {
		x := elem(pt, q)
		wi := *elem(x.ring, x.head)
		x.head = (x.head + 1) & int32(len(x.ring)-1)
		if x.cnt--; x.cnt == 0 {
			ne.remove(q)
		}
		elem(node, x.sw).queued--
		if counts {
			elem(chans, q).Flits++ // (one packet per queue and link: Carry's check cannot fail)
		}
		y := elem(ps, wi)
		y.sw, y.in = x.far.sw, x.far.in
		y.hops++
		if y.pos < y.rlen {
			var o int32
			if y.rlen <= inlineHops {
				o = int32(*elem(y.inl[:], y.pos))
			} else {
				o = int32(p.routes[wi][y.pos])
			}
			y.port = x.farBase + o
			y.pos++
			if elem(pt, y.port).q >= 0 {
				*elem(js, nj) = join{y.port, wi} // (its own queue: q = port)
				nj++
				continue
			}
		} else {
			y.port = -1 // (a route that never reached its target: legEnd counts it)
		}
		*elem(arr, na) = wi
		na++
	}
	p.joins, p.arrived = js[:nj], arr[:na]
}

// room makes p.joins and p.arrived able to take n more packets, and
// returns them at their capacity.
func (p *packetRouter) room(n int) (js []join, arr []int32) {
	if cap(p.joins)-len(p.joins) < n {
		p.joins = append(make([]join, 0, 2*(len(p.joins)+n)), p.joins...)
	}
	if cap(p.arrived) < n {
		p.arrived = make([]int32, 0, 2*n)
	}
	return p.joins[:cap(p.joins)], p.arrived[:cap(p.arrived)]
}

// joinFast is commitJoins for the fast configuration: the joins listed,
// shuffled (unless in scan order), join their queues; the measures are
// sampled.
func (p *packetRouter) joinFast(k *Kernel) {
	js := p.joins
	if len(js) == 0 {
		return
	}
	if !p.scan {
		shuffle(k, js)
	}
	pt, node, ne := p.pt, p.node, &p.nonEmpty
	ph := &p.phases[len(p.phases)-1]
	maxPop, maxQ, maxQP := ph.MaxPopulation, ph.MaxQueue, ph.MaxQueuedPopulation
	for _, j := range js {
		q := elem(pt, j.q)
		q.push(j.wi)
		ne.add(j.q)
		nd := elem(node, q.sw)
		nd.queued++
		maxPop = max(maxPop, nd.queued+nd.arrived)
		maxQP = max(maxQP, nd.queued)
		maxQ = max(maxQ, q.cnt)
	}
	ph.MaxPopulation, ph.MaxQueue, ph.MaxQueuedPopulation = maxPop, maxQ, maxQP
	k.maxOcc = max(k.maxOcc, maxQ)
	p.joins = js[:0]
}
