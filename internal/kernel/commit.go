package kernel

import (
	"github.com/flitsim/flitsim/flit"
)

// commit moves the flits chosen by flow: first every source gives up its
// flit, then every destination receives, so a slot freed and refilled in the
// same cycle never holds two flits.
func (k *Kernel) commit() {
	k.granted = k.granted[:0]
	popped := k.whole.popped[:0]
	now := k.now
	for _, b := range k.moves {
		popped = append(popped, k.bs[b].Pop())
		k.bs[b].moved = now
	}
	k.nmoved = len(k.moves)
	for i, b := range k.moves {
		f := popped[i]
		x := &k.bs[b]
		arrive := now + int64(x.lat)
		k.carry(x, &f)
		tail := f.Kind >= flit.Tail
		if s := x.rSw; s >= 0 {
			if f.Kind == flit.Head || f.Kind == flit.HeadTail {
				w := &k.Pool.Worms[f.Worm]
				w.Hops++
				f.Hops++
				if x.kind == kindSource {
					w.InjCycle = now
				}
			}
			base := k.portBase[s]
			for m := k.need(x, &f); m != 0; {
				k.FlitHops++
				gp := base + int32(m.Next())
				if k.tr != nil {
					k.traceMove(x, b, f, k.pDest[gp], gp, arrive)
				}
				k.arriveOne(&k.whole, k.pDest[gp], &f, arrive)
			}
			if tail && !k.outBuf {
				for m := x.mask; m != 0; {
					k.release(s, base+int32(m.Next()))
				}
			}
		} else {
			if x.kind == kindSource && f.Seq == 0 {
				k.Pool.Worms[f.Worm].InjCycle = now
			}
			if k.tr != nil {
				k.traceMove(x, b, f, x.fixed, -1, arrive)
			}
			k.arriveOne(&k.whole, x.fixed, &f, arrive)
		}
		if x.also >= 0 {
			if k.tr != nil {
				k.tr.Move(now, f, b, x.also, int32(len(k.Links))+x.relT, arrive)
			}
			k.relay(x, f, arrive)
		}
		if x.rel >= 0 && tail {
			k.release(k.portSw[x.rel], x.rel)
		}
		k.afterMove(b, x, &f, tail, now)
	}
}

// afterMove updates x after its front flit f moved out in cycle now: a tail
// frees x for the next worm, the active set and the front's needs follow,
// and a source buffer passes its injection channel on and refills.
func (k *Kernel) afterMove(b int32, x *bufState, f *flit.Flit, tail bool, now int64) {
	if tail {
		x.worm, x.also = -1, -1 // the next worm binds afresh
		x.rSw, x.rIn = x.home, x.homeIn
		if x.rSw < 0 {
			x.to = x.fixed // a path relay routed b for a while
		}
	}
	switch {
	case x.Empty():
		k.active.clear(b)
	case tail || x.ent >= 0 || x.rSw < 0:
		// A new worm, or a header flit that may enable more ports, or an
		// ejection buffer (path relays): check what the front needs. The
		// next flit of a bound unicast worm needs nothing new.
		k.noteFront(b)
	}
	if x.kind == kindSource {
		t := k.bSw[b]
		switch {
		case tail:
			k.injOwner[t] = -1
		case f.Seq == 0:
			k.injOwner[t] = f.Worm // the node's one injection channel
		}
		k.refill(t, now+1)
	}
}

// carry counts the flit on the channel(s) the move out of x crosses.
func (k *Kernel) carry(x *bufState, f *flit.Flit) {
	c := x.ch
	switch {
	case c == chanRouted:
		base := k.portBase[x.rSw]
		for m := k.need(x, f); m != 0; {
			k.whole.carry(&k.Links[base+int32(m.Next())], k.now)
		}
	case c >= 0:
		k.whole.carry(&k.chans[c], k.now) // a link, or an injection channel
	}
}

// traceMove reports one copy of a move; ch is the port crossed for routed
// input-buffered moves, else the buffer's own channel.
func (k *Kernel) traceMove(x *bufState, b int32, f flit.Flit, to, gp int32, arrive int64) {
	ch := x.ch
	switch {
	case ch == chanRouted:
		ch = gp
	case ch < 0:
		ch = -1
	}
	ready := arrive
	if to < k.nb && f.Seq == 0 && k.bs[to].rSw >= 0 {
		ready += k.delay
	}
	k.tr.Move(k.now, f, b, to, ch, ready)
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
	elem(k.bs, d).moved = k.now
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
