package kernel

import (
	"github.com/flitsim/flitsim/flit"
)

// eject consumes a flit at terminal term. A packet reaches a destination
// with its tail; latency counts from generation to the cycle after the tail
// crossed the ejection link.
func (k *Kernel) eject(term int32, f *flit.Flit, arrive int64) {
	if k.sink(&k.whole, term, f, arrive) {
		k.deliver(term, f, arrive)
	}
}

// sink is what every flit does at its terminal: the delivery invariants,
// the terminal's and the worm's counts, and the Ejected hook. It writes only
// the terminal's state, the worm's record and lane l's counters (added up in
// settle), so two lanes may run it at once for their own terminals when no
// Ejected hook is set. It reports whether f is a tail.
func (k *Kernel) sink(l *lane, term int32, f *flit.Flit, arrive int64) bool {
	w := elem(k.Pool.Worms, f.Worm)
	if !k.isDest(w, f.Worm, term) {
		l.viol.Misdelivered++
	}
	// Whether f is a head, a body flit or a tail is a coin toss to the
	// CPU, so what depends on it is computed, not jumped over: the order
	// check and the terminal's current worm (none after a tail).
	sw, sq := elem(k.sinkWorm, term), elem(k.sinkSeq, term)
	l.viol.OutOfOrder += int64(b2u(*sw == f.Worm) & b2u(f.Seq <= *sq))
	tail := int32(f.Kind>>1) & 1 // Kind bit 1: tail
	*sw, *sq = f.Worm|-tail, f.Seq
	w.Recvd++
	// A unicast head brings its hop count (written through a mask: head or
	// not is a coin toss to the CPU).
	head := -int32(b2u(f.Seq == 0) & b2u(w.Cast == flit.Unicast))
	w.Hops += head & (int32(f.Hops) - w.Hops)
	if k.Hooks.Ejected != nil {
		k.Hooks.Ejected(w, term, *f, arrive)
	}
	if k.stats != nil {
		l.ejected++
		if k.stats.inWindow(arrive - 1) {
			l.winEj++
		}
	}
	return tail != 0
}

// deliver completes the delivery of a tail to terminal term: statistics,
// the Delivered hook and the worm's release, in the order tails arrive.
func (k *Kernel) deliver(term int32, f *flit.Flit, arrive int64) {
	w := &k.Pool.Worms[f.Worm]
	w.Done++
	if k.tr != nil {
		k.tr.Delivered(k.now, w, f.Worm, term)
	}
	if w.Done < w.Dests {
		return
	}
	if k.stats != nil {
		if k.stats.keep {
			k.stats.keepDelivery(w, k.dests(f.Worm), arrive)
		}
		k.stats.delivered(w, arrive)
	}
	if k.Hooks.Delivered != nil {
		k.Hooks.Delivered(w, arrive)
	}
	if w.Cast != flit.Unicast {
		k.castLive--
	}
	switch w.Cast {
	case flit.SyncTree:
		k.syncLive--
	case flit.Path:
		k.pathLive--
	}
	k.Pool.Put(f.Worm)
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
	if c := k.stats; k.Hooks.Delivered != nil || c != nil && c.slow {
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
