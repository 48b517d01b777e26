package kernel

import (
	"math/bits"
)

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
	l.roomFlow(k.active.count(l.lo, l.hi)) // (each list holds at most the busy buffers)
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
// scan reaches it. A buffer whose front is not ready, or whose destination
// has room, is decided from those two reads alone, with no memo read or
// written: nearly every buffer the scan visits moves (the set is active
// minus alloc), and in a large network the memo's line was one more cache
// miss per hop. Only a ready buffer waiting on a full destination asks
// canMoveFast, which follows the chain and memoises it. An answer left
// unwritten is one no other buffer needs: canMoveFast(d) is asked only of
// a full d, and computes d's answer afresh from the same state if the scan
// decided d without the memo (nothing flow reads changes during flow; a
// loop of full buffers is all full, so canMoveFast's marks still find it).
// The memo's other reader is the deadlock check (moving), which treats an
// unwritten answer as no: it is right for the buffers that stay, and in a
// cycle the check runs after flow (CheckDeadlock) every move is written.
func (k *Kernel) flowLarge(l *lane) {
	moves, n := l.moves[:cap(l.moves)], 0
	ej, ne := l.ejm[:cap(l.ejm)], 0
	nb, now, bs, all, memo := k.nb, k.now, k.bs, k.sinkRecords(), l.memo
	yes, mark, instant := k.epoch<<2|memoYes, k.CheckDeadlock, k.instant
	for wi := int(l.lo >> 6); wi <= int((l.hi-1)>>6); wi++ {
		word := k.active.word(wi) &^ k.alloc.word(wi)
		for word != 0 {
			b := int32(wi<<6 | bits.TrailingZeros64(word))
			word &= word - 1
			x := elem(bs, b)
			d := x.to
			// (When every front is ready, the front's slot is not read:
			// its line is one more miss per move, and pop reads it.)
			goes := instant || x.Front().Ready(now)
			if goes && elem(all, d).Free() == 0 {
				goes = k.canMoveFast(l, b)
			} else if goes && mark {
				*elem(memo, b) = yes
			}
			isBuf := b2u(d < nb)
			moves[n], ej[ne] = b, b
			n += int(b2u(goes) & isBuf)
			ne += int(b2u(goes) &^ isBuf)
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
