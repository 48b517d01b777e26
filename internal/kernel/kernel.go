package kernel

import (
	"iter"
	"math/rand/v2"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/flit/header"
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
	// moved is the last cycle a flit left or entered b (for the deadlock
	// report): on the line every move writes anyway, where an array of its
	// own cost two more cache misses per hop in a large network.
	moved int64

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
	mode          xbar.Mode
	reuse         bool
	delay         int64
	rng           *rand.Rand
	src           *rand.PCG // rng's source (presampling copies its state)
	// initAtPlace: a new unicast's router draw (Router.Init) is left to
	// its stepper's place (the packet router with Valiant's intermediate
	// node draws it for the first leg's target, once it knows it).
	initAtPlace bool
	Hooks       Hooks

	// Buffers: ids [0, nb); destinations ≥ nb encode terminal sinks. The
	// per-buffer state the cycle loop touches sits in one struct per buffer
	// (one or two cache lines); cold data lives in side arrays.
	bs    []bufState
	bSw   []int32 // switch the buffer belongs to (terminal for sources)
	bPort []int32 // port at that switch
	// Switch g's group of buffers (layout.go) is ids [grpAt[g], grpAt[g+1]),
	// a gap before a lane's cut counted in the group before it. (An array
	// per switch where one per buffer said the same.)
	grpAt []int32
	nb    int32

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
	// srcFull has bit t set while terminal t's source register holds a
	// flit: kept for a public model's Offering (nil otherwise, so that the
	// flit crossbar's two lanes never share its words).
	srcFull []uint64

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
	rear    []int32    // deadlock check scratch: per worm, buffer of its newest flit
	rearSeq []int32

	stats *Stats

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

	// The decoder of switch-decoded headers (mcast_hdr.go), built at first use.
	hdrMIN *header.MIN

	tr Tracer // nil unless tracing

	// Pool's worm array is read by the lanes; its free list (on lines of
	// its own, see flit.Pool) is the main thread's.
	Pool flit.Pool
	// stateful is Topo.Router when it keeps per-packet state across hops
	// (topology.StatefulRouter), else nil: bindUnicast routes by it. (Last
	// in the group: a field before the hot ones would move them to longer
	// offsets and change the fast path's code layout.)
	stateful topology.StatefulRouter
	// The switch model's stepper (step.go), and blockReason's scratch (with
	// stateful, after the hot fields, for the same reason).
	stepper    Stepper
	traceHolds holds

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
	later    [2][]int32 // packets to place when Step starts, by lane of the source (EnqueueLater)
	_        [64]byte

	// The main thread's.
	whole lane
	// idle, if set, is called by the main thread while it waits for the
	// helper (presampling: presample.go). It must return quickly and touch
	// nothing the lanes use.
	idle   func()
	pre    *presampler // draws the next cycle's traffic ahead (two lanes)
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
	// Dropped counts the packets dropped by full queues (queue.full: drop).
	Dropped int64

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

// Now is the current cycle (the next one Step will simulate).
func (k *Kernel) Now() int64 { return k.now }

// Rand is the run's random source (traffic and routing draw from it in a
// fixed order, so a seed fixes the whole run).
func (k *Kernel) Rand() *rand.Rand { return k.rng }

// Idle reports whether no packet is queued or in flight (a scheduled
// router's packets included: packet_sched.go).
func (k *Kernel) Idle() bool {
	if l := k.lock(); l != nil {
		return l.idle()
	}
	if sc := k.sched(); sc != nil && sc.pk.live > 0 {
		return false
	}
	return k.Pool.Live() == 0
}

// SkipTo advances an idle network to cycle c without simulating the empty
// cycles in between.
func (k *Kernel) SkipTo(c int64) {
	if c > k.now && k.Idle() {
		k.now = c
	}
}

func (k *Kernel) AnyActive() bool {
	if p, ok := k.stepper.(*packetRouter); ok && p.queuedAny() {
		return true // (its queues hold packets: packet_view.go)
	}
	if _, ok := k.stepper.(*publicModel); ok {
		return k.Pool.Live() > 0 // (its buffers are its own)
	}
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

func (k *Kernel) setActive(b int32) { k.active.set(b) }

func (k *Kernel) clearActive(b int32) { k.active.clear(b) }

// switchOf is the switch owning global port gp.
func (k *Kernel) switchOf(gp int32) int { return int(k.portSw[gp]) }
