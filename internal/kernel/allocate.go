package kernel

import (
	"math/bits"

	xbar "github.com/flitsim/flitsim/switch"
)

// offer records b's request for its one port, global port gp (a fast-path
// worm wants one), keeping for each port the first-ranked requester, which
// is the one Arbitrate would grant it to (xbar.Policy.ByInput).
//
// Whether a port already has an offer is a coin toss to the CPU, so the
// port is listed, and the offer kept, without a jump (noOffer is above
// every key).
func (k *Kernel) offer(l *lane, b int32, x *bufState, gp int32) {
	key := uint64(elem(k.sw, x.rSw).Rank(x.rIn))<<32 | uint64(b)
	o := elem(k.offers, gp)
	*elem(l.offered, l.noff) = gp // (room for every port: route)
	l.noff += int(b2u(*o == noOffer))
	*o = min(*o, key)
}

const noOffer = ^uint64(0)

// award grants each port offered this cycle to its first-ranked requester
// and moves each switch's round-robin pointer past its last-ranked winner:
// Arbitrate's outcome for requests of one port each.
func (k *Kernel) award(l *lane) {
	won := l.won[:cap(l.won)] // (room for every switch: route)
	nw := 0
	for _, gp := range l.offered[:l.noff] {
		o := elem(k.offers, gp)
		b, rank := int32(*o), int64(*o>>32)
		*o = noOffer
		x := elem(k.bs, b)
		s := x.rSw
		p := int(gp - *elem(k.portBase, s))
		*elem(k.owner, gp) = x.worm // (xbar.Switch.Award, by global port)
		// A switch is listed at its first winner, without a jump.
		w := elem(k.lastWin, s)
		won[nw] = s
		nw += int(b2u(*w < 0))
		*w = max(*w, rank<<32|int64(x.rIn))
		// grantTo for a fast-path worm (no tracer, no synchronous
		// multicast): its one port granted, it needs no other.
		x.mask |= xbar.Port(p)
		k.setPort(x, gp)
		k.alloc.clear(b)
	}
	l.noff = 0
	for _, s := range won[:nw] {
		w := elem(k.lastWin, s)
		elem(k.sw, s).Awarded(int32(*w))
		*w = -1
	}
}

// allocate runs the arbiter of every switch that has requests.
func (k *Kernel) allocate(l *lane) {
	if l.noff > 0 {
		k.award(l)
	}
	for _, s := range l.posted {
		sw := elem(k.sw, s)
		if r, got := sw.Single(); r != nil {
			k.grant(r, got)
		} else {
			sw.Arbitrate(k.grant)
		}
	}
	l.posted = l.posted[:0]
}

func (k *Kernel) grant(r *xbar.Request, got xbar.PortSet) { k.grantTo(r.Buf, r.Worm, got) }

// grantTo records that the worm at the front of buffer b got ports got.
func (k *Kernel) grantTo(b, worm int32, got xbar.PortSet) {
	x := elem(k.bs, b)
	x.mask |= got
	k.setPort(x, *elem(k.portBase, x.rSw)+int32(bits.TrailingZeros64(uint64(got))))
	if k.tr != nil {
		k.tr.Granted(k.now, b, worm, x.rSw, got)
	}
	if k.syncLive > 0 {
		k.granted = append(k.granted, grantRec{b: b, got: got, sw: x.rSw, worm: worm})
	}
	if k.need(x, x.Front())&^x.mask == 0 {
		k.alloc.clear(b)
	}
}

// setPort records gp as the port moves out of x take: where they go and,
// for chanRouted, the link they cross.
func (k *Kernel) setPort(x *bufState, gp int32) {
	x.gp = gp
	routedCh := -int32(b2u(x.ch == chanRouted)) // (a mask: no jump)
	x.cur = x.ch&^routedCh | gp&routedCh
	x.to = *elem(k.pDest, gp)
}
