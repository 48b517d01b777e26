package kernel

import (
	"math/bits"

	"github.com/flitsim/flitsim/flit"
	xbar "github.com/flitsim/flitsim/switch"
)

// need is the set of ports flit f must be copied to when it leaves x: the
// bound worm's ports, or for a multi-flit multicast header, the ports
// enabled by f or an earlier flit.
func (k *Kernel) need(x *bufState, f *flit.Flit) xbar.PortSet {
	if x.ent < 0 {
		return x.want
	}
	en := k.mc[x.worm].en[x.ent:]
	var n xbar.PortSet
	for m := x.want; m != 0; {
		p := m.Next()
		if en[p] <= f.Seq {
			n |= xbar.Port(p)
		}
	}
	return n
}

// noteFront marks b for allocation if its front flit needs ports it does
// not hold (a new worm to bind, or a header flit enabling more ports).
func (k *Kernel) noteFront(b int32) {
	x := elem(k.bs, b)
	if x.rSw < 0 && !(x.ejT >= 0 && k.pathLive > 0) {
		return
	}
	f := x.Front()
	if f.Worm != x.worm || k.need(x, f)&^x.mask != 0 {
		k.alloc.set(b)
	}
}

// route binds new worms at the front of their buffers and posts requests
// for the ports their front flits need. A request whose ports are held by
// another worm is not posted (it cannot win this cycle), except under the
// non-atomic grab policy, which takes whatever is free.
func (k *Kernel) route(l *lane) {
	if cap(l.posted) <= len(k.sw) {
		// (+1: a slot written, not counted)
		l.posted = make([]int32, 0, len(k.sw)+1)
		l.won = make([]int32, 0, len(k.sw)+1)
		l.offered = make([]int32, len(k.portSw)+1)
	}
	if k.fastNow && k.byInput {
		k.routeOffers(l)
		return
	}
	// (A switch is listed by counting, not by a jump on whether it is its
	// first request this cycle.)
	posted, np := l.posted[:cap(l.posted)], len(l.posted)
	for wi := int(l.lo >> 6); wi <= int((l.hi-1)>>6); wi++ {
		word := k.alloc.word(wi) &^ k.parked.word(wi)
		for word != 0 {
			b := int32(wi<<6 | bits.TrailingZeros64(word))
			word &= word - 1
			x := elem(k.bs, b)
			f := x.Front()
			if !f.Ready(k.now) {
				continue
			}
			if f.Worm != x.worm {
				k.bind(b, f)
			}
			req := k.need(x, f) &^ x.mask
			if req == 0 {
				k.alloc.clear(b)
				continue
			}
			if x.ent >= 0 && k.decodeHold(x, k.now, req) {
				continue
			}
			s := x.rSw
			sw := elem(k.sw, s)
			if sw.Policy != xbar.Grab && !sw.Grantable(req) {
				if x.ent < 0 {
					k.park(b, x, req)
				}
				continue
			}
			*elem(posted, np) = s
			np += int(b2u(!sw.Pending()))
			w := elem(k.Pool.Worms, f.Worm)
			sw.Post(xbar.Request{In: x.rIn, Want: req, Worm: f.Worm, Age: w.GenCycle, Src: w.Src, ID: w.ID, Buf: b})
		}
	}
	l.posted = posted[:np]
}

// routeOffers is route on the fast path under an arbiter that ranks
// requests by input alone (Kernel.byInput): every worm is a unicast, which
// binds by bindUnicast and wants one port, so a request is an offer.
func (k *Kernel) routeOffers(l *lane) {
	now, bs := k.now, k.bs
	for wi := int(l.lo >> 6); wi <= int((l.hi-1)>>6); wi++ {
		word := k.alloc.word(wi) &^ k.parked.word(wi)
		base := int32(wi << 6)
		for word != 0 {
			b := base | int32(bits.TrailingZeros64(word))
			word &= word - 1
			x := elem(bs, b)
			f := x.Front()
			if !f.Ready(now) {
				continue
			}
			if f.Worm != x.worm {
				k.bindUnicast(x, f.Worm)
			}
			req := x.want &^ x.mask // (need: a unicast has no enables)
			if req == 0 {
				k.alloc.clear(b)
				continue
			}
			// A unicast wants one port: whether it is free is one read.
			gp := *elem(k.portBase, x.rSw) + int32(bits.TrailingZeros64(uint64(req)))
			if *elem(k.owner, gp) != xbar.Free {
				k.park(b, x, req)
				continue
			}
			k.offer(l, b, x, gp)
		}
	}
}

// park takes b out of routing until a port of req that another worm holds
// is released: until then its request cannot be granted. (Multi-flit
// multicast headers, whose needs change flit by flit, are not parked.)
func (k *Kernel) park(b int32, x *bufState, req xbar.PortSet) {
	sw := elem(k.sw, x.rSw)
	for m := req; m != 0; {
		if p := m.Next(); *elem(sw.Owner, int32(p)) != xbar.Free {
			gp := *elem(k.portBase, x.rSw) + int32(p)
			w := elem(k.waiters, gp)
			x.wait, *w = *w, b
			k.parked.set(b)
			return
		}
	}
}

// release frees global port gp of switch s and wakes the buffers parked on
// it, which request it again from the next cycle on.
func (k *Kernel) release(s, gp int32) {
	*elem(k.owner, gp) = xbar.Free
	w := elem(k.waiters, gp)
	for b := *w; b >= 0; b = elem(k.bs, b).wait {
		k.parked.clear(b)
	}
	*w = -1
}

// bind routes the worm whose flit f is now at the front of b.
func (k *Kernel) bind(b int32, f *flit.Flit) {
	x := elem(k.bs, b)
	w := elem(k.Pool.Worms, f.Worm)
	if w.Cast == flit.Unicast {
		k.bindUnicast(x, f.Worm)
		return
	}
	k.rebind(x, f.Worm)
	if w.Cast == flit.Path && k.relaying(x, f.Worm) {
		k.bindRelay(b, f.Worm)
		return
	}
	if x.rSw < 0 {
		x.want = 0 // an ejection buffer bound only to check for a relay
		return
	}
	switch w.Cast {
	case flit.Tree, flit.SyncTree:
		e := k.treeAt(f.Worm, x.rSw, x.rIn)
		x.want, x.ent = e.want, e.en
	default:
		x.want = k.Topo.Router.Route(int(x.rSw), int(x.rIn), w)
		if w.Cast == flit.Path {
			k.bindRelayRouted(x, f.Worm)
		}
	}
}

// bindUnicast is bind for unicast worm wi: its one route from the buffer's
// own switch.
func (k *Kernel) bindUnicast(x *bufState, wi int32) {
	k.rebind(x, wi)
	if x.rSw < 0 {
		x.want = 0
		return
	}
	w := elem(k.Pool.Worms, wi)
	if k.stateful != nil {
		// A routing function with per-packet state (topology.StatefulRouter)
		// advances the worm's w.Route here, once per switch; the stateless
		// routers skip this one branch and take the call below as before.
		x.want = k.stateful.RouteHead(int(x.rSw), int(x.rIn), w, &w.Route)
		return
	}
	x.want = k.Topo.Router.Route(int(x.rSw), int(x.rIn), w)
}

// rebind binds worm wi at buffer x afresh: no port held or enabled, and the
// buffer's own routing unit (a relay may have moved it).
func (k *Kernel) rebind(x *bufState, wi int32) {
	x.worm, x.mask, x.ent, x.also = wi, 0, -1, -1
	x.rSw, x.rIn = x.home, x.homeIn
	if x.rSw < 0 {
		x.to = x.fixed
	}
}
