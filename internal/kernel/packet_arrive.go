package kernel

// The order in which packets arriving at one queue in one batch of joins
// (a cycle's link arrivals, its injections, a barrier's new legs) join it,
// with ArrivalOrder "random" (the default), one rule for both steps: the
// joins are taken in the order they were listed (packet.go, step 3); a
// queue's first arrival in the batch draws nothing, and its a-th after
// that (a ≥ 1) draws j = IntN(a+1) from the kernel's source and, when
// j < a, takes the place of its j-th arrival (counted from 0), which moves
// to the end (the inside-out Fisher–Yates shuffle).
// Each queue's arrivals end in a uniformly random order, independent of
// the other queues': what one shuffle of all the batch's joins gives them,
// for one draw per arrival after a queue's first instead of one per join
// (a queue rarely takes two packets in a cycle; the shuffle of every join
// was a seventh of a 12-cube hop's time: speed.md).

// orderArrivals puts the joins js, listed in their order, in the order in
// which they join (the general step): the draws in list order, each moving
// a join among the places its queue's joins hold in the list.
func (p *packetRouter) orderArrivals(k *Kernel, js []join) {
	cnt := p.arrivalCounts()
	idx := append(p.arrIdx[:0], make([]int32, len(js))...) // per join: its queue's arrivals before it
	more := false
	for i, j := range js {
		idx[i] = cnt[j.q]
		cnt[j.q]++
		more = more || idx[i] > 0
	}
	if more {
		// The places of each queue's joins, grouped (a queue's group starts
		// at cnt[q], set at its first join), each group in list order.
		grp := append(p.arrGrp[:0], make([]int32, len(js))...)
		next := int32(0)
		for i, j := range js {
			if idx[i] == 0 {
				n := cnt[j.q]
				cnt[j.q], next = next, next+n
			}
			grp[cnt[j.q]+idx[i]] = int32(i)
		}
		for i := range js {
			if a := idx[i]; a > 0 {
				if x := int32(k.rng.IntN(int(a) + 1)); x < a {
					o := grp[cnt[js[i].q]+x] // (js[i]'s queue is its place's: swaps stay within a queue's places)
					js[o], js[i] = js[i], js[o]
				}
			}
		}
		p.arrGrp = grp
	}
	for _, j := range js {
		cnt[j.q] = 0
	}
	p.arrIdx = idx
}

// joinAgain makes join j, its queue's second or later arrival in the batch
// being made (the fast step's joinRun stops before one, found by
// markArrivals: a draw is a call), and returns the measures sampled. The
// queue's earlier arrivals in the batch are its last packets.
func (p *packetRouter) joinAgain(k *Kernel, j join, maxPop, maxQ, maxQP int32) (int32, int32, int32) {
	a := p.arrivalCounts()[j.q] + 1 // (its first arrival is not counted there)
	if a == 1 {
		p.collided = append(p.collided, j.q)
	}
	p.extra[j.q] = a
	q := &p.pt[j.q]
	if q.full(p.rings) {
		p.growQueue(j.q)
	}
	q.push(p.rings, j.wi)
	if x := int32(k.rng.IntN(int(a) + 1)); x < a {
		first := q.cnt - 1 - a
		o := q.at(p.rings, first+x)
		q.set(p.rings, first+x, j.wi)
		q.set(p.rings, q.cnt-1, o)
	}
	nd := &p.node[j.sw]
	nd.queued++
	return max(maxPop, nd.queued+nd.arrived), max(maxQ, q.cnt), max(maxQP, nd.queued)
}

// markArrivals lists the joins of js (in list order) whose queue has an
// earlier one in the batch, by the set of queues joined (p.fresh, cleared
// again before it returns).
func (p *packetRouter) markArrivals(js []join) []int32 {
	if cap(p.again) < len(js) {
		p.again = make([]int32, 0, 2*len(js))
	}
	fresh, again, n := p.fresh, p.again[:len(js)], 0
	for i := range js { // (every index stored, kept when the bit was set: no jump in the loop)
		q := elem(js, i).q
		f := elem(fresh, q>>6)
		old := *f
		*f = old | 1<<(q&63)
		*elem(again, n) = int32(i)
		n += int(old >> (q & 63) & 1)
	}
	again = again[:n]
	if len(js) > len(fresh)/16 { // (every bit set was set by one of js: fewer stores)
		clear(fresh)
	} else {
		for _, j := range js {
			*elem(fresh, j.q>>6) = 0
		}
	}
	p.again = again
	return again
}

// arrivalCounts is p.extra, made for every queue when first needed.
func (p *packetRouter) arrivalCounts() []int32 {
	if len(p.extra) < len(p.pt) {
		p.extra = make([]int32, len(p.pt))
	}
	return p.extra
}

// endArrivals forgets the fast step's counts of the batch's arrivals.
func (p *packetRouter) endArrivals() {
	for _, q := range p.collided {
		p.extra[q] = 0
	}
	p.collided = p.collided[:0]
}
