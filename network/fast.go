package network

import (
	"math/bits"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/link"
)

// The fast path is Step specialised to the common case: wormhole switching,
// no tracer, and no multicast worm alive, so every bound worm holds exactly
// one port and every move has one destination (bufState.to). It keeps the
// general path's state and the order of the side effects that depend on
// order (ejections: statistics and hooks), so a run gives the same result
// whichever path each cycle takes (TestFastPathMatchesGeneral);
// the general path takes over for any cycle in which a multicast worm lives.
// Its phases run on each lane (lanes.go), so the fast path is also the one
// that uses a second core.

// fastOK reports whether this cycle may take the fast path.
func (k *Kernel) fastOK() bool { return k.fast && k.castLive == 0 && k.tr == nil }

// stepFast is Step for a fastOK cycle.
func (k *Kernel) stepFast() {
	k.fastNow = true
	k.denseNow = k.nb < k.largeAt
	k.nextEpoch()
	if k.lanes == nil {
		k.placeLater()
	}
	if k.CheckDeadlock {
		// The wait-for graph is read between flow and leave.
		k.phase(phaseRoute)
		k.phase(phaseFlow)
		k.countMoves()
		if k.Deadlock == nil {
			k.Deadlock = k.detect()
		}
		k.phase(phaseLeave)
	} else {
		k.phase(phaseCycle)
		k.countMoves()
		// With no move, leave changed nothing: the graph is as flow saw it.
		if k.Deadlock == nil && k.nmoved == 0 && k.anyActive() {
			k.Deadlock = k.detect()
		}
	}
	k.later[0], k.later[1] = k.later[0][:0], k.later[1][:0] // (placed by the lanes)
	if k.lanes == nil {
		k.settle(&k.whole) // (phase settles the two lanes)
	}
	k.fastNow, k.denseNow = false, false
	k.now++
}

// countMoves sets nmoved. With two lanes the moves stay in the lanes'
// lists (k.moves is left empty): this thread need not read the other
// lane's.
func (k *Kernel) countMoves() {
	if k.lanes == nil {
		k.moves = k.whole.moves
		k.nmoved = len(k.moves)
	} else {
		k.moves = k.moves[:0]
		k.nmoved = len(k.lanes[0].moves) + len(k.lanes[1].moves)
	}
}

// settle applies what a lane left for after the parallel phases: its
// ejections, in buffer order, and its counters.
func (k *Kernel) settle(l *lane) {
	for i := range l.ej {
		a := &l.ej[i]
		if k.Hooks.Ejected != nil {
			k.eject(a.d-k.nb, &a.f, a.at) // the hook sees flits in order
		} else {
			k.deliverSunk(a) // a tail the lane has sunk
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
//
// Most buffers are decided in one pass without a jump on the answer: the
// front is ready or not, and the destination is a terminal or has room, so
// the answer is known and is written, not branched on (these are coin tosses
// to the CPU, and mispredicted jumps cost more than the rest of the work).
// Only a buffer whose destination is full has to wait for that
// destination's answer; such buffers are decided after the pass. The list
// of moves holds the moves into buffers, those decided in the pass in
// buffer order and then the waiting ones, and after them (from nbuf) the
// moves into terminals in buffer order. No effect of a move depends on the
// order of the moves but ejections' (statistics, hooks), which keep it.
//
// With two lanes in one phase (phaseCycle), the first pass reads nothing
// that the other lane's routing writes (only the room in its buffers), so
// it runs before the other lane has routed; the rest waits for that
// (routed).
func (k *Kernel) flowFast(l *lane, routed bool) {
	if k.nb >= k.largeAt {
		if !routed {
			k.await(l, stepRouted)
		}
		k.flowLarge(l)
		return
	}
	moves, ej, wait := l.moves[:cap(l.moves)], l.ejm[:cap(l.ejm)], l.wait[:cap(l.wait)]
	var n, ne, nw int
	if k.instant {
		n, ne, nw = k.scanInstant(l, l.flowOut, cap(l.moves))
	} else {
		n, ne, nw = k.scan(l, l.flowOut, cap(l.moves))
	}
	e, memo, bs := k.epoch<<2, l.memo, k.bs
	// A waiting buffer whose destination has been decided (or cannot
	// move: it holds a worm still to be routed) is decided from that
	// answer without a jump; the rest, in chains of waiting buffers, by
	// canMoveFast.
	if !routed {
		k.await(l, stepRouted)
	}
	reuse := b2u(k.reuse)
	for _, b := range wait[:nw] {
		d := elem(bs, b).to
		md, mb := elem(memo, d), elem(memo, b)
		held := b2u(k.alloc.has(d))
		var ok uint64
		if b2u(decided(*md, e))|held != 0 {
			ok = reuse &^ held & b2u(*md&3 == memoYes)
			*mb = e | memoNo - uint32(ok)
		} else {
			ok = b2u(k.canMoveFast(l, b))
		}
		*elem(moves, n) = b
		n += int(ok)
	}
	// The ejections go last, so that leave hands each flit to a buffer or
	// a terminal without asking which.
	l.nbuf = n
	l.moves = append(moves[:n], ej[:ne]...)
}

// scan is flowFast's first pass over lane l's buffers outside the
// allocation set: it lists those that move into a buffer, those that move
// into a terminal, and those whose destination is full, and records the
// decided ones in the memo. The three lists are out's thirds (l.flowOut:
// moves, ejm, wait, each of c entries), written through one pointer, which
// leaves the compiler registers for the loop's other values.
func (k *Kernel) scan(l *lane, out []int32, c int) (n, ne, nw int) {
	e, now, nb, memo, bs, all := k.epoch<<2, k.now, k.nb, l.memo, k.bs, k.sinkRecords()
	ne, nw = c, 2*c
	for wi := int(l.lo >> 6); wi <= int((l.hi-1)>>6); wi++ {
		word := k.active.word(wi) &^ k.alloc.word(wi)
		base := int32(wi << 6)
		for word != 0 {
			b := base | int32(bits.TrailingZeros64(word))
			word &= word - 1
			x := elem(bs, b)
			ready := b2u(x.Front().Ready(now))
			d := x.to
			isBuf := b2u(d < nb)
			full := ready & b2u(elem(all, d).Free() == 0) // (a terminal has room)
			// A waiting buffer's memo is e|0: this cycle's stamp with no
			// answer (see decided).
			*elem(memo, b) = e | memoNo - uint32(ready) - uint32(full)*memoYes
			goes := ready &^ full
			*elem(out, n), *elem(out, ne), *elem(out, nw) = b, b, b
			n += int(goes & isBuf)
			ne += int(goes &^ isBuf)
			nw += int(full)
		}
	}
	return n, ne - c, nw - 2*c
}

// scanInstant is scan when every front flit is ready (Kernel.instant):
// one value fewer to keep per buffer, which keeps the loop's counters in
// registers.
func (k *Kernel) scanInstant(l *lane, out []int32, c int) (n, ne, nw int) {
	yes, nb, memo, bs, all := k.epoch<<2|memoYes, k.nb, l.memo, k.bs, k.sinkRecords()
	ne, nw = c, 2*c
	for wi := int(l.lo >> 6); wi <= int((l.hi-1)>>6); wi++ {
		word := k.active.word(wi) &^ k.alloc.word(wi)
		base := int32(wi << 6)
		for word != 0 {
			b := base | int32(bits.TrailingZeros64(word))
			word &= word - 1
			d := elem(bs, b).to
			isBuf := b2u(d < nb)
			full := b2u(elem(all, d).Free() == 0)       // (a terminal has room)
			*elem(memo, b) = yes - uint32(full)*memoYes // (waiting: e|0, as in scan)
			*elem(out, n), *elem(out, ne), *elem(out, nw) = b, b, b
			n += int(isBuf &^ full)
			ne += int(isBuf ^ 1)
			nw += int(full)
		}
	}
	return n, ne - c, nw - 2*c
}

// largeBuffers (Kernel.largeAt) is the size from which the fast path favours
// locality over fewer mispredicted jumps, as the state of a larger network
// leaves the caches: flow decides each buffer when its scan reaches it,
// following chains of full buffers at once (flowLarge), rather than in two
// passes, and an arrival writes the bitsets only where they change.
// (Measured: the two passes and the unconditional writes ran a 4096-terminal
// MIN about 5-10 % slower, meshes up to 16×16 25-45 % faster.)
const largeBuffers = 8192

// flowLarge is flowFast for large networks: each buffer is decided when the
// scan reaches it, by canMoveFast.
func (k *Kernel) flowLarge(l *lane) {
	moves, n := l.moves[:cap(l.moves)], 0
	ej, ne := l.ejm[:cap(l.ejm)], 0
	nb := k.nb
	for wi := int(l.lo >> 6); wi <= int((l.hi-1)>>6); wi++ {
		word := k.active.word(wi) &^ k.alloc.word(wi)
		for word != 0 {
			b := int32(wi<<6 | bits.TrailingZeros64(word))
			word &= word - 1
			goes, isBuf := b2u(k.canMoveFast(l, b)), b2u(k.bs[b].to < nb)
			moves[n], ej[ne] = b, b
			n += int(goes & isBuf)
			ne += int(goes &^ isBuf)
		}
	}
	l.nbuf = n
	l.moves = append(moves[:n], ej[:ne]...)
}

// sinkRecords is k.bs with, after the buffers, a record per terminal d−nb
// that has room and never fills (Init'd with one slot, never pushed): flow
// reads the room of a move's destination d without asking whether d is a
// buffer or a terminal, a coin toss to the CPU that a jump, or the mask
// that replaced it, paid for. (The records are only read, by both lanes.)
func (k *Kernel) sinkRecords() []bufState { return k.bs[:cap(k.bs)] }

// decided reports whether memo m holds an answer of the cycle whose stamp
// is e (epoch<<2), or is being computed (visiting): not an earlier cycle's,
// nor e|0, which the first pass of flowFast writes for a buffer it leaves
// undecided (one store, where keeping the old value took a load and three
// more operations).
func decided(m, e uint32) bool { return m-e-1 < 3 }

// canMoveFast decides and memoises whether b's front flit moves this cycle
// (b is active and outside the allocation set). As in canMove, a buffer met
// again while its own answer is pending is part of a loop of full buffers,
// and cannot move. Each lane keeps its memo in a dense array of its own, so
// with two lanes flow writes nothing the other lane reads; where chains of
// full buffers cross the cut both lanes compute the same answers, as
// nothing they read changes during the flow phase.
func (k *Kernel) canMoveFast(l *lane, b int32) bool {
	x := elem(k.bs, b)
	m := elem(l.memo, b)
	e := k.epoch << 2
	if decided(*m, e) {
		return *m&3 == memoYes
	}
	*m = e | memoVisiting
	ok := x.Front().Ready(k.now)
	// Whether the front waits on a full buffer d is one jump: the terms
	// are combined as numbers.
	d := x.to
	if b2u(ok)&b2u(elem(k.sinkRecords(), d).Free() == 0) != 0 {
		// d is full, so it is active: it makes room only by moving.
		ok = k.reuse && !k.alloc.has(d) && k.canMoveFast(l, d)
	}
	*m = e | memoNo - uint32(b2u(ok)) // memoYes is memoNo − 1
	return ok
}

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
	now := k.now
	moves, tails, srcs := l.moves, l.tails[:cap(l.tails)], l.srcs[:cap(l.srcs)]
	popped := l.popped[:len(moves)]
	nt, hops := k.pop(moves, popped, tails)
	ns := k.markChannels(l, moves, srcs)
	bs := k.bs
	l.popped = popped
	l.hops += int64(hops)
	nb, nbuf := k.nb, l.nbuf
	if k.lanes == nil {
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
	} else {
		// Flits for this lane's buffers go straight in (the other lane
		// touches none of them in this phase); the rest wait in lists.
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
			// The lane sinks the flit at its terminal; settle delivers
			// tails, in buffer order (and, for the Ejected hook, every
			// flit).
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
	rels, me := l.rels[:0], k.laneOf(l.lo)
	for _, i := range tails[:nt] {
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
	if k.lanes != nil {
		l.reach(stepHanded)
	}
	for _, i := range srcs[:ns] {
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
	if k.lanes != nil {
		k.take(l, &k.lanes[1-k.laneOf(l.lo)])
	}
}

// pop is leave's first pass: it takes the front flit of each buffer in
// moves into popped, lists the positions of the tails in tails and counts
// the flits crossing a switch. markChannels is the second: it takes the
// emptied buffers out of the active set, marks the channels the flits
// cross and lists the flits leaving source registers.
// (Two functions, each with few enough values that the compiler keeps
// most of them in registers.)
func (k *Kernel) pop(moves []int32, popped []flit.Flit, tails []int32) (nt, hops int) {
	bs := k.bs
	for i, b := range moves {
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

// markChannels is leave's second pass (see pop).
func (k *Kernel) markChannels(l *lane, moves []int32, srcs []int32) (ns int) {
	now, nl, chans, bs, active, moved := k.now, int32(len(k.Links)), k.chans, k.bs, k.active, k.moved
	for i, b := range moves {
		x := elem(bs, b)
		*elem(moved, b) = now
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

// sunk is a flit a lane has sunk at terminal d−nb, due at cycle at, for
// settle to deliver. For a tail (a unicast's: the fast path's, so the
// packet is done) the lane also copies what the statistics read of its
// worm, so that settle need not read the worm's record, whose cache line
// the lane's core holds.
type sunk struct {
	f        flit.Flit
	at       int64
	d        int32
	hops     int32
	gen, inj int64
	measured bool
}

func (k *Kernel) sinkTail(f *flit.Flit, at int64, d int32) sunk {
	w := elem(k.Pool.Worms, f.Worm)
	return sunk{f: *f, at: at, d: d, hops: w.Hops, gen: w.GenCycle, inj: w.InjCycle, measured: w.Measured}
}

// deliverSunk completes the delivery of a tail a lane has sunk (sinkTail),
// as deliver does. Without observers that need the worm's record, it reads
// only a's copy.
func (k *Kernel) deliverSunk(a *sunk) {
	wi := a.f.Worm
	if c := k.stats; k.Hooks.Delivered != nil || c != nil && (c.keep || c.onDelivered != nil) {
		k.deliver(a.d-k.nb, &a.f, a.at)
		return
	}
	if c := k.stats; c != nil {
		c.delPk++
		if a.measured {
			c.done(a.gen, a.inj, int64(a.hops), a.at)
		}
	}
	k.Pool.Put(wi) // (its record, released, needs no count of destinations reached)
}

// arriveOne puts flit f, due at cycle at, into buffer d or, for d ≥ nb,
// ejects it at terminal d−nb. (The general path delivers through it too,
// with the whole-network lane.)
func (k *Kernel) arriveOne(l *lane, d int32, f *flit.Flit, at int64) {
	if d >= k.nb {
		k.eject(d-k.nb, f, at)
		return
	}
	k.push(l, d, f, at)
}

// arrive is leave's pass over the moves into buffers for the whole-network
// lane, in a dense fast-path cycle (Kernel.denseNow) without routing delay:
// push, written into the loop. (A call per flit made the compiler reload
// the loop's values from memory after each one: 2 % of a cycle's
// instructions. With two lanes, where the loop also lists the flits for
// the other lane, the inlined version spilled more than it saved.)
func (k *Kernel) arrive(l *lane, moves []int32, popped []flit.Flit) {
	now, bs, moved, active, alloc := k.now, k.bs, k.moved, k.active, k.alloc
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
		*elem(moved, d) = now
		active.set(d)
		alloc.or(d, b2u(wasEmpty)&b2u(x.rSw >= 0)&b2u(f.Worm != x.worm))
		maxOcc = max(maxOcc, int32(x.Len()))
	}
	l.maxOcc = maxOcc
}

// push puts flit f, due at cycle due, into buffer d.
func (k *Kernel) push(l *lane, d int32, f *flit.Flit, due int64) {
	x := elem(k.bs, d)
	if x.Free() == 0 {
		l.viol.Overflow++
		return
	}
	wasEmpty := x.Empty()
	if k.delay != 0 && f.Seq == 0 && x.rSw >= 0 {
		due += k.delay // a head waits for the routing unit
	}
	x.PushReady(f, due)
	*elem(k.moved, d) = k.now
	if k.denseNow {
		// No multicast worm lives, so a flit reaching the front of an
		// empty routing buffer needs routing exactly when it opens a new
		// worm (noteFront). Both bits are set without a jump: whether
		// the buffer was empty is a coin toss to the CPU. (In a large
		// network the jump is cheaper than writing a bitset's line on
		// every arrival.)
		k.active.set(d)
		k.alloc.or(d, b2u(wasEmpty)&b2u(x.rSw >= 0)&b2u(f.Worm != x.worm))
	} else if wasEmpty {
		k.active.set(d) // (a non-empty buffer's bit is set)
		if f.Worm != x.worm || x.ent >= 0 || x.rSw < 0 {
			k.noteFront(d)
		}
	}
	if n := int32(x.Len()); n > l.maxOcc {
		l.maxOcc = n // (rare once the run is under way: a jump)
	}
}
