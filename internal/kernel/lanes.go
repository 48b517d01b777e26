package kernel

import (
	"cmp"
	"runtime"
	"slices"
	"sync/atomic"

	"github.com/flitsim/flitsim/flit"
)

// A lane is one worker's share of a fast-path cycle: the buffers [lo, hi)
// and the switches their worms are routed at. The serial kernel has one
// lane covering every buffer (Kernel.whole); with two workers the buffers
// are cut at a switch boundary into two lanes, and each phase of the cycle
// runs on both lanes at once (see crew).
//
// Within a phase a lane writes only its own buffers, switches and links.
// What crosses the cut is listed and applied by the lane it belongs to: at
// the end of the leave phase each lane takes the flits the other moved into
// its buffers and the ports of its switches the other's tails released (a
// release takes effect from the next cycle, so when in this cycle it is
// applied does not matter; arrivals commute, as each buffer has one input
// channel). Ejections are delivered serially after the last phase (settle),
// in buffer order, so statistics and hooks see the same order as with one
// lane. The second lane starts on a bitset word of its own (alignCut), the
// bitsets keep their words on lines of their own (bitset), and lanes'
// fields are padded apart, so the lanes write no cache line in common.
type lane struct {
	// mark is seq<<2 | the last step of phase seq this lane has done
	// (stepRouted...), for the other lane to wait on (await); read and
	// written atomically. It has a cache line of its own: the other lane
	// reads it over and over while it waits, and would take the line from
	// this lane's core at each write to a field beside it.
	mark uint32
	// gate is where this lane sleeps in await when the other lane is
	// long in coming (see crew); the other lane opens it at each reach.
	// The pointer is never written after newLane, so it may share mark's
	// line.
	gate *gate
	_    [48]byte
	seq  uint32 // the phase this lane runs (crew's count)

	lo, hi  int32
	memo    []uint32 // flow memo (the whole-network lane's serves the general path too)
	flowOut []int32  // backs moves, ejm and wait (flow's first pass writes all three by one pointer)
	moves   []int32
	wait    []int32 // flow: buffers whose destination is full
	ejm     []int32 // flow: moves into terminals, before they join moves
	nbuf    int     // moves into buffers, ahead of those into terminals
	popped  []flit.Flit
	tails   []int32 // positions in moves of this cycle's tails
	srcs    []int32 // positions in moves of this cycle's source registers
	posted  []int32 // switches with requests this cycle
	offered []int32 // ports offered this cycle (offer): the first noff
	noff    int
	won     []int32   // room to list the switches with a winner this cycle (award)
	cross   []arrival // flits leaving this lane for the other lane's buffers
	rels    []int32   // ports of the other lane's switches released this cycle
	ej      []sunk    // flits this lane sank at terminals, for settle
	hops    int64     // flit-hops this cycle
	maxOcc  int32     // most flits a buffer of this lane held
	// Flits this lane sank at terminals this cycle, and those of them in
	// the measurement window (the statistics' delivered flits).
	ejected, winEj int64
	viol           Violations // invariant violations seen by this lane
	_              [64]byte   // the next lane's fields start on another cache line
}

// arrival is a flit on its way into buffer (or sink) d.
type arrival struct {
	f  flit.Flit
	at int64
	d  int32
}

func newLane(lo, hi, nb int32) lane {
	l := lane{lo: lo, hi: hi, gate: newGate()}
	l.roomFlow(min(hi-lo, laneRoom0))
	l.roomLeave(int(min(hi-lo, laneRoom0)))
	l.memo = make([]uint32, nb)
	adviseHuge(l.memo)
	return l
}

// laneRoom0 is the room a lane's lists start with; they grow with the busy
// set (roomFlow, roomLeave), where room for every buffer of a large network
// was 40 bytes per buffer of which a light load uses a few percent.
const laneRoom0 = 256

// roomFlow makes room in flow's lists (moves, ejm, wait: out's thirds) for
// n buffers each, n at most the lane's buffers; it allocates only when n
// exceeds every earlier busy set (the room doubles).
func (l *lane) roomFlow(n int32) {
	if c := int32(cap(l.moves)); c >= n && l.flowOut != nil {
		return
	}
	c := min(max(n, 2*int32(cap(l.moves))), l.hi-l.lo)
	out := make([]int32, 3*c)
	l.flowOut, l.moves, l.ejm, l.wait = out, out[0:0:c], out[c:c:2*c], out[2*c:2*c:3*c]
}

// roomLeave makes room in leave's lists for n moves.
func (l *lane) roomLeave(n int) {
	if cap(l.popped) >= n && l.tails != nil {
		return
	}
	c := max(n, 2*cap(l.popped))
	l.popped, l.tails, l.srcs = make([]flit.Flit, 0, c), make([]int32, c), make([]int32, c)
}

// laneOf is the lane buffer b belongs to.
func (k *Kernel) laneOf(b int32) int {
	if b >= k.cutAt {
		return 1
	}
	return 0
}

// SetWorkers splits the kernel into lanes for n workers: 1 or 2, or 0 for
// automatic, which keeps both arrangements and lets the tuner (tune.go) run
// each stretch of cycles on the faster. It reports the most workers the
// kernel may use, which is 1 when the network cannot be cut (see cut), is
// too small to be worth timing, or the process has one processor.
func (k *Kernel) SetWorkers(n int) int {
	k.lanes, k.cutAt, k.tuner = nil, k.nb, nil
	auto := n == 0
	if auto {
		if runtime.GOMAXPROCS(0) < 2 || k.nb < autoMinBuffers {
			return 1
		}
		n = 2
	}
	if n < 2 || !k.fast {
		return 1
	}
	c := k.cut()
	if c < 0 {
		return 1
	}
	c = k.alignCut(c)
	k.pair = []lane{newLane(0, c, k.nb), newLane(c, k.nb, k.nb)}
	k.pairCut = c
	k.swLane = make([]uint8, len(k.sw))
	for g := range k.sw {
		if lo, hi := k.grpAt[g], k.grpAt[g+1]; lo >= c && hi > lo {
			k.swLane[g] = 1 // (a group lies on one side of the cut)
		}
	}
	if auto {
		k.tuner = newTuner()
	} else {
		k.useLanes(true)
	}
	return 2
}

// useLanes switches the fast path between one lane and the two of pair. It
// is called between cycles, when no lane holds anything for settle.
func (k *Kernel) useLanes(two bool) {
	if two {
		k.lanes, k.cutAt = k.pair, k.pairCut
	} else {
		k.lanes, k.cutAt = nil, k.nb
	}
}

// cut finds a buffer id near the middle at which the network splits into
// two lanes that share no switch: every buffer routed at a switch lies on
// the switch's side (the layout's groups make any boundary between them
// such a cut). It tries the few group boundaries nearest the middle and
// returns -1 when none splits.
func (k *Kernel) cut() int32 {
	var cand []int32
	for _, b := range k.grpAt {
		if b > 0 && b < k.nb && (len(cand) == 0 || cand[len(cand)-1] != b) {
			cand = append(cand, b)
		}
	}
	slices.SortStableFunc(cand, func(a, b int32) int { return cmp.Compare(abs32(a-k.nb/2), abs32(b-k.nb/2)) })
	for _, c := range cand[:min(len(cand), 8)] {
		if k.splits(c) {
			return c
		}
	}
	return -1
}

// alignCut lays the buffers out again with empty ids (kindGap) before the
// group that starts at cut c, so that the second lane starts at a multiple
// of 64, and returns the new cut. The lanes then share no bitset word: one
// they shared would need atomic writes and would pass between the cores
// several times a phase (measured: 5-7 % of a two-lane 8×8 mesh's time).
// It runs before the first cycle.
func (k *Kernel) alignCut(c int32) int32 {
	gap := -c & 63
	if gap == 0 {
		return c
	}
	k.layout(k.spec, c, gap)
	return c + gap
}

func (k *Kernel) splits(c int32) bool {
	side := make([]int8, len(k.sw)) // 0 unknown, 1 below the cut, 2 above
	agree := func(s, b int32) bool {
		want := int8(1)
		if b >= c {
			want = 2
		}
		if side[s] == 0 {
			side[s] = want
		}
		return side[s] == want
	}
	for b := int32(0); b < k.nb; b++ {
		x := &k.bs[b]
		if x.home >= 0 && !agree(x.home, b) {
			return false
		}
	}
	return true
}

func abs32(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}

// Phases of a fast cycle that run on every lane.
const (
	phaseRoute = iota // route and allocate
	phaseFlow         // decide the moves
	phaseLeave        // move the flits (into this lane's buffers, then those the other lane hands over)
	phaseCycle        // all three, the lanes waiting only for what they read of each other (steps)
)

// Steps within a phase that the other lane may wait for (await). Waiting
// for a step of the other lane costs one pass of a cache line between the
// cores, where a phase posted and reported costs two and a serial gap.
const (
	stepRouted = 1 // routed and allocated: its grants and allocation bits are final
	stepFlowed = 2 // flow decided: it reads no more of the other lane's buffers
	stepHanded = 3 // leave listed the flits and releases for the other lane
)

// reach publishes that lane l has done step s of its current phase.
func (k *Kernel) reach(l *lane, s uint32) {
	atomic.StoreUint32(&l.mark, l.seq<<2|s)
	k.lanes[1-k.laneOf(l.lo)].gate.open()
}

// await returns once the other lane has done step s of l's current phase.
// (Both lanes run the phase, so it never waits for a phase to be posted.)
func (k *Kernel) await(l *lane, s uint32) {
	o := &k.lanes[1-k.laneOf(l.lo)]
	idle := k.idle
	if l != &k.lanes[0] {
		idle = nil // (the helper's)
	}
	wait(func() bool {
		if m := atomic.LoadUint32(&o.mark); m>>2 == l.seq && m&3 >= s {
			return true
		}
		if idle != nil {
			idle()
		}
		return false
	}, stepSpin, l.gate)
	if l == &k.lanes[0] {
		k.crew.raise() // (the helper's panic shows its steps done)
	}
}

func (k *Kernel) runPhase(p int32, l *lane) {
	two := k.lanes != nil
	switch p {
	case phaseRoute:
		if two {
			k.placeOwn(l)
		}
		k.route(l)
		k.allocate(l)
	case phaseFlow:
		k.flowFast(l, true)
	case phaseLeave:
		k.leave(l)
	case phaseCycle:
		if two {
			k.placeOwn(l)
		}
		k.route(l)
		k.allocate(l)
		if two {
			k.reach(l, stepRouted)
		}
		k.flowFast(l, !two)
		if two {
			k.reach(l, stepFlowed)
			k.await(l, stepFlowed)
		}
		k.leave(l)
	}
}

// phase runs phase p on every lane and returns when all are done.
func (k *Kernel) phase(p int32) {
	if k.lanes == nil {
		k.runPhase(p, &k.whole)
		return
	}
	c := k.crew
	if c == nil {
		// Started on first use: a network whose cycles never take the
		// fast path on two lanes (multicast, a tuner that keeps one
		// lane) costs no goroutine.
		c = newCrew()
		k.crew = c
		runtime.AddCleanup(k, func(c *crew) { c.stop() }, c)
	}
	c.raise() // (a helper that panicked has ended)
	if c.k != k {
		c.k = k
	}
	s := (c.seq + 1) & seqMask
	c.seq = s
	c.post.Store(s<<2 | uint32(p))
	c.idle.open()
	k.lanes[0].seq = s
	k.runPhase(p, &k.lanes[0])
	early := p >= phaseLeave && k.Hooks.Ejected == nil && k.Hooks.Delivered == nil
	if early {
		// Lane 0's deliveries come first and need nothing of lane 1's:
		// they are made while lane 1 finishes (unless hooks, which may
		// look at any of the network, would then run beside lane 1).
		k.settle(&k.lanes[0])
	}
	// Wait for the helper: spin for a while (its share takes about as long
	// as this thread's), then sleep rather than spin on a core it may need
	// (when other programs share the cores).
	wait(func() bool {
		if c.done.Load() == s {
			return true
		}
		if k.idle != nil {
			k.idle()
		}
		return false
	}, stepSpin, c.finished)
	c.raise()
	if p >= phaseLeave { // (the cycle's last phase)
		if !early {
			k.settle(&k.lanes[0])
		}
		k.settle(&k.lanes[1])
		c.k = nil // an idle crew holds no kernel, so the kernel can be collected
	}
}
