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
	w, x := elem(k.Pool.Worms, wi), elem(p.ps, wi)
	x.hops, x.leg, x.final, x.next = 0, 0, -1, -1
	if v := p.spec.Via; v != nil {
		if mid := v(w, k.rng); mid >= 0 {
			x.final, w.Dst = w.Dst, mid
		}
		k.Topo.Router.Init(w, k.rng) // (for the first leg's target; not drawn at creation: k.initAtPlace)
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
		k.tr.Move(k.now, f, k.srcBuf[src], p.pc[p.ps[wi].port].buf, -1, k.now)
	}
	p.joins = append(p.joins, p.joinOf(p.queueOf(elem(p.ps, wi).port), wi))
}

// route starts packet wi's leg at switch sw (entered on port in): with
// source routes it traces the whole leg; it sets the hops left and the
// first port. It reports false when the leg is empty (the target is here).
func (p *packetRouter) route(k *Kernel, wi, sw, in int32) bool {
	x := elem(p.ps, wi)
	x.sw, x.in = sw, in
	if p.wholePaths && p.multi == nil {
		return p.routePath(k, x, wi, sw)
	}
	if p.multi != nil && p.multi.splits(p, wi) {
		return p.multi.begin(p, k, wi) // (a read's last leg: split hop by hop)
	}
	if !p.spec.HopRoutes || p.disc == discFurthest {
		p.traceLeg(k, x, wi, sw, in)
	}
	return p.decide(k, wi)
}

// traceLeg traces packet wi's leg from switch sw (entered on port in) and
// keeps it (keepRoute).
func (p *packetRouter) traceLeg(k *Kernel, x *pktState, wi, sw, in int32) {
	w := elem(k.Pool.Worms, wi)
	r, ok := p.rbuf[:0], false
	switch {
	case p.path != nil:
		r, ok = p.path.Path(int(sw), int(in), w, r), true
	case p.spath != nil:
		p.st = w.Route
		if r, ok = p.spath.PathHead(int(sw), int(in), w, &p.st, r); ok && !p.spec.HopRoutes {
			w.Route = p.st // (as hop by hop: the state at the leg's end)
		}
	}
	if !ok {
		r = p.trace(k, w, sw, in, r[:0])
	}
	x.pos, x.rlen, x.left = 0, int32(len(r)), int32(len(r)-1)
	p.keepRoute(x, wi, r)
}

// keepRoute keeps route r, traced into p.rbuf, for packet wi: in its record
// x when it fits, else in p.routes[wi] (and from then on the fast step's
// cycles move packets by the general step: stepFast). A grown buffer is
// kept for the next route.
func (p *packetRouter) keepRoute(x *pktState, wi int32, r []uint8) {
	switch {
	case len(r) > inlineHops:
		p.routes[wi] = append(p.routes[wi][:0], r...)
		p.longRoutes = true
	case cap(r) >= inlineHops:
		x.inl = [inlineHops]uint8(r[:inlineHops]) // (a copy of fixed size, without a call; what follows the route is not read)
	default:
		copy(x.inl[:], r)
	}
	if cap(r) > cap(p.rbuf) {
		p.rbuf = r[:0]
	}
}

// routePath is route for a path router (or a stateful one that gives whole
// paths) and source routes: the leg in one call, kept (keepRoute), and the
// first port set as decide would.
func (p *packetRouter) routePath(k *Kernel, x *pktState, wi, sw int32) bool {
	w := elem(k.Pool.Worms, wi)
	var r []uint8
	if p.path != nil {
		r = p.path.Path(int(sw), int(x.in), w, p.rbuf[:0])
	} else {
		p.st = w.Route
		ok := false
		if r, ok = p.spath.PathHead(int(sw), int(x.in), w, &p.st, p.rbuf[:0]); !ok {
			p.wholePaths = false // (it gives no whole paths: traced hop by hop from now on)
			p.traceLeg(k, x, wi, sw, x.in)
			return p.decide(k, wi)
		}
		w.Route = p.st // (as hop by hop: the state at the leg's end)
	}
	n := int32(len(r))
	x.pos, x.rlen, x.left = 0, n, n-1
	p.keepRoute(x, wi, r)
	if n == 0 {
		x.port = -1
		return false
	}
	x.pos = 1
	gp := *elem(k.portBase, sw) + int32(r[0])
	x.port = gp
	return p.hasQueue(gp)
}

// trace appends to r packet w's leg from switch sw (entered on port in),
// hop by hop through the routing function.
func (p *packetRouter) trace(k *Kernel, w *flit.Worm, sw, in int32, r []uint8) []uint8 {
	limit := 4*len(k.Topo.Switches) + 16
	st, base := &p.st, k.portBase // (st: a stateful router's state, advanced along the trace)
	rt, sf := k.Topo.Router, k.stateful
	*st = w.Route
	for n := 0; ; n++ {
		var o int32 // (routeAt, its loads out of the loop)
		if sf != nil {
			o = int32(sf.RouteHead(int(sw), int(in), w, st).First())
		} else {
			o = int32(rt.Route(int(sw), int(in), w).First())
		}
		b0 := *elem(base, sw)
		if o >= *elem(base, sw+1)-b0 {
			k.Violations.Misdelivered++ // (no port at all)
			break
		}
		r = append(r, uint8(o))
		e := elem(p.pt, b0+o).far
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
		x := elem(p.ps, wi)
		if x.pos >= x.rlen { // (a route that never reached its target: counted in route)
			x.port = -1
			return false
		}
		o = p.hop(wi, x.pos)
		x.pos++
	}
	gp := *elem(k.portBase, sw) + o
	elem(p.ps, wi).port = gp
	return p.hasQueue(gp)
}

// legEnd is packet wi reaching its leg's target at instant at: it is
// delivered, parked for the barrier or sent on its second leg.
func (p *packetRouter) legEnd(k *Kernel, wi int32, at int64) {
	x := elem(p.ps, wi)
	sw := x.sw // (where it arrived: its ejection port's switch)
	if gp := x.port; gp < 0 || p.pt[gp].far.sw >= 0 || p.pt[gp].far.in < 0 {
		// A routing function that led nowhere (in source mode counted
		// when the route was traced): the packet is taken out, at its
		// destination.
		if gp >= 0 {
			k.Violations.Misdelivered++
		}
		x.port = p.ejectPort(k, wi)
		sw = p.pc[x.port].sw
	}
	p.outstand--
	p.lastArrive = at
	if x.final >= 0 && !p.spec.Barrier {
		// Merged phases: the packet is re-queued at once and arrives
		// only at its destination (it is counted there).
		p.nextLeg(k, wi, k.Pool.Worms[wi].Dst)
		return
	}
	nd := elem(p.node, sw)
	nd.arrived++
	ph := &p.phases[len(p.phases)-1]
	ph.MaxPopulation = max(ph.MaxPopulation, nd.queued+nd.arrived)
	if x.final >= 0 {
		p.parked = append(p.parked, wi)
		return
	}
	if p.multi != nil && p.multi.owns(wi) {
		p.multi.arrive(p, k, wi, elem(p.pt, x.port).far.in, at) // (packet_multi.go)
		return
	}
	p.deliver(k, wi, elem(p.pt, x.port).far.in, at)
}

// deliver ejects packet wi at terminal term at instant at: k.eject's work
// for a one-flit unicast packet, done here, with the same counts and
// statistics, when nothing observes packets one by one (no tracer, hooks
// or per-packet statistics), else by k.eject. (The terminal's flit-order
// check cannot fail for one-flit packets, so its state is left alone.)
func (p *packetRouter) deliver(k *Kernel, wi, term int32, at int64) {
	w, c := elem(k.Pool.Worms, wi), k.stats
	hops := uint16(elem(p.ps, wi).hops)
	if k.tr != nil || k.Hooks.Ejected != nil || k.Hooks.Delivered != nil || w.Cast != flit.Unicast || c != nil && c.slow {
		f := flit.Flit{Worm: wi, Kind: flit.HeadTail, Hops: hops}
		k.eject(term, &f, at)
		return
	}
	if term != w.Dst {
		k.Violations.Misdelivered++
	}
	w.Recvd++
	w.Hops = int32(hops)
	if c != nil {
		c.delFl++
		if c.inWindow(at - 1) {
			c.winEj++
		}
	}
	if w.Done++; w.Done < w.Dests {
		return
	}
	if c != nil {
		c.delPk++
		if w.Measured {
			c.done(w.GenCycle, w.InjCycle, int64(w.Hops), at)
		}
	}
	k.Pool.Put(wi)
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
	w, x := elem(k.Pool.Worms, wi), elem(p.ps, wi)
	w.Dst, x.final, x.leg = x.final, -1, 1
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
	p.joins = append(p.joins, p.joinOf(p.queueOf(x.port), wi))
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
