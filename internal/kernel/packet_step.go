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

// place is where a new packet enters the model (Enqueue, EnqueueLater).
func (p *packetRouter) place(k *Kernel, wi int32) {
	p.grow(wi)
	if p.sch != nil {
		p.placeSched(k, wi)
		return
	}
	w := &k.Pool.Worms[wi]
	p.ps[wi].hops, p.ps[wi].leg, p.ps[wi].final, p.ps[wi].next = 0, 0, -1, -1
	if v := p.spec.Via; v != nil {
		if mid := v(w, k.rng); mid >= 0 {
			p.ps[wi].final, w.Dst = w.Dst, mid
			k.Topo.Router.Init(w, k.rng)
		}
	}
	p.outstand++
	src := w.Src
	if !p.route(k, wi, k.Topo.InSwitch[src], k.Topo.InPort[src]) {
		w.InjCycle = k.now
		p.legEnd(k, wi, k.now)
		return
	}
	if p.cap > 0 {
		k.queues[src].push(wi) // waits for room (admit)
		return
	}
	w.InjCycle = k.now
	p.enter(k, wi, src)
}

// enter puts packet wi, routed at its source switch, in its first queue.
func (p *packetRouter) enter(k *Kernel, wi, src int32) {
	if k.tr != nil {
		f := flit.Flit{Worm: wi, Kind: flit.HeadTail}
		k.tr.Move(k.now, f, k.srcBuf[src], p.pt[p.ps[wi].port].buf, -1, k.now)
	}
	p.joins = append(p.joins, join{p.pt[p.ps[wi].port].q, wi})
}

// admit moves packets from the terminals' source queues into their first
// queues while these have room (bounded queues).
func (p *packetRouter) admit(k *Kernel) {
	pend := p.pendingCounts()
	for src := range k.queues {
		sq := &k.queues[src]
		for sq.n > 0 {
			wi := sq.front()
			q := p.pt[p.ps[wi].port].q
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

// route starts packet wi's leg at switch sw (entered on port in): with
// source routes it traces the whole leg; it sets the hops left and the
// first port. It reports false when the leg is empty (the target is here).
func (p *packetRouter) route(k *Kernel, wi, sw, in int32) bool {
	w := &k.Pool.Worms[wi]
	p.ps[wi].sw, p.ps[wi].in = sw, in
	if p.multi != nil && p.multi.splits(p, wi) {
		return p.multi.begin(p, k, wi) // (a read's last leg: split hop by hop)
	}
	if !p.spec.HopRoutes || p.disc == discFurthest {
		var r []uint8
		ok := false
		switch {
		case p.path != nil:
			r, ok = p.path.Path(int(sw), int(in), w, p.rbuf[:0]), true
		case p.spath != nil:
			p.st = w.Route
			if r, ok = p.spath.PathHead(int(sw), int(in), w, &p.st, p.rbuf[:0]); ok && !p.spec.HopRoutes {
				w.Route = p.st // (as hop by hop: the state at the leg's end)
			}
		}
		if !ok {
			r = p.trace(k, w, sw, in)
		}
		x := &p.ps[wi]
		x.pos, x.rlen, x.left = 0, int32(len(r)), int32(len(r)-1)
		if len(r) <= inlineHops {
			copy(x.inl[:], r)
		} else {
			p.routes[wi] = append(p.routes[wi][:0], r...)
		}
		p.rbuf = r
	}
	return p.decide(k, wi)
}

// trace is packet w's leg from switch sw (entered on port in), hop by hop
// through the routing function.
func (p *packetRouter) trace(k *Kernel, w *flit.Worm, sw, in int32) []uint8 {
	r := p.rbuf[:0]
	limit := 4*len(k.Topo.Switches) + 16
	st := &p.st // (a stateful router's state, advanced along the trace)
	*st = w.Route
	for n := 0; ; n++ {
		o := int32(p.routeAt(k, w, int(sw), int(in), st))
		if o >= k.portBase[sw+1]-k.portBase[sw] {
			k.Violations.Misdelivered++ // (no port at all)
			break
		}
		r = append(r, uint8(o))
		e := p.pt[k.portBase[sw]+o].far
		if e.sw < 0 || n > limit {
			if e.in != w.Dst || e.sw >= 0 {
				r = r[:len(r)-1]            // (decide finds the route's end)
				k.Violations.Misdelivered++ // (a routing function that does not reach its target)
			}
			break
		}
		sw, in = e.sw, e.in
	}
	if !p.spec.HopRoutes {
		w.Route = *st // (as hop by hop: the state at the leg's end)
	}
	return r
}

// decide sets the port packet wi leaves its present switch by, from its
// route or by the routing function, and reports false if it has arrived.
func (p *packetRouter) decide(k *Kernel, wi int32) bool {
	if p.multi != nil && p.multi.splits(p, wi) {
		return p.multi.split(p, k, wi) // (packet_multi.go)
	}
	sw := p.ps[wi].sw
	var o int32
	if p.spec.HopRoutes {
		if o = p.ps[wi].next; o >= 0 {
			p.ps[wi].next = -1 // (decided when it asked for this switch's queue: grant)
		} else {
			w := &k.Pool.Worms[wi]
			o = int32(p.routeAt(k, w, int(sw), int(p.ps[wi].in), &w.Route))
		}
		if o >= k.portBase[sw+1]-k.portBase[sw] {
			p.ps[wi].port = -1 // (no port at all: legEnd counts it)
			k.Violations.Misdelivered++
			return false
		}
	} else {
		x := &p.ps[wi]
		if x.pos >= x.rlen { // (a route that never reached its target: counted in route)
			x.port = -1
			return false
		}
		o = p.hop(wi, x.pos)
		x.pos++
	}
	gp := k.portBase[sw] + o
	p.ps[wi].port = gp
	return p.pt[gp].q >= 0
}

// legEnd is packet wi reaching its leg's target at instant at: it is
// delivered, parked for the barrier or sent on its second leg.
func (p *packetRouter) legEnd(k *Kernel, wi int32, at int64) {
	if gp := p.ps[wi].port; gp < 0 || p.pt[gp].far.sw >= 0 || p.pt[gp].far.in < 0 {
		// A routing function that led nowhere (in source mode counted
		// when the route was traced): the packet is taken out.
		if gp >= 0 {
			k.Violations.Misdelivered++
		}
		p.ps[wi].port = p.ejectPort(k, wi)
	}
	sw := k.portSw[p.ps[wi].port]
	p.outstand--
	p.lastArrive = at
	if mid := k.Pool.Worms[wi].Dst; p.ps[wi].final >= 0 {
		if p.spec.Barrier {
			p.node[sw].arrived++
			p.notePop(sw)
			p.parked = append(p.parked, wi)
			return
		}
		// Merged phases: the packet is re-queued at once and arrives
		// only at its destination (it is counted there).
		p.nextLeg(k, wi, mid)
		return
	}
	p.node[sw].arrived++
	p.notePop(sw)
	term := p.pt[p.ps[wi].port].far.in
	if p.multi != nil && p.multi.owns(wi) {
		p.multi.arrive(p, k, wi, term, at) // (packet_multi.go)
		return
	}
	f := flit.Flit{Worm: wi, Kind: flit.HeadTail, Hops: uint16(p.ps[wi].hops)}
	k.eject(term, &f, at)
}

// ejectPort is the port that ejects into packet wi's leg target.
func (p *packetRouter) ejectPort(k *Kernel, wi int32) int32 {
	dst := k.Pool.Worms[wi].Dst
	for gp := range p.pt {
		e := p.pt[gp].far
		if e.sw < 0 && e.in == dst {
			return int32(gp)
		}
	}
	return 0
}

// nextLeg starts packet wi's second leg from terminal mid.
func (p *packetRouter) nextLeg(k *Kernel, wi, mid int32) {
	w := &k.Pool.Worms[wi]
	w.Dst, p.ps[wi].final, p.ps[wi].leg = p.ps[wi].final, -1, 1
	w.Route = flit.RouteState{} // (a new route: a stateful router starts afresh)
	k.Topo.Router.Init(w, k.rng)
	p.outstand++
	if !p.route(k, wi, k.Topo.InSwitch[mid], k.Topo.InPort[mid]) {
		p.legEnd(k, wi, p.lastArrive)
		return
	}
	if p.cap > 0 {
		k.queues[mid].push(wi) // (bounded: waits for room at mid, as a new packet does)
		return
	}
	p.joins = append(p.joins, join{p.pt[p.ps[wi].port].q, wi})
}

// commitJoins appends the listed joins to their queues, in random or scan
// order, at instant at, and samples the measures.
func (p *packetRouter) commitJoins(k *Kernel, at int64) {
	js := p.joins
	if !p.scan {
		shuffle(k, js)
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
		q.push(j.wi)
		p.nonEmpty.add(j.q)
		if p.spec.Shared { // (own queues: the queue's count is its port's)
			elem(p.pt, elem(p.ps, j.wi).port).waiting++
		}
		nd := elem(p.node, q.sw)
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

func (p *packetRouter) notePop(sw int32) {
	ph := &p.phases[len(p.phases)-1]
	ph.MaxPopulation = max(ph.MaxPopulation, p.node[sw].queued+p.node[sw].arrived)
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
				wi := elem(p.pt, q).at(pos)
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
			if p.ps[x.at(i)].leg == 0 {
				pos = i
				break
			}
		}
	case p.disc == discFurthest:
		best := int32(-1)
		for i := range n {
			if l := p.ps[x.at(i)].left; l > best {
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
		if gp := k.portBase[e.sw] + o; p.pt[gp].q >= 0 {
			s.to = p.pt[gp].q
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

// routeAt is the output port packet w takes at switch sw, entered on port
// in: by the routing function, or for one with per-packet state
// (topology.StatefulRouter) by RouteHead on st, which it advances.
func (p *packetRouter) routeAt(k *Kernel, w *flit.Worm, sw, in int, st *flit.RouteState) int {
	if k.stateful != nil {
		return k.stateful.RouteHead(sw, in, w, st).First()
	}
	return k.Topo.Router.Route(sw, in, w).First()
}

// hop is entry i of packet wi's source route.
func (p *packetRouter) hop(wi, i int32) int32 {
	if x := &p.ps[wi]; x.rlen <= inlineHops {
		return int32(x.inl[i])
	}
	return int32(p.routes[wi][i])
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
			x.popFront()
		} else {
			x.remove(s.pos)
		}
		if x.cnt == 0 {
			p.nonEmpty.remove(s.q)
		}
		gp := s.q // (its own queue's port: the packet leaves by it)
		if p.spec.Shared {
			gp = elem(p.ps, s.wi).port
			elem(p.pt, gp).waiting--
		}
		elem(p.node, x.sw).queued--
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
		arrived = elem(p.pt, ngp).q < 0
	} else {
		arrived = !p.decide(k, wi)
	}
	if k.tr != nil {
		to := k.nb + p.pt[x.port].far.in
		if !arrived {
			to = p.pt[x.port].buf
		}
		k.tr.Move(k.now, flit.Flit{Worm: wi, Kind: flit.HeadTail, Hops: uint16(x.hops)}, p.pt[gp].buf, to, gp, k.now+1)
	}
	if arrived {
		p.legEnd(k, wi, k.now+1)
		return
	}
	p.joins = append(p.joins, join{elem(p.pt, x.port).q, wi})
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
