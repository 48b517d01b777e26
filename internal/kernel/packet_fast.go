package kernel

import "math/bits"

// The packet router's fast step: the cycle of packet_step.go for its
// common configuration — FIFO queues of their own (not shared), unbounded,
// routes carried from the source, no multiple reads or writes, no tracer,
// Valiant's phases separate or one phase — with what that configuration
// makes constant left out (a packet's hops left, read only by
// furthest-first, is not kept). It moves the same packets in the same
// order and draws the same random numbers, so a run is the same whichever
// step takes it (TestPacketFastEqualsGeneral); why each piece is shaped
// as it is: speed.md.

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
	if p.longRoutes { // (a route the record does not hold: the general moves)
		p.chansDirty = true
		p.evaluate(k)
		p.commit(k)
	} else {
		p.moveFast(k)
	}
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
// cycle (legEnd lists no join in this configuration). Queues are listed
// and send a block at a time (the queues of one word of the set's
// summary, 4096 ids), so that a sending queue's record is still in the
// cache when it sends: listed all at once, each record was a cache miss
// twice.
func (p *packetRouter) moveFast(k *Kernel) {
	if len(p.senders) < len(p.ps) { // (a queue per packet at most: no call in sendersFast's loop)
		p.senders = make([]int32, len(p.ps)+64)
	}
	n0 := len(p.joins)
	buf := p.room(len(p.ps))
	nj, na := n0, len(buf)
	for sd, sword := range p.nonEmpty.sum {
		if sword == 0 {
			continue
		}
		qs := p.sendersFast(sd)
		if p.countLinks {
			chans := k.chans
			for _, q := range qs {
				elem(chans, q).Flits++ // (one packet per queue and link: Carry's check cannot fail)
			}
		}
		nj, na = p.sendFast(qs, buf, nj, na)
	}
	p.joins = buf[:nj]
	moved := nj - n0 + len(buf) - na
	k.nmoved = moved
	k.FlitHops += int64(moved)
	for i := len(buf) - 1; i >= na; i-- { // (the arrivals, first to last)
		p.legEnd(k, buf[i].wi, k.now+1)
	}
}

// sendersFast lists the non-empty queues of summary word sd in id order
// (in p.senders, made large enough by moveFast) and takes out of the set
// those that send their only packet.
func (p *packetRouter) sendersFast(sd int) []int32 {
	qs, pt, nw := p.senders, p.pt, p.nonEmpty.w
	n := 0
	sword := *elem(p.nonEmpty.sum, sd)
	sleft := sword
	for ; sword != 0; sword &= sword - 1 {
		wd := sd<<6 + bits.TrailingZeros64(sword)
		left := *elem(nw, wd)
		for word := left; word != 0; word &= word - 1 {
			b := bits.TrailingZeros64(word)
			q := int32(wd<<6 + b)
			*elem(qs, n) = q
			n++
			if elem(pt, q).cnt == 1 {
				left &^= 1 << b
			}
		}
		*elem(nw, wd) = left
		if left == 0 {
			sleft &^= 1 << (wd & 63)
		}
	}
	*elem(p.nonEmpty.sum, sd) = sleft
	return qs[:n]
}

// sendFast sends the oldest packet of each queue in qs over its link: it
// leaves, and at the next switch is listed to join its next queue
// (buf[nj], nj counting up) or has arrived: the arrivals go to the end of
// buf, last first (buf[na−1], with q −1, na counting down). It returns
// the new nj and na. (No call in the loop, and one list for both, so that
// the loop's values stay in registers.)
func (p *packetRouter) sendFast(qs []int32, buf []join, nj, na int) (int, int) {
	pt, ps, node, queued, rings, base := p.pt, p.ps, p.node, p.queued, p.rings, p.portBase
	for _, q := range qs {
		x := elem(pt, q)
		var wi int32
		if x.ext == 0 { // (its packets in its record, the oldest first)
			wi = x.inl[0]
			x.inl[0] = x.inl[1]
		} else {
			h := elem(rings, x.ext-2)
			wi = *elem(rings, x.ext+*h)
			*h = (*h + 1) & *elem(rings, x.ext-1)
		}
		x.cnt--
		y := elem(ps, wi)
		elem(node, y.sw).queued-- // (the packet is at its queue's switch)
		e := x.far
		y.sw, y.in = e.sw, e.in
		y.hops++
		if y.pos < y.rlen { // (rlen ≤ inlineHops: stepFast)
			y.port = *elem(base, e.sw) + int32(*elem(y.inl[:], y.pos))
			y.pos++
			// (Whether the next port has a queue, from a bit: its record,
			// at another switch, was a cache miss per hop, then read
			// again by the join.)
			if *elem(queued, y.port>>6)>>(y.port&63)&1 != 0 {
				*elem(buf, nj) = join{y.port, wi, e.sw} // (its own queue: q = port)
				nj++
				continue
			}
		} else {
			y.port = -1 // (a route that never reached its target: legEnd counts it)
		}
		na--
		*elem(buf, na) = join{-1, wi, e.sw}
	}
	return nj, na
}

// room makes p.joins able to take n more entries, and returns it at its
// capacity.
func (p *packetRouter) room(n int) []join {
	if cap(p.joins)-len(p.joins) < n {
		p.joins = append(make([]join, 0, 2*(len(p.joins)+n)), p.joins...)
	}
	return p.joins[:cap(p.joins)]
}

// joinFast is commitJoins for the fast configuration: the joins listed
// join their queues in list order, in runs without a call (joinRun: a
// queue whose ring is full is grown between them, and a queue's second
// and later arrivals in the batch, which draw their place, are made by
// joinAgain: packet_arrive.go), and the measures are sampled.
func (p *packetRouter) joinFast(k *Kernel) {
	js := p.joins
	if len(js) == 0 {
		return
	}
	var again []int32
	if !p.scan {
		again = p.markArrivals(js)
	}
	ph := &p.phases[len(p.phases)-1]
	maxPop, maxQ, maxQP := ph.MaxPopulation, ph.MaxQueue, ph.MaxQueuedPopulation
	for i, n := 0, 0; i < len(js); {
		end := len(js)
		if n < len(again) {
			end = int(again[n])
		}
		i, maxPop, maxQ, maxQP = p.joinRun(js[:end], i, maxPop, maxQ, maxQP)
		switch {
		case i < end:
			p.growQueue(js[i].q)
		case end < len(js):
			maxPop, maxQ, maxQP = p.joinAgain(k, js[end], maxPop, maxQ, maxQP)
			i, n = end+1, n+1
		}
	}
	ph.MaxPopulation, ph.MaxQueue, ph.MaxQueuedPopulation = maxPop, maxQ, maxQP
	k.maxOcc = max(k.maxOcc, maxQ)
	p.endArrivals()
	p.joins = js[:0]
}

// joinRun makes the joins js[i:] until one finds its queue's ring full,
// and returns that join's index (or len(js)) and the measures sampled:
// the largest node population, queue and queued population. (Every slice
// in a local: through p, a store would make the loop reload them.)
func (p *packetRouter) joinRun(js []join, i int, maxPop, maxQ, maxQP int32) (int, int32, int32, int32) {
	pt, node, nw, nsum, rings := p.pt, p.node, p.nonEmpty.w, p.nonEmpty.sum, p.rings
	for ; i < len(js); i++ {
		j := *elem(js, i)
		q := elem(pt, j.q)
		if q.ext == 0 { // (two packets in its record)
			if q.cnt == 2 {
				break
			}
			*elem(q.inl[:], q.cnt) = j.wi
		} else {
			m := *elem(rings, q.ext-1)
			if q.cnt > m {
				break
			}
			*elem(rings, q.ext+(*elem(rings, q.ext-2)+q.cnt)&m) = j.wi
		}
		q.cnt++
		*elem(nw, j.q>>6) |= 1 << (j.q & 63) // (queueSet.add)
		*elem(nsum, j.q>>12) |= 1 << ((j.q >> 6) & 63)
		nd := elem(node, j.sw)
		nd.queued++
		maxPop = max(maxPop, nd.queued+nd.arrived)
		maxQP = max(maxQP, nd.queued)
		maxQ = max(maxQ, q.cnt)
	}
	return i, maxPop, maxQ, maxQP
}
