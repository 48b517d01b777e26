package kernel

import "github.com/flitsim/flitsim/flit"

// A packet's legs in the packet router (packet.go): a new packet's first
// leg, routed at its source; each leg traced when it starts and carried by
// the packet; a leg's end (delivered, parked for the barrier, or the next
// leg at once).

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
