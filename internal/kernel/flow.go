package kernel

import (
	"math/bits"

	"github.com/flitsim/flitsim/flit"
)

// flow decides which front flits move this cycle.
func (k *Kernel) flow() {
	k.nextEpoch()
	for wi := range k.active.words() {
		word := k.active.word(wi)
		// A front flit still marked for allocation after allocate needs
		// ports it does not hold, or is not ready: it cannot move, so skip
		// it (hasRoom still evaluates it if a neighbour asks).
		word &^= k.alloc.word(wi)
		for word != 0 {
			b := int32(wi<<6 | bits.TrailingZeros64(word))
			word &= word - 1
			if m := k.whole.memo[b]; m>>2 == k.epoch {
				if m&3 == memoYes {
					k.moves = append(k.moves, b)
				}
			} else if k.canMove(b) {
				k.moves = append(k.moves, b)
			}
		}
	}
}

// nextEpoch starts the flow phase: a new memo stamp, no moves yet.
func (k *Kernel) nextEpoch() {
	k.epoch++
	if k.epoch == 1<<30 { // wrapped: forget every stale stamp
		clear(k.whole.memo)
		for i := range k.pair {
			clear(k.pair[i].memo)
		}
		k.epoch = 1
	}
	k.moves = k.moves[:0]
}

// canMove reports whether the front flit of b leaves b in this cycle. The
// result is memoised per cycle; a buffer met again while its own answer is
// being computed (a cycle of full buffers) cannot move, as a combinational
// loop of ready signals never asserts.
func (k *Kernel) canMove(b int32) bool {
	m := &k.whole.memo[b]
	if *m>>2 == k.epoch {
		return *m&3 == memoYes
	}
	*m = k.epoch<<2 | memoVisiting
	if k.moveRule(b, &k.bs[b], nil) {
		*m = k.epoch<<2 | memoYes
		return true
	}
	*m = k.epoch<<2 | memoNo
	return false
}

// moving reports whether flow decided that b's front flit moves this cycle.
func (k *Kernel) moving(b int32) bool {
	m := k.whole.memo[b]
	if k.fastNow && k.lanes != nil {
		m = k.lanes[k.laneOf(b)].memo[b] // a two-lane fast cycle
	}
	return m == k.epoch<<2|memoYes
}

// wholeIn reports whether every flit of worm w is in b and ready
// (store-and-forward). The worm's flits are contiguous from the front.
func (k *Kernel) wholeIn(buf *bufState, w *flit.Worm) bool {
	if buf.Len() < int(w.Len) {
		return false
	}
	t := buf.At(int(w.Len) - 1)
	return t.Seq == w.Len-1 && &k.Pool.Worms[t.Worm] == w && t.Ready(k.now)
}

// hasRoom reports whether destination d can take need flits this cycle.
func (k *Kernel) hasRoom(d int32, need int) bool {
	if d >= k.nb {
		return true // a terminal sink takes a flit every cycle
	}
	free := k.bs[d].Free()
	if free >= need {
		return true
	}
	return k.reuse && free+1 >= need && k.canMove(d)
}
