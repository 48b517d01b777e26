package kernel

import (
	"math/rand/v2"
	"slices"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/network/topology"
)

// The packet-switched router (switching: packet), Brebner 1983 ch. 3: a
// store-and-forward, output-queued router whose packets are one unit that
// crosses a link in one cycle. Every node (switch) keeps one queue per
// out-link (or, with Shared, one queue for all its out-links); ports that
// lead to a terminal are ejection, which takes any number of packets per
// cycle. A terminal's new packet is routed at its switch and joins the
// queue of its first link in the cycle it is created.
//
// Cycle t (Step), two-phase and order-independent:
//
//  1. Injection: the packets created for cycle t join their first queue
//     (with a bounded queue they wait in their terminal's source queue
//     until it has room, before any link arrival of the cycle); a packet
//     whose route is empty arrives at once (latency 0).
//  2. Evaluate, on the state registered at the end of cycle t−1 plus the
//     injections: every non-empty queue picks one packet by its discipline
//     (fifo: the oldest; furthest-first: most hops left in its leg, oldest
//     among ties; random: uniformly among the queued); a shared queue sends
//     the one it picks over the link that packet needs. With bounded
//     queues (Capacity > 0, backpressure) a packet moves only if its next
//     queue had a free slot at the start of the evaluation; when more
//     packets ask for a queue than it has free slots, the ones arriving on
//     the lowest in-port counted from (t mod in-ports) win. A refused
//     packet stays where it is. With dropping queues (Drop) nothing is
//     refused here: every chosen packet moves.
//  3. Commit: the chosen packets leave their queues and cross their links
//     (one packet per link per cycle). At the next node a packet either
//     arrives (its leg's target: delivered at cycle t+1, or parked at an
//     intermediate node) or is routed and joins the queue of its next link
//     in the same cycle; it cannot move again before cycle t+1. Packets
//     joining one queue in one cycle join in random order
//     (ArrivalOrder "random", the default: each queue's arrivals shuffled,
//     packet_arrive.go) or in scan order (by the queue they left, in queue
//     id order: by switch, then port; injections in creation order).
//     With dropping queues (Drop, Capacity > 0) a packet whose queue is
//     full when its turn in that order comes is dropped: the packets that left in this
//     cycle have freed their slots, so a full queue that sent one accepts
//     one arrival, and of several same-cycle arrivals the last ones in the
//     join order (a uniformly random set by default) are dropped. Only
//     packets arriving over a link are dropped: a packet starting a leg
//     (injected, or leaving its intermediate node) waits in its terminal's
//     source queue for room, as with backpressure (step 1).
//  4. Measures (digest §3.3), sampled at the start of each phase and after
//     each cycle's arrivals: node population = packets queued at the node
//     + packets that arrived there in this phase; the longest queue.
//  5. Phase barrier (Via with Barrier): when every packet has reached its
//     phase-p target, the packets parked at each node are shuffled and
//     start their next leg in the same instant (with bounded queues they
//     wait for room at the intermediate node as new packets do).
//
// Routes: by default (HopRoutes false) the source traces the whole leg
// through the topology's routing function when the leg starts and the
// packet carries the list of ports; otherwise each node calls the routing
// function as the packet arrives. Routers are pure given the packet's Aux
// (drawn once per leg by Router.Init), so both give the same paths.
// Everything random draws from the kernel's one source in a fixed order, so
// a seed fixes the run.

// PacketSpec configures the packet-switched router (KernelSpec.Packet).
type PacketSpec struct {
	// Discipline picks the packet a queue sends: "fifo" (or ""),
	// "furthest-first" or "random".
	Discipline string
	// Shared keeps one queue per node for all its out-links (§3.7.4).
	Shared bool
	// ArrivalOrder is the order of same-cycle joins to a queue: "random"
	// (or "") or "scan".
	ArrivalOrder string
	// HopRoutes decides routes hop by hop instead of carrying the route
	// computed at the source.
	HopRoutes bool
	// Capacity bounds every queue (backpressure); 0 is unbounded.
	Capacity int
	// Drop (with Capacity) drops a packet arriving over a link at a full
	// queue instead of holding it back (backpressure).
	Drop bool
	// Via, when set, gives each new packet an intermediate terminal (or −1
	// for none): the packet travels two legs, source → via → destination
	// (Valiant's phases). With Barrier, the second leg of every packet
	// starts only when every packet has finished its first.
	Via     func(w *flit.Worm, rng *rand.Rand) int32
	Barrier bool
	// Phase1First (with Via, no Barrier: Valiant's partial merging) makes
	// a queue send its oldest packet still in its first leg, if any, before
	// the others (FIFO within each leg).
	Phase1First bool
	// Schedule, when set, replaces routing and the queue discipline: the
	// nodes carry out a schedule slot by slot (packet_sched.go).
	Schedule SlotScheduler
}

// Queue disciplines.
const (
	discFIFO uint8 = iota
	discFurthest
	discRandom
)

// PhaseMeasures are one phase's measures in a batch experiment (digest
// §3.3): its completion time (from the phase's start to its last arrival),
// the largest node population and the longest queue at any sampled instant
// (and the largest count of queued packets at a node).
type PhaseMeasures struct {
	Time          int64
	MaxPopulation int32
	MaxQueue      int32
	// MaxQueuedPopulation counts a node's queued packets only (not the
	// arrived ones): the digest's reading of Brebner's shuffle-exchange
	// phase-1 populations (§8.1 item 2), reported beside the defined one.
	MaxQueuedPopulation int32
}

func init() { switchModels["packet"] = newPacketRouter }

// join is a packet joining queue q, at switch sw, at the end of a cycle's
// arrivals (or the injections), held until the cycle's joins are ordered.
type join struct {
	q, wi, sw int32
}

// joinOf is packet wi's join of queue q, at the switch the packet is at.
// (The general step's commitJoins reads the queue's switch from its own
// record instead, so TestPacketFastEqualsGeneral would see a join listed
// with another switch.)
func (p *packetRouter) joinOf(q, wi int32) join { return join{q, wi, elem(p.ps, wi).sw} }

// send is a queue's choice for the cycle: the packet at position pos.
type send struct {
	q, pos, wi int32
	to         int32 // queue it joins at the next node, -1 for ejection or not known yet
	rank       int32 // backpressure priority at the target (lower wins)
	ok         bool
}

// packetRouter is the stepper.
type packetRouter struct {
	spec      PacketSpec
	disc      uint8
	scan      bool
	cap       int32
	pt        []portRec  // per global port, the queue numbered by it and where its link leads
	pc        []portCold // per global port, what the hot path does not read
	portBase  []int32    // k.portBase (the send loop's local)
	rings     []int32    // the rings of the queues that outgrew their records (pktQueue.ext), blocks appended as they grow
	grown     []int32    // the queues whose ring has left their record
	waiting   []int32    // with Shared: per port, the packets queued to leave by it
	node      []nodeRec  // per switch
	portOfBuf []int32    // per buffer id: its global port (output buffers), or −1
	nonEmpty  queueSet   // the queues that hold a packet (evaluate visits only these)
	queued    []uint64   // bit gp: port gp has a queue (pc[gp].q ≥ 0; hasQueue)
	joins     []join
	fresh     []uint64 // scratch (markArrivals): bit q, queue q has an arrival in the batch
	again     []int32  // scratch (markArrivals): the batch's joins after their queue's first
	extra     []int32  // scratch: per queue, its arrivals in the batch (the fast step: after the first)
	collided  []int32  // the fast step's queues with more than one arrival in the batch
	arrIdx    []int32  // scratch (orderArrivals): per join, its queue's arrivals before it
	arrGrp    []int32  // scratch (orderArrivals): the joins' places, grouped by queue
	sends     []send
	lastMove  []int64
	parked    []int32 // packets at their intermediate node, waiting for the barrier
	outstand  int64   // packets not yet at their current leg's target
	pend      []int32 // scratch: joins or requests per queue

	// Per packet (worm pool index): its state in one record (a hop reads
	// one cache line), and its source route.
	ps         []pktState
	routes     [][]uint8                   // source routes longer than inlineHops: the leg's ports
	rbuf       []uint8                     // scratch: the route being traced
	longRoutes bool                        // a route has been longer than inlineHops
	wholePaths bool                        // the router gives a leg in one call (routePath)
	path       topology.PathRouter         // the routing function when it gives whole paths (not stateful), else nil
	spath      topology.StatefulPathRouter // the same for a stateful one
	st         flit.RouteState             // scratch: a stateful router's state along a traced leg (a local would escape to the heap)

	phases     []PhaseMeasures
	phaseStart int64
	lastArrive int64

	sch *schedState // scheduled slots (Schedule), else nil

	// The channel counts (k.chans): RestartIdle turns counting off for
	// the fast step (an experiment's outcome reads none; the general step
	// always counts, and checks one packet per link and cycle); dirty says
	// a step may have changed them since they were last zeroed.
	countLinks, chansDirty bool

	fast      bool    // the configuration allows the fast step (packet_fast.go)
	fastSteps int64   // cycles it took (tests check that it ran)
	senders   []int32 // scratch: the fast step's sending queues in a cycle

	multi *multiState // multiple reads and writes (packet_multi.go), else nil
}

func newPacketRouter(k *Kernel) Stepper {
	s := k.spec.Packet
	p := &packetRouter{spec: s, cap: int32(s.Capacity), scan: s.ArrivalOrder == "scan", countLinks: true}
	switch s.Discipline {
	case "furthest-first":
		p.disc = discFurthest
	case "random":
		p.disc = discRandom
	}
	k.fast = false // (the flit crossbar's fast path and lanes do not apply)
	if s.Schedule != nil {
		p.spec.Shared = true // (one queue per node: the schedule picks the link)
	}
	if pr, ok := k.Topo.Router.(topology.PathRouter); ok && k.stateful == nil {
		p.path = pr
		p.wholePaths = !s.HopRoutes
	}
	if sp, ok := k.stateful.(topology.StatefulPathRouter); ok {
		p.spath = sp
		p.wholePaths = !s.HopRoutes
	}
	k.initAtPlace = s.Via != nil && s.Schedule == nil // (place draws the first leg's Init)
	p.layout(k)
	if s.Schedule != nil {
		p.initSched(k)
	}
	p.phases = []PhaseMeasures{{}}
	p.rbuf = make([]uint8, 0, 64) // (room for a path router's whole leg)
	p.fast = p.fastOK()
	return p
}

// layout numbers the queues (each by its first port) and maps ports to the
// kernel's output buffers (which name them in traces and reports).
func (p *packetRouter) layout(k *Kernel) {
	t := k.Topo
	np := k.portBase[len(t.Switches)]
	p.pt, p.portBase = make([]portRec, np), k.portBase
	p.pc = make([]portCold, np)
	for i := range p.pc {
		p.pc[i] = portCold{q: -1, buf: -1, sw: -1}
	}
	p.portOfBuf = fill(int(k.nb), -1)
	for b := int32(0); b < k.nb; b++ {
		if k.bs[b].kind == kindOut {
			gp := k.portBase[k.bSw[b]] + k.bPort[b]
			p.pc[gp].buf, p.portOfBuf[b] = b, gp
		}
	}
	if p.spec.Shared {
		p.waiting = make([]int32, np)
	}
	for si, sw := range t.Switches {
		first := int32(-1)
		for o, e := range sw.Out {
			gp := k.portBase[si] + int32(o)
			p.pt[gp].far, p.pc[gp].sw = farEnd{e.Switch, e.Port}, int32(si)
			if e.Switch < 0 {
				p.pt[gp].far.in = e.Terminal
				continue
			}
			if p.spec.Shared && first >= 0 {
				p.pc[gp].q = first
				continue
			}
			p.pc[gp].q, first = gp, gp
		}
	}
	p.nonEmpty = newQueueSet(np)
	p.queued = make([]uint64, (np+63)/64)
	p.fresh = make([]uint64, (np+63)/64)
	for gp := range p.pc {
		if p.pc[gp].q >= 0 {
			p.queued[gp>>6] |= 1 << (gp & 63)
		}
	}
	p.lastMove = make([]int64, np)
	p.node = make([]nodeRec, len(t.Switches))
}

// portRec is what the router keeps per global port that a packet's join
// or send reads: the queue numbered by the port (a queue's id is its
// first port's; empty for other ports) and where its link leads, 24
// bytes, so that the 12-cube's 53 248 of them take 1.3 MB and stay in a
// core's L2 cache (at 64 bytes a hop's join was a miss to L3: speed.md);
// a join reads the queue's 16 bytes (one cache line seven times in eight),
// a send the whole record (one line three times in four).
type portRec struct {
	pktQueue
	far farEnd
}

// portCold is what the router keeps per global port that a packet's
// join or send in the fast step does not read.
type portCold struct {
	q   int32 // its queue, or −1 (ejection, unconnected)
	buf int32 // the kernel buffer id that names it in traces, or −1
	sw  int32 // its switch
}

// hasQueue reports whether port gp has a queue (is no ejection port), from
// a bit: the port's record, at another switch, was a cache miss.
func (p *packetRouter) hasQueue(gp int32) bool {
	return *elem(p.queued, gp>>6)>>(gp&63)&1 != 0
}

// queueOf is the queue that packets leaving by port gp join (its own or,
// with Shared, its switch's), or −1 (an ejection port).
func (p *packetRouter) queueOf(gp int32) int32 {
	if p.spec.Shared {
		return elem(p.pc, gp).q
	}
	if p.hasQueue(gp) {
		return gp
	}
	return -1
}

// growQueue makes room in queue q's full ring: a block of four, then of
// twice the length, appended to the slab of rings, noting the queues whose
// packets have left their record. (The old block stays unused until the
// router restarts: a queue grows at most log₂ of its longest.)
func (p *packetRouter) growQueue(q int32) {
	x := elem(p.pt, q)
	m := int32(3)
	if x.ext == 0 {
		p.grown = append(p.grown, q)
	} else {
		m = 2*p.rings[x.ext-1] + 1
	}
	n := len(p.rings) // (the oldest's position, the mask, then the ring)
	p.rings = slices.Grow(p.rings, int(m+3))[:n+int(m+3)]
	p.rings[n+1] = m
	x.grow(p.rings, int32(n)+2)
}

// shrinkQueues puts the packets of the (empty) queues that grew back in
// their records, and empties the slab.
func (p *packetRouter) shrinkQueues() {
	for _, q := range p.grown {
		p.pt[q].ext = 0
	}
	p.grown = p.grown[:0]
	p.rings = p.rings[:0]
}

// nodeRec is a switch's counts for the population measure.
type nodeRec struct {
	queued  int32 // packets queued there
	arrived int32 // packets that arrived there in this phase
}

// farEnd is the far end of a port's link: input port in of switch sw, or
// (sw −1) terminal in.
type farEnd struct{ sw, in int32 }

// pktState is a packet's state in the router.
type pktState struct {
	sw    int32 // switch it is at
	in    int32 // input port it arrived on there
	port  int32 // global port it leaves by (its queue's link)
	left  int32 // hops left in its leg
	hops  int32 // links crossed so far
	final int32 // final destination while on its first leg, else −1
	pos   int32 // next entry of its source route
	rlen  int32 // its length
	next  int32 // hop routes with backpressure: its port at the next switch, decided, or −1
	leg   uint8
	// inl holds a source route of up to inlineHops ports (longer ones are
	// in packetRouter.routes), so that a hop reads one record: 64 bytes.
	inl [inlineHops]uint8
}

// inlineHops is the longest source route kept in the packet's record.
const inlineHops = 27

// grow makes the per-packet arrays cover pool index wi.
func (p *packetRouter) grow(wi int32) {
	for int(wi) >= len(p.ps) {
		p.ps = append(p.ps, pktState{final: -1, next: -1})
		p.routes = append(p.routes, nil)
	}
}
