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
	k.settle(&k.whole)
	for i := range k.lanes {
		k.settle(&k.lanes[i])
	}
	k.now++
}

// settle applies what a lane left for after the parallel phases: the flits
// it moved into the other lane's buffers and the ports of the other lane's
// switches it released (few: only channels and worms crossing the cut, so
// a serial pass here is cheaper than another parallel phase), its
// ejections, in buffer order, and its counters. A lane's arrivals commute
// with the other's (each buffer has one input channel) and so do releases.
func (k *Kernel) settle(l *lane) {
	for i := range l.cross {
		a := &l.cross[i]
		k.arriveOne(&k.whole, a.d, &a.f, a.at)
	}
	l.cross = l.cross[:0]
	for _, gp := range l.rels {
		k.release(k.portSw[gp], gp)
	}
	l.rels = l.rels[:0]
	for i := range l.ej {
		a := &l.ej[i]
		if k.Hooks.Ejected != nil {
			k.eject(a.d-k.nb, &a.f, a.at) // the hook sees flits in order
		} else {
			k.deliver(a.d-k.nb, &a.f, a.at) // a tail the lane has sunk
		}
	}
	l.ej = l.ej[:0]
	k.FlitHops += l.hops
	l.hops = 0
	k.maxOcc = max(k.maxOcc, l.maxOcc)
	if l.viol != (Violations{}) {
		k.Violations.ChannelOverUse += l.viol.ChannelOverUse
		k.Violations.Overflow += l.viol.Overflow
		k.Violations.Misdelivered += l.viol.Misdelivered
		k.Violations.OutOfOrder += l.viol.OutOfOrder
		l.viol = Violations{}
	}
	if k.stats != nil {
		k.stats.delFl += l.ejected
		k.stats.winEj += l.winEj
	}
	l.ejected, l.winEj = 0, 0
}

// flowFast is flow for single-destination worms, over lane l's buffers. A
// buffer outside the allocation set holds a bound, granted front (or moves
// to a fixed destination), so it moves exactly when its front is ready and
// its one destination has room.
func (k *Kernel) flowFast(l *lane) {
	moves := l.moves[:0]
	for wi := int(l.lo >> 6); wi <= int((l.hi-1)>>6); wi++ {
		word := k.laneWord(l, k.active, wi) &^ k.alloc.word(wi)
		for word != 0 {
			b := int32(wi<<6 | bits.TrailingZeros64(word))
			word &= word - 1
			if k.canMoveFast(l, b) {
				moves = append(moves, b)
			}
		}
	}
	l.moves = moves
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
		ok = k.reuse && !k.alloc.has(d) && k.canMoveFast(l, d)
	}
	if ok {
		*m = e | memoYes
	} else {
		*m = e | memoNo
	}
	return ok
}

// leave pops the flits lane l moves this cycle and does everything their
// departure changes at the buffers, switches and sources of the lane. Each
// flit then goes straight into its destination (every pop is done by then)
// when that is in the lane; with two lanes, flits for the other lane and
// for terminals wait for settle.
//
// Tails and sources are handled in passes of their own after the common
// one: it keeps the common loop small and its branches predictable, and
// changes nothing, as those updates touch only the departing buffer, its
// switch and its source queue. (Refills thus follow every ejection of the
// cycle; the general path interleaves them in buffer order, which differs
// only if a Hooks callback enqueued packets, and hooks must not.)
func (k *Kernel) leave(l *lane) {
	now := k.now
	moves, tails, srcs := l.moves, l.tails[:cap(l.tails)], l.srcs[:cap(l.srcs)]
	popped := l.popped[:len(moves)]
	nt, ns, hops := 0, 0, 0
	nl := int32(len(k.Links))
	moved, chans := k.moved, k.chans
	for i, b := range moves {
		x := &k.bs[b]
		f := &popped[i]
		*f = *x.Front()
		x.Drop()
		// A flit leaving a routing buffer crosses switch x.rSw; a head
		// counts the hop (Kind bit 0: head).
		routed := int(uint32(x.rSw)>>31) ^ 1
		hops += routed
		f.Hops += uint16(int(f.Kind) & routed)
		moved[b] = now
		tails[nt] = int32(i)
		nt += int(f.Kind >> 1) // Kind bit 1: tail
		c := x.ch
		if c == chanRouted {
			c = x.gp
		}
		if c >= 0 {
			l.carry(&chans[c], now)
			srcs[ns] = int32(i)
			ns += int(uint32(nl-1-c) >> 31) // an injection channel: c ≥ nl
		}
		if x.Empty() {
			k.clearBit(k.active, b) // (an arrival later this cycle sets it again)
		}
	}
	l.popped = popped
	l.hops += int64(hops)
	if k.lanes == nil {
		for i, b := range moves {
			x := &k.bs[b]
			k.arriveOne(l, x.to, &popped[i], now+int64(x.lat))
		}
	} else {
		// Flits for this lane's buffers go straight in (the other lane
		// touches none of them in this phase); the rest wait in lists.
		cross, ej := l.cross[:0], l.ej
		nb, lo, hi := k.nb, l.lo, l.hi
		for i, b := range moves {
			x := &k.bs[b]
			switch d, at := x.to, now+int64(x.lat); {
			case d >= lo && d < hi:
				k.arriveOne(l, d, &popped[i], at)
			case d >= nb:
				// The lane sinks the flit at its terminal; settle
				// delivers tails, in buffer order (and, for the Ejected
				// hook, every flit).
				if k.Hooks.Ejected != nil || k.sink(l, d-nb, &popped[i], at) {
					ej = append(ej, arrival{f: popped[i], at: at, d: d})
				}
			default:
				cross = append(cross, arrival{f: popped[i], at: at, d: d})
			}
		}
		l.cross, l.ej = cross, ej
	}
	rels, me := l.rels[:0], k.laneOf(l.lo)
	for _, i := range tails[:nt] {
		b := moves[i]
		x := &k.bs[b]
		if x.rSw >= 0 {
			if !k.outBuf {
				k.release(x.rSw, x.gp)
			}
			if !x.Empty() {
				k.setBit(k.alloc, b) // a new worm at the front
			}
		}
		if gp := x.rel; gp >= 0 {
			if s := k.portSw[gp]; k.lanes != nil && int(k.swLane[s]) != me {
				rels = append(rels, gp) // the other lane's switch
			} else {
				k.release(s, gp)
			}
		}
		x.worm = -1 // the next worm binds afresh
	}
	l.rels = rels
	for _, i := range srcs[:ns] {
		f := &popped[i]
		t := k.bSw[moves[i]]
		switch f.Kind {
		case flit.Head:
			k.injOwner[t] = f.Worm
			k.Pool.Worms[f.Worm].InjCycle = now
		case flit.HeadTail:
			k.Pool.Worms[f.Worm].InjCycle = now
			k.injOwner[t] = -1
		case flit.Tail:
			k.injOwner[t] = -1
		}
		k.refill(t, now+1)
	}
}

func (l *lane) carry(c *link.Link, now int64) {
	if !c.Carry(now) {
		l.viol.ChannelOverUse++
	}
}

// arriveOne puts flit f, due at cycle at, into buffer d or, for d ≥ nb,
// ejects it at terminal d−nb. (The general path delivers through it too,
// with the whole-network lane.)
func (k *Kernel) arriveOne(l *lane, d int32, f *flit.Flit, at int64) {
	if d >= k.nb {
		k.eject(d-k.nb, f, at)
		return
	}
	x := &k.bs[d]
	if x.Free() == 0 {
		l.viol.Overflow++
		return
	}
	wasEmpty := x.Empty()
	if k.delay != 0 && f.Seq == 0 && x.rSw >= 0 {
		at += k.delay // a head waits for the routing unit
	}
	x.PushReady(f, at)
	k.moved[d] = k.now
	if wasEmpty {
		k.setBit(k.active, d) // (a non-empty buffer's bit is set)
		if f.Worm != x.worm || x.ent >= 0 || x.rSw < 0 {
			k.noteFront(d)
		}
	}
	l.maxOcc = max(l.maxOcc, int32(x.Len()))
}
