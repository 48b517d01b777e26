package network

import (
	"math/bits"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/link"
)

// The fast path is Step specialised to the common case: wormhole switching,
// no tracer, and no multicast worm alive, so every bound worm holds exactly
// one port and every move has one destination (bufState.to). It keeps the
// general path's state and its order of side effects, so a run gives the
// same result whichever path each cycle takes (TestFastPathMatchesGeneral);
// the general path takes over for any cycle in which a multicast worm lives.
// Its phases run on each lane (lanes.go), so the fast path is also the one
// that uses a second core.

// fastOK reports whether this cycle may take the fast path.
func (k *Kernel) fastOK() bool { return k.fast && k.castLive == 0 && k.tr == nil }

// stepFast is Step for a fastOK cycle.
func (k *Kernel) stepFast() {
	k.phase(phaseRoute)
	k.nextEpoch()
	k.laneMemo = k.lanes != nil
	k.phase(phaseFlow)
	if k.lanes == nil {
		k.moves = k.whole.moves
	} else {
		k.moves = append(append(k.moves[:0], k.lanes[0].moves...), k.lanes[1].moves...)
	}
	if k.Deadlock == nil && (k.CheckDeadlock || len(k.moves) == 0 && k.anyActive()) {
		k.Deadlock = k.detect()
	}
	k.nmoved = len(k.moves)
	k.laneMemo = false
	k.phase(phaseLeave)
	k.phase(phaseArrive)
	k.settle(&k.whole)
	for i := range k.lanes {
		k.settle(&k.lanes[i])
	}
	k.now++
}

// settle applies what a lane left for after the parallel phases: its
// ejections, in buffer order, and its counters.
func (k *Kernel) settle(l *lane) {
	for i := range l.ej {
		a := &l.ej[i]
		k.eject(a.d-k.nb, a.f, a.at)
	}
	l.ej = l.ej[:0]
	k.FlitHops += l.hops
	l.hops = 0
	k.maxOcc = max(k.maxOcc, l.maxOcc)
	if l.viol != (Violations{}) {
		k.Violations.ChannelOverUse += l.viol.ChannelOverUse
		k.Violations.Overflow += l.viol.Overflow
		l.viol = Violations{}
	}
}

// flowFast is flow for single-destination worms, over lane l's buffers. A
// buffer outside the allocation set holds a bound, granted front (or moves
// to a fixed destination), so it moves exactly when its front is ready and
// its one destination has room.
func (k *Kernel) flowFast(l *lane) {
	l.moves = l.moves[:0]
	for wi := int(l.lo >> 6); wi <= int((l.hi-1)>>6); wi++ {
		word := k.laneWord(l, k.active, wi) &^ k.alloc[wi]
		for word != 0 {
			b := int32(wi<<6 | bits.TrailingZeros64(word))
			word &= word - 1
			if k.canMoveFast(l, b) {
				l.moves = append(l.moves, b)
			}
		}
	}
}

// canMoveFast decides and memoises whether b's front flit moves this cycle
// (b is active and outside the allocation set). As in canMove, a buffer met
// again while its own answer is pending is part of a loop of full buffers,
// and cannot move. With two lanes each keeps its memo in an array of its
// own, so flow writes nothing the other lane reads; where chains of full
// buffers cross the cut both lanes compute the same answers, as nothing
// they read changes during the flow phase.
func (k *Kernel) canMoveFast(l *lane, b int32) bool {
	x := &k.bs[b]
	m := &x.memo
	if l.memo != nil {
		m = &l.memo[b]
	}
	e := k.epoch << 2
	if *m>>2 == k.epoch {
		return *m&3 == memoYes
	}
	*m = e | memoVisiting
	ok := x.Front().Ready(k.now)
	if d := x.to; ok && d < k.nb && k.bs[d].Free() == 0 {
		// d is full, so it is active: it makes room only by moving.
		ok = k.reuse && !hasBit(k.alloc, d) && k.canMoveFast(l, d)
	}
	if ok {
		*m = e | memoYes
	} else {
		*m = e | memoNo
	}
	return ok
}

// leave pops the flits lane l moves this cycle and does everything their
// departure changes at the buffers, switches and sources of the lane; the
// flits go to the lanes of their destinations as arrivals.
func (k *Kernel) leave(l *lane) {
	now := k.now
	l.popped = l.popped[:0]
	for _, b := range l.moves {
		l.popped = append(l.popped, k.bs[b].Pop())
		k.moved[b] = now
	}
	l.in[0], l.in[1] = l.in[0][:0], l.in[1][:0]
	nl := int32(len(k.Links))
	for i, b := range l.moves {
		f := l.popped[i]
		x := &k.bs[b]
		switch c := x.ch; {
		case c == chanRouted:
			l.carry(&k.Links[x.gp], now)
		case c >= nl:
			l.carry(&k.injLinks[c-nl], now)
		case c >= 0:
			l.carry(&k.Links[c], now)
		}
		tail := f.Kind >= flit.Tail
		head := f.Kind == flit.Head || f.Kind == flit.HeadTail
		source := x.ch >= nl // sources are the buffers behind injection links
		if x.rSw >= 0 {
			l.hops++
			if head {
				f.Hops++
			}
		}
		if head && source {
			k.Pool.Worms[f.Worm].InjCycle = now
		}
		a := arrival{f: f, at: now + int64(x.lat), d: x.to}
		switch {
		case a.d >= k.nb:
			l.ej = append(l.ej, a)
		case a.d >= k.cutAt:
			l.in[1] = append(l.in[1], a)
		default:
			l.in[0] = append(l.in[0], a)
		}
		if tail {
			if x.rSw >= 0 && !k.outBuf {
				k.release(x.rSw, x.gp)
			}
			if gp := x.rel; gp >= 0 {
				k.release(k.portSw[gp], gp)
			}
			x.worm = -1 // the next worm binds afresh
		}
		if x.Empty() {
			k.clearBit(k.active, b)
		} else if tail && x.rSw >= 0 {
			k.setBit(k.alloc, b) // a new worm at the front
		}
		if source {
			t := k.bSw[b]
			switch {
			case tail:
				k.injOwner[t] = -1
			case head:
				k.injOwner[t] = f.Worm
			}
			k.refill(t, now+1)
		}
	}
}

func (l *lane) carry(c *link.Link, now int64) {
	if !c.Carry(now) {
		l.viol.ChannelOverUse++
	}
}

// arrive pushes the flits every lane handed to lane l this cycle.
func (k *Kernel) arrive(l *lane) {
	li := 0
	if l.lo > 0 {
		li = 1
	}
	if k.lanes == nil {
		k.arriveFrom(l, l.in[0])
		return
	}
	for i := range k.lanes {
		k.arriveFrom(l, k.lanes[i].in[li])
	}
}

func (k *Kernel) arriveFrom(l *lane, in []arrival) {
	for i := range in {
		a := &in[i]
		x := &k.bs[a.d]
		if x.Free() == 0 {
			l.viol.Overflow++
			continue
		}
		wasEmpty := x.Empty()
		f := a.f
		at := a.at
		if f.Seq == 0 && x.rSw >= 0 {
			at += k.delay
		}
		f.SetReady(at)
		x.Push(f)
		k.moved[a.d] = k.now
		if wasEmpty && (f.Worm != x.worm || x.ent >= 0 || x.rSw < 0) {
			k.noteFront(a.d)
		}
		l.maxOcc = max(l.maxOcc, int32(x.Len()))
		k.setBit(k.active, a.d)
	}
}
