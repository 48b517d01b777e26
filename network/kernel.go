package network

import (
	"iter"
	"math/bits"
	"math/rand/v2"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/link"
	"github.com/flitsim/flitsim/network/topology"
	xbar "github.com/flitsim/flitsim/switch"
)

// Buffer kinds.
const (
	kindIn uint8 = iota
	kindOut
	kindSource
	// kindGap pads the ids so that the second lane starts on a bitset
	// word of its own (see Kernel.alignCut): it holds nothing (depth 0)
	// and is never active.
	kindGap
)

// Flow memo values for the current cycle.
const (
	memoVisiting uint32 = iota + 1
	memoYes             // (= memoNo − 1: canMoveFast computes it)
	memoNo
)

// chanRouted marks a buffer whose moves cross the links of the ports they
// were routed to (input-buffered switches without output buffers).
const chanRouted = -2

// Hooks lets observers see deliveries (the Akita endpoints, tests). Nil
// functions are skipped.
type Hooks struct {
	// Delivered is called when a packet's tail reaches its last
	// destination. Hooks run inside Step and must not enqueue packets
	// (queue them for the next cycle, as the Akita endpoints do).
	Delivered func(w *flit.Worm, cycle int64)
	// Ejected is called for every flit a terminal receives (cycle is the
	// cycle after it crossed the ejection link).
	Ejected func(w *flit.Worm, term int32, f flit.Flit, cycle int64)
}

// bufState is one buffer and what decides the moves out of it.
//
// A routing buffer (rSw ≥ 0) binds the worm at its front: worm is that worm,
// want the output ports it takes at switch rSw, mask the ports it holds so
// far. A unicast head needs all of want at once; a multicast worm whose
// header spans several flits enables its ports one header flit at a time
// (ent points at the flit index that enables each port), so each of its
// flits is copied to the ports enabled so far. The worm stays bound until
// its tail leaves, and the next worm's first flit binds afresh.
//
// bufState is 128 bytes, so in the (page-aligned) array of a network of
// any size each buffer's first 64 bytes are one cache line.
type bufState struct {
	// The first 64 bytes are what the fast path's flow and commit read, so
	// a cycle touches one cache line per buffer for them.
	flit.Buffer
	cur  int32 // channel crossed by the next move out of b: ch, or for chanRouted the granted port's link (grantTo)
	to   int32 // single-port worms: where moves out of b go (fixed, or the granted port's far side)
	worm int32 // worm bound at this buffer, or -1
	rSw  int32 // switch whose routing unit decides moves out of b, or -1
	gp   int32 // global port of the last grant (its link, for input-buffered switches)
	ch   int32 // channel crossed by moves out of b: -1 none, chanRouted
	rel  int32 // global port released when a tail leaves b, or -1
	lat  int32 // cycles a move out of b takes

	want xbar.PortSet // ports the bound worm takes at rSw
	mask xbar.PortSet // ports it holds so far
	ent  int32        // multicast: offset of the bound worm's enable indexes, or -1

	fixed  int32 // destination of moves out of b when rSw < 0
	rIn    int32 // input port at rSw
	wait   int32 // next buffer parked on the same port, or -1
	also   int32 // extra destination of the bound worm (path relay), or -1
	relT   int32 // terminal of that relay
	ejT    int32 // terminal this buffer ejects into when rSw < 0, or -1
	home   int32 // static rSw (a path relay may route elsewhere meanwhile)
	homeIn int32
	kind   uint8
	_      [7]byte // to 128 bytes
}

// Kernel is the cycle-level state of one network. All per-buffer and
// per-port state lives in flat typed slices indexed by buffer id or global
// port id, so a cycle touches no map and allocates nothing.
type Kernel struct {
	// The fields come in three groups, each on cache lines of its own (the
	// padding), by who writes them: with two lanes, the helper thread reads
	// the first group and the cycle group every cycle, and a line the main
	// thread writes must then pass to the helper's core, once per line and
	// cycle (a few hundred nanoseconds each on the critical path when they
	// sat among the hot read-only fields).

	// Read by the lanes; written when the network is built or its
	// arrangement changes (lanes, multicast counts, pool growth).
	Topo *topology.Topology
	spec KernelSpec // kept to lay the buffers out again (alignCut)
	// gapLen ids from gapAt are a gap (kindGap) that aligns the lanes.
	gapAt, gapLen int32
	mode          link.Mode
	reuse         bool
	delay         int64
	rng           *rand.Rand
	src           *rand.PCG // rng's source (presampling copies its state)
	Hooks         Hooks

	// Buffers: ids [0, nb); destinations ≥ nb encode terminal sinks. The
	// per-buffer state the cycle loop touches sits in one struct per buffer
	// (one or two cache lines); cold data lives in side arrays.
	bs     []bufState
	bSw    []int32 // switch the buffer belongs to (terminal for sources)
	bPort  []int32 // port at that switch
	bGroup []int32 // switch whose group of buffers b is laid out in (layout.go)
	nb     int32

	// Ports: global port id = portBase[s] + port.
	portBase []int32
	portSw   []int32 // switch of each global port
	pDest    []int32 // buffer (or sink) a flit reaches through the port
	Links    []link.Link
	sw       []xbar.Switch
	// owner is every switch's Owner table, by global port: the switches'
	// Owner slices are windows on it, so the fast path reads and writes a
	// port's owner without loading its switch's record.
	owner  []int32
	outBuf bool // switches have output buffers (ports are released there)
	// byInput: the arbitration policy ranks requests by input alone, so
	// fast-path cycles decide them by offers (award) rather than Post and
	// Arbitrate.
	byInput  bool
	injLinks []link.Link
	chans    []link.Link // Links then injLinks: the channel ids of bufState.ch

	// Terminals.
	srcBuf []int32
	issued []int32 // per terminal: flits of its front packet already in the network
	queues []wormQueue

	// Per-buffer sets.
	active bitset // buffers holding a flit
	alloc  bitset // buffers whose front flit needs ports it does not hold
	parked bitset // buffers of alloc waiting for a held port: route skips them

	// Lanes (lanes.go): whole covers every buffer and serves the general
	// path and the serial fast path; lanes, when set, are the two halves the
	// fast path runs on two threads.
	lanes   []lane
	pair    []lane  // the two lanes, kept while an automatic kernel runs on one
	tuner   *tuner  // automatic workers: times one lane against two (tune.go)
	pairCut int32   // cutAt when the pair is in use
	cutAt   int32   // first buffer of lane 1 (nb when there is one lane), a multiple of 64 (alignCut)
	swLane  []uint8 // with two lanes: the lane of each switch
	instant bool    // every front flit is ready (see layout)
	largeAt int32   // flowFast uses flowLarge from this many buffers (largeBuffers)
	crew    *crew
	waiters []int32    // per global port: first buffer parked on it, or -1
	offers  []uint64   // per global port: rank<<32 | buffer of its first-ranked request this cycle, or noOffer (offer)
	lastWin []int64    // per switch: rank<<32 | input of its last-ranked winner this cycle, or -1 (award)
	granted []grantRec // grants made this cycle (synchronous worms may undo them)
	moved   []int64    // per buffer: last cycle a flit left or entered it
	rear    []int32    // deadlock check scratch: per worm, buffer of its newest flit
	rearSeq []int32

	stats *collector

	// Multicast state, per worm pool index (reused, so it allocates only
	// while the pool grows).
	mc       []mcState
	syncLive int     // live synchronous worms: the veto pass runs only then
	castLive int     // live multicast worms of any kind: the fast path runs only with none
	fast     bool    // the switching allows the fast path (wormhole)
	pathLive int     // live path-based worms: ejection buffers bind only then
	vetoAt   []int64 // per worm: the cycle a synchronous worm was held back
	relayIn  []int32 // per terminal: buffer a relayed flit enters (input-buffered)
	sinkWorm []int32 // per terminal: worm whose flits are arriving
	sinkSeq  []int32 // per terminal: last flit index received
	injOwner []int32 // per terminal: worm using its injection channel, or -1
	rolledB  []int64 // per buffer: last cycle a synchronous worm's grant there was given back
	rolledAt []int64 // per global port: last cycle a grant of it was given back
	rolledBy []int32 // per global port: the synchronous worm that gave it back

	tr Tracer // nil unless tracing

	// Pool's worm array is read by the lanes; its free list (on lines of
	// its own, see flit.Pool) is the main thread's.
	Pool flit.Pool
	// stateful is Topo.Router when it keeps per-packet state across hops
	// (topology.StatefulRouter), else nil: bindUnicast routes by it. (Last
	// in the group: a field before the hot ones would move them to longer
	// offsets and change the fast path's code layout.)
	stateful topology.StatefulRouter

	// The cycle: written by the main thread between a cycle's phases.
	_     [64]byte
	now   int64
	epoch uint32 // stamp of the current cycle's flow memo (30 bits)
	// fastNow is set during a fast-path cycle (stepFast): its arrivals
	// may rely on the fast path's invariants, and with two lanes its flow
	// memo is in the lanes' arrays.
	fastNow bool
	// denseNow is fastNow in a network below largeAt buffers (push).
	denseNow bool
	later    [2][]int32 // packets to place when Step starts, by lane of the source (enqueueLater)
	_        [64]byte

	// The main thread's.
	whole lane
	// idle, if set, is called by the main thread while it waits for the
	// helper (presampling: presample.go). It must return quickly and touch
	// nothing the lanes use.
	idle   func()
	moves  []int32
	nmoved int   // moves in the last cycle
	maxOcc int32 // most flits any switch buffer held
	wg     waitGraph

	// CheckDeadlock asks the next Step to run the wait-for-graph check (it
	// also runs on its own in any cycle in which no flit moves). Deadlock is
	// set when a check finds one.
	CheckDeadlock bool
	Deadlock      *Deadlock

	// FlitHops counts flits crossing a switch (every replicated copy counts).
	FlitHops int64

	// Invariant counters (tests assert they stay zero).
	Violations Violations
}

type grantRec struct {
	b    int32
	got  xbar.PortSet
	sw   int32
	worm int32
}

// Violations counts broken invariants; every field must stay zero.
type Violations struct {
	ChannelOverUse int64 `json:"channel_over_use"` // a channel carried two flits in one cycle
	OutOfOrder     int64 `json:"out_of_order"`     // a flit arrived out of order, or twice
	Misdelivered   int64 `json:"misdelivered"`     // a flit reached the wrong terminal
	Overflow       int64 `json:"overflow"`         // a buffer held more flits than its depth
}

// Total is the number of violations of any kind.
func (v Violations) Total() int64 {
	return v.ChannelOverUse + v.OutOfOrder + v.Misdelivered + v.Overflow
}

// wormQueue is a FIFO of packets waiting at a source interface. It is
// unbounded (the source queue of open-loop measurement) and grows by doubling.
type wormQueue struct {
	buf  []int32
	head int
	n    int
}

// Its ring's length is a power of two (8, doubling), so an index wraps by a
// mask, not a division.
func (q *wormQueue) push(w int32) {
	if q.n == len(q.buf) {
		nb := make([]int32, max(8, 2*len(q.buf)))
		for i := 0; i < q.n; i++ {
			nb[i] = q.buf[(q.head+i)&(len(q.buf)-1)]
		}
		q.buf, q.head = nb, 0
	}
	q.buf[(q.head+q.n)&(len(q.buf)-1)] = w
	q.n++
}

func (q *wormQueue) front() int32 { return q.buf[q.head] }

// popIf removes the front packet if v is 1 and nothing if v is 0, without
// a jump on v.
func (q *wormQueue) popIf(v int) {
	q.head = (q.head + v) & (len(q.buf) - 1)
	q.n -= v
}

// Now is the current cycle (the next one Step will simulate).
func (k *Kernel) Now() int64 { return k.now }

// Rand is the run's random source (traffic and routing draw from it in a
// fixed order, so a seed fixes the whole run).
func (k *Kernel) Rand() *rand.Rand { return k.rng }

// Idle reports whether no packet is queued or in flight.
func (k *Kernel) Idle() bool { return k.Pool.Live() == 0 }

// SkipTo advances an idle network to cycle c without simulating the empty
// cycles in between.
func (k *Kernel) SkipTo(c int64) {
	if c > k.now && k.Idle() {
		k.now = c
	}
}

// Enqueue creates a unicast packet at terminal src for dst with the given
// length in the current cycle and queues it at the source interface. It
// returns the worm's pool index.
func (k *Kernel) Enqueue(src, dst, flits int) int32 {
	wi := k.newUnicast(src, dst, flits)
	k.queue(wi)
	return wi
}

// enqueueLater is Enqueue for the traffic generator, which runs just before
// Step: the packet is created and counted now, and put in its source queue
// when Step starts (place), on two lanes by the lane of its source, so that
// this thread writes none of the other lane's sources. Nothing between
// generation and Step reads the sources, so the run is the same.
func (k *Kernel) enqueueLater(src, dst, flits int) {
	k.listLater(k.newUnicast(src, dst, flits), src)
}

// enqueueDrawn is enqueueLater for a packet whose router draws were made
// ahead of time (presample.go): the router's Init would set aux.
func (k *Kernel) enqueueDrawn(src, dst, flits int, aux uint64) {
	wi := k.newWorm(src, flits)
	w := &k.Pool.Worms[wi]
	w.Dst, w.Dests, w.Aux = int32(dst), 1, aux
	k.listLater(wi, src)
}

// listLater counts new packet wi and lists it for placing (enqueueLater).
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
	k.Topo.Router.Init(w, k.rng)
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
	src := k.Pool.Worms[wi].Src
	k.queues[src].push(wi)
	k.refill(src, k.now)
}

// placeLater places the packets enqueueLater left, in order at each source.
func (k *Kernel) placeLater() {
	for i := range k.later {
		for _, wi := range k.later[i] {
			k.place(wi)
		}
		k.later[i] = k.later[i][:0]
	}
}

// placeOwn places the packets enqueueLater left at lane l's sources (in a
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
	k.setActive(b)
	k.noteFront(b)
}

func (k *Kernel) anyActive() bool {
	return k.active.any()
}

// activeBuffers yields the buffers holding a flit, in id order. (The flow
// phase walks the bitset by hand: it is the hot loop.)
func (k *Kernel) activeBuffers() iter.Seq[int32] {
	return k.active.all()
}

// wormRuns yields, for buffer x, each run of consecutive flits of one worm:
// the position of its first flit and that flit.
func wormRuns(x *bufState) iter.Seq2[int, *flit.Flit] {
	return func(yield func(int, *flit.Flit) bool) {
		prev := int32(-1)
		for i := 0; i < x.Len(); i++ {
			if f := x.At(i); f.Worm != prev {
				prev = f.Worm
				if !yield(i, f) {
					return
				}
			}
		}
	}
}

func (k *Kernel) setActive(b int32)   { k.active.set(b) }
func (k *Kernel) clearActive(b int32) { k.active.clear(b) }

// Step simulates one cycle.
func (k *Kernel) Step() {
	if k.tuner != nil {
		k.tune()
	}
	if k.fastOK() {
		k.stepFast()
		return
	}
	k.placeLater()
	k.route(&k.whole)
	k.allocate(&k.whole)
	k.flow()
	if k.syncLive > 0 {
		k.syncVeto()
	}
	if k.Deadlock == nil && (k.CheckDeadlock || len(k.moves) == 0 && k.anyActive()) {
		k.Deadlock = k.detect()
	}
	if k.tr != nil {
		k.traceBlocked()
	}
	k.commit()
	k.settle(&k.whole)
	if k.tr != nil {
		k.tr.EndCycle(k.now)
	}
	k.now++
}

// need is the set of ports flit f must be copied to when it leaves x: the
// bound worm's ports, or for a multi-flit multicast header, the ports
// enabled by f or an earlier flit.
func (k *Kernel) need(x *bufState, f *flit.Flit) xbar.PortSet {
	if x.ent < 0 {
		return x.want
	}
	en := k.mc[x.worm].en[x.ent:]
	var n xbar.PortSet
	for m := x.want; m != 0; {
		p := m.Next()
		if en[p] <= f.Seq {
			n |= xbar.Port(p)
		}
	}
	return n
}

// noteFront marks b for allocation if its front flit needs ports it does
// not hold (a new worm to bind, or a header flit enabling more ports).
func (k *Kernel) noteFront(b int32) {
	x := elem(k.bs, b)
	if x.rSw < 0 && !(x.ejT >= 0 && k.pathLive > 0) {
		return
	}
	f := x.Front()
	if f.Worm != x.worm || k.need(x, f)&^x.mask != 0 {
		k.alloc.set(b)
	}
}

// route binds new worms at the front of their buffers and posts requests
// for the ports their front flits need. A request whose ports are held by
// another worm is not posted (it cannot win this cycle), except under the
// non-atomic grab policy, which takes whatever is free.
func (k *Kernel) route(l *lane) {
	if cap(l.posted) <= len(k.sw) {
		// (+1: a slot written, not counted)
		l.posted = make([]int32, 0, len(k.sw)+1)
		l.won = make([]int32, 0, len(k.sw)+1)
		l.offered = make([]int32, len(k.portSw)+1)
	}
	if k.fastNow && k.byInput {
		k.routeOffers(l)
		return
	}
	// (A switch is listed by counting, not by a jump on whether it is its
	// first request this cycle.)
	posted, np := l.posted[:cap(l.posted)], len(l.posted)
	for wi := int(l.lo >> 6); wi <= int((l.hi-1)>>6); wi++ {
		word := k.alloc.word(wi) &^ k.parked.word(wi)
		for word != 0 {
			b := int32(wi<<6 | bits.TrailingZeros64(word))
			word &= word - 1
			x := elem(k.bs, b)
			f := x.Front()
			if !f.Ready(k.now) {
				continue
			}
			if f.Worm != x.worm {
				k.bind(b, f)
			}
			req := k.need(x, f) &^ x.mask
			if req == 0 {
				k.alloc.clear(b)
				continue
			}
			s := x.rSw
			sw := elem(k.sw, s)
			if sw.Policy != xbar.Grab && !sw.Grantable(req) {
				if x.ent < 0 {
					k.park(b, x, req)
				}
				continue
			}
			*elem(posted, np) = s
			np += int(b2u(!sw.Pending()))
			w := elem(k.Pool.Worms, f.Worm)
			sw.Post(xbar.Request{In: x.rIn, Want: req, Worm: f.Worm, Age: w.GenCycle, Src: w.Src, ID: w.ID, Buf: b})
		}
	}
	l.posted = posted[:np]
}

// routeOffers is route on the fast path under an arbiter that ranks
// requests by input alone (Kernel.byInput): every worm is a unicast, which
// binds by bindUnicast and wants one port, so a request is an offer.
func (k *Kernel) routeOffers(l *lane) {
	now, bs := k.now, k.bs
	for wi := int(l.lo >> 6); wi <= int((l.hi-1)>>6); wi++ {
		word := k.alloc.word(wi) &^ k.parked.word(wi)
		base := int32(wi << 6)
		for word != 0 {
			b := base | int32(bits.TrailingZeros64(word))
			word &= word - 1
			x := elem(bs, b)
			f := x.Front()
			if !f.Ready(now) {
				continue
			}
			if f.Worm != x.worm {
				k.bindUnicast(x, f.Worm)
			}
			req := x.want &^ x.mask // (need: a unicast has no enables)
			if req == 0 {
				k.alloc.clear(b)
				continue
			}
			// A unicast wants one port: whether it is free is one read.
			gp := *elem(k.portBase, x.rSw) + int32(bits.TrailingZeros64(uint64(req)))
			if *elem(k.owner, gp) != xbar.Free {
				k.park(b, x, req)
				continue
			}
			k.offer(l, b, x, gp)
		}
	}
}

// park takes b out of routing until a port of req that another worm holds
// is released: until then its request cannot be granted. (Multi-flit
// multicast headers, whose needs change flit by flit, are not parked.)
func (k *Kernel) park(b int32, x *bufState, req xbar.PortSet) {
	sw := elem(k.sw, x.rSw)
	for m := req; m != 0; {
		if p := m.Next(); *elem(sw.Owner, int32(p)) != xbar.Free {
			gp := *elem(k.portBase, x.rSw) + int32(p)
			w := elem(k.waiters, gp)
			x.wait, *w = *w, b
			k.parked.set(b)
			return
		}
	}
}

// release frees global port gp of switch s and wakes the buffers parked on
// it, which request it again from the next cycle on.
func (k *Kernel) release(s, gp int32) {
	*elem(k.owner, gp) = xbar.Free
	w := elem(k.waiters, gp)
	for b := *w; b >= 0; b = elem(k.bs, b).wait {
		k.parked.clear(b)
	}
	*w = -1
}

// bind routes the worm whose flit f is now at the front of b.
func (k *Kernel) bind(b int32, f *flit.Flit) {
	x := elem(k.bs, b)
	w := elem(k.Pool.Worms, f.Worm)
	if w.Cast == flit.Unicast {
		k.bindUnicast(x, f.Worm)
		return
	}
	k.rebind(x, f.Worm)
	if w.Cast == flit.Path && k.relaying(x, f.Worm) {
		k.bindRelay(b, f.Worm)
		return
	}
	if x.rSw < 0 {
		x.want = 0 // an ejection buffer bound only to check for a relay
		return
	}
	switch w.Cast {
	case flit.Tree, flit.SyncTree:
		e := k.treeAt(f.Worm, x.rSw, x.rIn)
		x.want, x.ent = e.want, e.en
	default:
		x.want = k.Topo.Router.Route(int(x.rSw), int(x.rIn), w)
		if w.Cast == flit.Path {
			k.bindRelayRouted(x, f.Worm)
		}
	}
}

// bindUnicast is bind for unicast worm wi: its one route from the buffer's
// own switch.
func (k *Kernel) bindUnicast(x *bufState, wi int32) {
	k.rebind(x, wi)
	if x.rSw < 0 {
		x.want = 0
		return
	}
	w := elem(k.Pool.Worms, wi)
	if k.stateful != nil {
		// A routing function with per-packet state (topology.StatefulRouter)
		// advances the worm's w.Route here, once per switch; the stateless
		// routers skip this one branch and take the call below as before.
		x.want = k.stateful.RouteHead(int(x.rSw), int(x.rIn), w, &w.Route)
		return
	}
	x.want = k.Topo.Router.Route(int(x.rSw), int(x.rIn), w)
}

// rebind binds worm wi at buffer x afresh: no port held or enabled, and the
// buffer's own routing unit (a relay may have moved it).
func (k *Kernel) rebind(x *bufState, wi int32) {
	x.worm, x.mask, x.ent, x.also = wi, 0, -1, -1
	x.rSw, x.rIn = x.home, x.homeIn
	if x.rSw < 0 {
		x.to = x.fixed
	}
}

// offer records b's request for its one port, global port gp (a fast-path
// worm wants one), keeping for each port the first-ranked requester, which
// is the one Arbitrate would grant it to (xbar.Policy.ByInput).
//
// Whether a port already has an offer is a coin toss to the CPU, so the
// port is listed, and the offer kept, without a jump (noOffer is above
// every key).
func (k *Kernel) offer(l *lane, b int32, x *bufState, gp int32) {
	key := uint64(elem(k.sw, x.rSw).Rank(x.rIn))<<32 | uint64(b)
	o := elem(k.offers, gp)
	*elem(l.offered, l.noff) = gp // (room for every port: route)
	l.noff += int(b2u(*o == noOffer))
	*o = min(*o, key)
}

const noOffer = ^uint64(0)

// award grants each port offered this cycle to its first-ranked requester
// and moves each switch's round-robin pointer past its last-ranked winner:
// Arbitrate's outcome for requests of one port each.
func (k *Kernel) award(l *lane) {
	won := l.won[:cap(l.won)] // (room for every switch: route)
	nw := 0
	for _, gp := range l.offered[:l.noff] {
		o := elem(k.offers, gp)
		b, rank := int32(*o), int64(*o>>32)
		*o = noOffer
		x := elem(k.bs, b)
		s := x.rSw
		p := int(gp - *elem(k.portBase, s))
		*elem(k.owner, gp) = x.worm // (xbar.Switch.Award, by global port)
		// A switch is listed at its first winner, without a jump.
		w := elem(k.lastWin, s)
		won[nw] = s
		nw += int(b2u(*w < 0))
		*w = max(*w, rank<<32|int64(x.rIn))
		// grantTo for a fast-path worm (no tracer, no synchronous
		// multicast): its one port granted, it needs no other.
		x.mask |= xbar.Port(p)
		k.setPort(x, gp)
		k.alloc.clear(b)
	}
	l.noff = 0
	for _, s := range won[:nw] {
		w := elem(k.lastWin, s)
		elem(k.sw, s).Awarded(int32(*w))
		*w = -1
	}
}

// allocate runs the arbiter of every switch that has requests.
func (k *Kernel) allocate(l *lane) {
	if l.noff > 0 {
		k.award(l)
	}
	for _, s := range l.posted {
		sw := elem(k.sw, s)
		if r, got := sw.Single(); r != nil {
			k.grant(r, got)
		} else {
			sw.Arbitrate(k.grant)
		}
	}
	l.posted = l.posted[:0]
}

func (k *Kernel) grant(r *xbar.Request, got xbar.PortSet) { k.grantTo(r.Buf, r.Worm, got) }

// grantTo records that the worm at the front of buffer b got ports got.
func (k *Kernel) grantTo(b, worm int32, got xbar.PortSet) {
	x := elem(k.bs, b)
	x.mask |= got
	k.setPort(x, *elem(k.portBase, x.rSw)+int32(bits.TrailingZeros64(uint64(got))))
	if k.tr != nil {
		k.tr.Granted(k.now, b, worm, x.rSw, got)
	}
	if k.syncLive > 0 {
		k.granted = append(k.granted, grantRec{b: b, got: got, sw: x.rSw, worm: worm})
	}
	if k.need(x, x.Front())&^x.mask == 0 {
		k.alloc.clear(b)
	}
}

// setPort records gp as the port moves out of x take: where they go and,
// for chanRouted, the link they cross.
func (k *Kernel) setPort(x *bufState, gp int32) {
	x.gp = gp
	routedCh := -int32(b2u(x.ch == chanRouted)) // (a mask: no jump)
	x.cur = x.ch&^routedCh | gp&routedCh
	x.to = *elem(k.pDest, gp)
}

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

// commit moves the flits chosen by flow: first every source gives up its
// flit, then every destination receives, so a slot freed and refilled in the
// same cycle never holds two flits.
func (k *Kernel) commit() {
	k.granted = k.granted[:0]
	popped := k.whole.popped[:0]
	now := k.now
	for _, b := range k.moves {
		popped = append(popped, k.bs[b].Pop())
		k.moved[b] = now
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
}

// switchOf is the switch owning global port gp.
func (k *Kernel) switchOf(gp int32) int { return int(k.portSw[gp]) }

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
