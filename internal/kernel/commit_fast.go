package kernel

import (
	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/link"
)

// leave pops the flits lane l moves this cycle and does everything their
// departure changes at the buffers, switches and sources of the lane. Each
// flit then goes straight into its destination (every pop is done by then)
// when that is in the lane; with two lanes, flits for the other lane and
// the ports of its switches that tails release are handed to it at the end
// of the phase (take), and flits for terminals wait for settle.
//
// Tails and sources are handled in passes of their own after the common
// one: it keeps the common loop small and its branches predictable, and
// changes nothing, as those updates touch only the departing buffer, its
// switch and its source queue. (Refills thus follow every ejection of the
// cycle; the general path interleaves them in buffer order, which differs
// only if a Hooks callback enqueued packets, and hooks must not.)
func (k *Kernel) leave(l *lane) {
	l.roomLeave(len(l.moves))
	moves, tails, srcs := l.moves, l.tails[:cap(l.tails)], l.srcs[:cap(l.srcs)]
	popped := l.popped[:len(moves)]
	// pop and markChannels take the moves a block at a time, so that the
	// second finds the block's buffer records still in the first-level
	// cache: a large network moves more buffers in a cycle than it holds.
	var nt, ns, hops int
	for lo := 0; lo < len(moves); lo += leaveBlock {
		hi := min(lo+leaveBlock, len(moves))
		nt, hops = k.pop(moves, popped, tails, lo, hi, nt, hops)
		ns = k.markChannels(l, moves, srcs, lo, hi, ns)
	}
	l.popped = popped
	l.hops += int64(hops)
	if k.lanes == nil {
		k.enter(l, moves, popped)
	} else {
		k.enterOwn(l, moves, popped)
	}
	k.leaveTails(l, moves, tails[:nt])
	if k.lanes != nil {
		k.reach(l, stepHanded)
	}
	k.leaveSources(moves, popped, srcs[:ns])
	if k.lanes != nil {
		k.take(l, &k.lanes[1-k.laneOf(l.lo)])
	}
}

// enter puts the flits of the whole-network lane's moves into their
// destinations: buffers (the first l.nbuf moves), then terminals.
func (k *Kernel) enter(l *lane, moves []int32, popped []flit.Flit) {
	now, bs, nb, nbuf := k.now, k.bs, k.nb, l.nbuf
	if k.denseNow && k.delay == 0 {
		k.arrive(l, moves[:nbuf], popped)
	} else {
		for i, b := range moves[:nbuf] {
			x := elem(bs, b)
			k.push(l, x.to, elem(popped, i), now+int64(x.lat))
		}
	}
	for i := nbuf; i < len(moves); i++ {
		x := elem(bs, moves[i])
		k.eject(x.to-nb, &popped[i], now+int64(x.lat))
	}
}

// enterOwn is enter for one of two lanes: flits for this lane's buffers go
// straight in (the other lane touches none of them in this phase); flits
// for the other lane's wait in l.cross (take), and the lane sinks the
// flits for terminals, whose tails settle delivers in buffer order (and,
// for the Ejected hook, every flit).
func (k *Kernel) enterOwn(l *lane, moves []int32, popped []flit.Flit) {
	now, bs, nb, nbuf := k.now, k.bs, k.nb, l.nbuf
	cross, ej := l.cross[:0], l.ej
	lo, span := l.lo, uint32(l.hi-l.lo)
	for i, b := range moves[:nbuf] {
		x := elem(bs, b)
		if d, due := x.to, now+int64(x.lat); uint32(d-lo) < span {
			k.push(l, d, elem(popped, i), due)
		} else {
			cross = append(cross, arrival{f: *elem(popped, i), at: due, d: d})
		}
	}
	for i := nbuf; i < len(moves); i++ {
		x := elem(bs, moves[i])
		d, due := x.to, now+int64(x.lat)
		switch f := &popped[i]; {
		case k.Hooks.Ejected != nil:
			ej = append(ej, sunk{f: *f, at: due, d: d})
		case k.sink(l, d-nb, f, due):
			ej = append(ej, k.sinkTail(f, due, d))
		}
	}
	l.cross, l.ej = cross, ej
}

// leaveTails releases the ports the tails of this cycle's moves held (at
// positions tails in moves) and unbinds their buffers; ports of the other
// lane's switches are listed in l.rels for it.
func (k *Kernel) leaveTails(l *lane, moves, tails []int32) {
	bs := k.bs
	rels, me := l.rels[:0], k.laneOf(l.lo)
	for _, i := range tails {
		b := *elem(moves, i)
		x := elem(bs, b)
		if x.rSw >= 0 {
			if !k.outBuf {
				k.release(x.rSw, x.gp)
			}
			k.alloc.or(b, b2u(!x.Empty())) // a new worm at the front
		}
		if gp := x.rel; gp >= 0 {
			if s := *elem(k.portSw, gp); k.lanes != nil && int(*elem(k.swLane, s)) != me {
				rels = append(rels, gp) // the other lane's switch
			} else {
				k.release(s, gp)
			}
		}
		x.worm = -1 // the next worm binds afresh
	}
	l.rels = rels
}

// leaveSources updates the sources whose registers this cycle's moves left
// (at positions srcs in moves): the injection channel's owner, the head's
// injection cycle, and the register's next flit.
func (k *Kernel) leaveSources(moves []int32, popped []flit.Flit, srcs []int32) {
	now := k.now
	for _, i := range srcs {
		f := elem(popped, i)
		t := *elem(k.bSw, *elem(moves, i))
		// A head enters the network now and its worm holds the source
		// until its tail leaves (one flit: both at once). The kind is
		// used as numbers, not jumped on.
		head, tail := int32(f.Kind&1), int32(f.Kind>>1)
		o := elem(k.injOwner, t)
		*o += head &^ tail * (f.Worm - *o)
		*o |= -tail
		if head != 0 {
			// (A jump, not a computed write: the worm's record is read
			// by the lanes that route its head, and written only here.)
			elem(k.Pool.Worms, f.Worm).InjCycle = now
		}
		k.refill(t, now+1)
	}
}

// pop is leave's first pass, over moves [lo, hi) (counting on from nt
// tails and hops): it takes the front flit of each buffer in moves into
// popped, lists the positions of the tails in tails and counts
// the flits crossing a switch. markChannels is the second: it takes the
// emptied buffers out of the active set, marks the channels the flits
// cross and lists the flits leaving source registers.
// (Two functions, each with few enough values that the compiler keeps
// most of them in registers.)
func (k *Kernel) pop(moves []int32, popped []flit.Flit, tails []int32, lo, hi, nt, hops int) (int, int) {
	bs := k.bs
	for i := lo; i < hi; i++ {
		b := *elem(moves, i)
		x := elem(bs, b)
		f := elem(popped, i)
		*f = *x.Front()
		x.Drop()
		// A flit leaving a routing buffer crosses switch x.rSw; a head
		// counts the hop (Kind bit 0: head).
		routed := int(uint32(x.rSw)>>31) ^ 1
		hops += routed
		f.Hops += uint16(int(f.Kind) & routed)
		*elem(tails, nt) = int32(i)
		nt += int(f.Kind >> 1) // Kind bit 1: tail
	}
	return nt, hops
}

// leaveBlock is how many moves pop and markChannels take at a time: their
// buffers' first lines (and the slots popped) within the first-level
// cache, with room to spare.
const leaveBlock = 128

// markChannels is leave's second pass (see pop), over moves [lo, hi).
func (k *Kernel) markChannels(l *lane, moves []int32, srcs []int32, lo, hi, ns int) int {
	now, nl, chans, bs, active := k.now, int32(len(k.Links)), k.chans, k.bs, k.active
	for i := lo; i < hi; i++ {
		b := *elem(moves, i)
		x := elem(bs, b)
		x.moved = now
		// An emptied buffer leaves the active set (an arrival later this
		// cycle sets it again); a buffer that moved is in it.
		active.clearSetIf(b, b2u(x.Empty()))
		if c := x.cur; c >= 0 {
			l.carry(elem(chans, c), now)
			*elem(srcs, ns) = int32(i)
			ns += int(uint32(nl-1-c) >> 31) // an injection channel: c ≥ nl
		}
	}
	return ns
}

// take applies, in lane l, what lane o's leave phase left for it: flits for
// l's buffers and releases of ports of l's switches. It waits until o has
// listed them; o does the same for l at the same time, so the exchange
// needs no serial step (and the lanes write no line of each other's).
func (k *Kernel) take(l, o *lane) {
	k.await(l, stepHanded)
	for i := range o.cross {
		a := elem(o.cross, i)
		k.push(l, a.d, &a.f, a.at)
	}
	for _, gp := range o.rels {
		k.release(*elem(k.portSw, gp), gp)
	}
}

func (l *lane) carry(c *link.Link, now int64) {
	if !c.Carry(now) {
		l.viol.ChannelOverUse++
	}
}

// arrive is leave's pass over the moves into buffers for the whole-network
// lane, in a dense fast-path cycle (Kernel.denseNow) without routing delay:
// push, written into the loop. (A call per flit made the compiler reload
// the loop's values from memory after each one: 2 % of a cycle's
// instructions. With two lanes, where the loop also lists the flits for
// the other lane, the inlined version spilled more than it saved.)
func (k *Kernel) arrive(l *lane, moves []int32, popped []flit.Flit) {
	now, bs, active, alloc := k.now, k.bs, k.active, k.alloc
	maxOcc := l.maxOcc
	for i, b := range moves {
		src := elem(bs, b)
		d := src.to
		x := elem(bs, d)
		f := elem(popped, i)
		if x.Free() == 0 {
			l.viol.Overflow++
			continue
		}
		// As push's dense case.
		wasEmpty := x.Empty()
		x.PushReady(f, now+int64(src.lat))
		x.moved = now
		active.set(d)
		alloc.or(d, b2u(wasEmpty)&b2u(x.rSw >= 0)&b2u(f.Worm != x.worm))
		maxOcc = max(maxOcc, int32(x.Len()))
	}
	l.maxOcc = maxOcc
}
