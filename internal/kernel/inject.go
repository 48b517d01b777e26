package kernel

import (
	"github.com/flitsim/flitsim/flit"
)

// Enqueue creates a unicast packet at terminal src for dst with the given
// length in the current cycle and queues it at the source interface. It
// returns the worm's pool index.
func (k *Kernel) Enqueue(src, dst, flits int) int32 {
	wi := k.newUnicast(src, dst, flits)
	k.queue(wi)
	return wi
}

// EnqueueMeasured is Enqueue for a packet that is measured whatever the
// cycle, inside the measurement window or not (packets handed to the Akita
// endpoints: their sender decides when they matter, not run.warmup).
func (k *Kernel) EnqueueMeasured(src, dst, flits int) int32 {
	wi := k.newUnicast(src, dst, flits)
	k.placeLater()
	if k.stats != nil {
		k.stats.generatedMeasured(&k.Pool.Worms[wi], k.now)
	}
	k.place(wi)
	return wi
}

// EnqueueLater is Enqueue for the traffic generator, which runs just before
// Step: the packet is created and counted now, and put in its source queue
// when Step starts (place), on two lanes by the lane of its source, so that
// this thread writes none of the other lane's sources. Nothing between
// generation and Step reads the sources, so the run is the same.
func (k *Kernel) EnqueueLater(src, dst, flits int) {
	k.listLater(k.newUnicast(src, dst, flits), src)
}

// enqueueDrawn is EnqueueLater for a packet whose router draws were made
// ahead of time (presample.go): the router's Init would set aux.
func (k *Kernel) enqueueDrawn(src, dst, flits int, aux uint64) {
	wi := k.newWorm(src, flits)
	w := &k.Pool.Worms[wi]
	w.Dst, w.Dests, w.Aux = int32(dst), 1, aux
	k.listLater(wi, src)
}

// listLater counts new packet wi and lists it for placing (EnqueueLater).
func (k *Kernel) listLater(wi int32, src int) {
	if k.stats != nil {
		k.stats.generated(&k.Pool.Worms[wi], k.now)
	}
	// Listed by the lane of the source (the pair's, whether or not this
	// cycle runs on it), so that a lane reads only its own packets.
	side := 0
	if k.pair != nil && k.srcBuf[src] >= k.pairCut {
		side = 1
	}
	k.later[side] = append(k.later[side], wi)
}

func (k *Kernel) newUnicast(src, dst, flits int) int32 {
	wi := k.newWorm(src, flits)
	w := &k.Pool.Worms[wi]
	w.Dst, w.Dests = int32(dst), 1
	if !k.initAtPlace {
		k.Topo.Router.Init(w, k.rng)
	}
	return wi
}

func (k *Kernel) newWorm(src, flits int) int32 {
	wi := k.Pool.Get()
	w := &k.Pool.Worms[wi]
	w.Src, w.Len = int32(src), int32(flits)
	w.GenCycle = k.now
	w.InjCycle = -1
	for int(wi) >= len(k.mc) {
		k.mc = append(k.mc, mcState{})
		k.vetoAt = append(k.vetoAt, -1)
	}
	return wi
}

func (k *Kernel) queue(wi int32) {
	k.placeLater() // (packets keep the order they were created in)
	w := &k.Pool.Worms[wi]
	if k.stats != nil {
		k.stats.generated(w, k.now)
	}
	k.place(wi)
}

// place puts packet wi in its source queue, and its first flit in the
// source register if that is empty.
func (k *Kernel) place(wi int32) {
	if p, ok := k.stepper.(*packetRouter); ok {
		p.place(k, wi) // (packet_leg.go; found by its type, one compare, where the interface assertion searched a table)
		return
	}
	if p, ok := k.stepper.(queueModel); ok {
		p.place(k, wi)
		return
	}
	src := k.Pool.Worms[wi].Src
	k.queues[src].push(wi)
	k.refill(src, k.now)
}

// placeLater places the packets EnqueueLater left, in order at each source.
func (k *Kernel) placeLater() {
	for i := range k.later {
		for _, wi := range k.later[i] {
			k.place(wi)
		}
		k.later[i] = k.later[i][:0]
	}
}

// placeOwn places the packets EnqueueLater left at lane l's sources (in a
// two-lane cycle's first phase; stepFast empties the lists after it).
func (k *Kernel) placeOwn(l *lane) {
	for _, wi := range k.later[k.laneOf(l.lo)] {
		k.place(wi)
	}
}

// refill puts the next flit of the front packet into terminal term's
// source register if it is empty.
func (k *Kernel) refill(term int32, readyAt int64) {
	b := *elem(k.srcBuf, term)
	x := elem(k.bs, b)
	q := elem(k.queues, term)
	if !x.Empty() || q.n == 0 {
		return
	}
	wi := q.front()
	n, ln := *elem(k.issued, term), elem(k.Pool.Worms, wi).Len
	if k.delay != 0 {
		// A head waits for the routing unit (added, not jumped over:
		// heads and the rest alternate).
		readyAt += k.delay * int64(b2u(n == 0)&b2u(x.rSw >= 0))
	}
	f := flit.Flit{Worm: wi, Seq: n, Kind: flit.KindOf(n, ln)}
	f.SetReady(readyAt)
	// After its tail the packet leaves the queue (also without a jump).
	n++
	tail := int32(b2u(n == ln))
	q.popIf(int(tail))
	*elem(k.issued, term) = n &^ -tail
	x.Push(f)
	if k.srcFull != nil {
		k.srcFull[term>>6] |= 1 << uint(term&63)
	}
	k.setActive(b)
	k.noteFront(b)
}
