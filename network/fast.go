package network

import (
	"math/bits"

	"github.com/flitsim/flitsim/flit"
)

// The fast path is Step specialised to the common case: wormhole switching,
// no tracer, and no multicast worm alive, so every bound worm holds exactly
// one port and every move has one destination (bufState.to). It keeps the
// general path's state and its order of side effects, so a run gives the
// same result whichever path each cycle takes (TestFastPathMatchesGeneral);
// the general path takes over for any cycle in which a multicast worm lives.

// fastOK reports whether this cycle may take the fast path.
func (k *Kernel) fastOK() bool { return k.fast && k.castLive == 0 && k.tr == nil }

// stepFast is Step for a fastOK cycle.
func (k *Kernel) stepFast() {
	k.route()
	k.allocate()
	k.flowFast()
	if k.Deadlock == nil && (k.CheckDeadlock || len(k.moves) == 0 && k.anyActive()) {
		k.Deadlock = k.detect()
	}
	k.commitFast()
	k.now++
}

// flowFast is flow for single-destination worms. A buffer outside the
// allocation set holds a bound, granted front (or moves to a fixed
// destination), so it moves exactly when its front is ready and its one
// destination has room.
func (k *Kernel) flowFast() {
	k.nextEpoch()
	yes := k.epoch<<2 | memoYes
	for wi, word := range k.active {
		word &^= k.alloc[wi]
		for word != 0 {
			b := int32(wi<<6 | bits.TrailingZeros64(word))
			word &= word - 1
			x := &k.bs[b]
			if x.memo>>2 != k.epoch {
				k.canMoveFast(x)
			}
			if x.memo == yes {
				k.moves = append(k.moves, b)
			}
		}
	}
}

// canMoveFast decides and memoises whether x's front flit moves this cycle
// (x is active and outside the allocation set). As in canMove, a buffer met
// again while its own answer is pending is part of a loop of full buffers,
// and cannot move.
func (k *Kernel) canMoveFast(x *bufState) bool {
	e := k.epoch << 2
	x.memo = e | memoVisiting
	ok := x.Front().Ready(k.now)
	if ok && x.to < k.nb {
		y := &k.bs[x.to]
		if y.Free() == 0 {
			// y is full, so it is active: it makes room only by moving.
			ok = k.reuse && k.alloc[x.to>>6]&(1<<uint(x.to&63)) == 0 &&
				(y.memo>>2 == k.epoch && y.memo&3 == memoYes ||
					y.memo>>2 != k.epoch && k.canMoveFast(y))
		}
	}
	if ok {
		x.memo = e | memoYes
	} else {
		x.memo = e | memoNo
	}
	return ok
}

// commitFast is commit for single-destination moves.
func (k *Kernel) commitFast() {
	k.popped = k.popped[:0]
	now := k.now
	for _, b := range k.moves {
		k.popped = append(k.popped, k.bs[b].Pop())
		k.moved[b] = now
	}
	k.nmoved = len(k.moves)
	nl := int32(len(k.Links))
	for i, b := range k.moves {
		f := k.popped[i]
		x := &k.bs[b]
		arrive := now + int64(x.lat)
		switch c := x.ch; {
		case c == chanRouted:
			k.carryOn(&k.Links[x.gp])
		case c >= nl:
			k.carryOn(&k.injLinks[c-nl])
		case c >= 0:
			k.carryOn(&k.Links[c])
		}
		tail := f.Kind >= flit.Tail
		head := f.Kind == flit.Head || f.Kind == flit.HeadTail
		if x.rSw >= 0 {
			if head {
				w := &k.Pool.Worms[f.Worm]
				w.Hops++
				if b >= k.src0 {
					w.InjCycle = now
				}
			}
			k.FlitHops++
			k.receive(x.to, f, arrive)
			if tail && !k.outBuf {
				k.release(x.rSw, x.gp)
			}
		} else {
			if head && b >= k.src0 {
				k.Pool.Worms[f.Worm].InjCycle = now
			}
			k.receive(x.to, f, arrive)
		}
		if tail {
			if gp := x.rel; gp >= 0 {
				k.release(k.portSw[gp], gp)
			}
			x.worm = -1 // the next worm binds afresh
		}
		if x.Empty() {
			k.active[b>>6] &^= 1 << uint(b&63)
		} else if tail && x.rSw >= 0 {
			k.alloc[b>>6] |= 1 << uint(b&63) // a new worm at the front
		}
		if b >= k.src0 {
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
