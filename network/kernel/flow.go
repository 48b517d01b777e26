package kernel

import (
	"math/bits"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/link"
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
	if k.evalMove(b, &k.bs[b]) {
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

func (k *Kernel) evalMove(b int32, x *bufState) bool {
	if x.Empty() {
		return false
	}
	f := x.Front()
	if !f.Ready(k.now) || x.rSw >= 0 && x.worm != f.Worm {
		return false // on a link, or not bound yet
	}
	need := 1
	if k.syncLive > 0 || k.pathLive > 0 || k.mode != link.Wormhole {
		var ok bool
		if need, ok = k.specialMove(b, x, f); !ok {
			return false
		}
	}
	if x.rSw < 0 {
		return k.hasRoom(x.fixed, need)
	}
	cm := k.need(x, f)
	if cm&^x.mask != 0 {
		return false
	}
	base := k.portBase[x.rSw]
	for m := cm; m != 0; {
		if !k.hasRoom(k.pDest[base+int32(m.Next())], need) {
			return false
		}
	}
	return true
}

// specialMove holds the checks that only synchronous or path-based worms
// and cut-through or store-and-forward switching need, off the common path.
// It returns the free slots each destination must offer.
func (k *Kernel) specialMove(b int32, x *bufState, f *flit.Flit) (int, bool) {
	if x.also >= 0 && x.worm != f.Worm {
		return 0, false // not bound yet
	}
	if k.syncLive > 0 && k.vetoAt[f.Worm] == k.now {
		return 0, false // a synchronous worm held back by another branch
	}
	need := 1
	if f.Seq == 0 && k.mode != link.Wormhole {
		w := &k.Pool.Worms[f.Worm]
		if k.mode == link.SAF && x.kind != kindSource && !k.wholeIn(x, w) {
			return 0, false // the source holds the whole packet by construction
		}
		if k.mode == link.VCT {
			need = int(w.Len)
		}
	}
	if x.also >= 0 && (!k.relayFree(x) || !k.hasRoom(x.also, need)) {
		return 0, false
	}
	if x.kind == kindSource && k.pathLive > 0 {
		if o := k.injOwner[k.bSw[b]]; o >= 0 && o != f.Worm {
			return 0, false // a path worm is relaying through this node
		}
	}
	return need, true
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
