package network

import (
	"fmt"
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
)

// Routing state of the worm at the front of a routing buffer.
const (
	stIdle uint8 = iota
	stRequesting
	stGranted
)

// Flow memo values for the current cycle.
const (
	memoVisiting uint8 = iota + 1
	memoYes
	memoNo
)

// chanRouted marks a buffer whose moves cross the links of the ports they
// were routed to (input-buffered switches without output buffers).
const chanRouted = -2

// Hooks lets observers see deliveries (the Akita endpoints, tests). Nil
// functions are skipped.
type Hooks struct {
	// Delivered is called when a packet's tail reaches its destination.
	Delivered func(w *flit.Worm, cycle int64)
}

// bufState is one buffer and what decides the moves out of it.
type bufState struct {
	flit.Buffer
	mask   xbar.PortSet // ports requested/granted at rSw for the front worm
	rSw    int32        // switch whose routing unit decides moves out of b, or -1
	rIn    int32        // input port at rSw
	fixed  int32        // destination of moves out of b when rSw < 0
	lat    int32        // cycles a move out of b takes
	rel    int32        // global port released when a tail leaves b, or -1
	ch     int32        // channel crossed by moves out of b: -1 none, chanRouted
	moved  int64        // last cycle a flit left b
	maxOcc int32        // most flits held
	memoE  uint32       // epoch of memo
	kind   uint8
	st     uint8
	memo   uint8
}

// Kernel is the cycle-level state of one network. All per-buffer and
// per-port state lives in flat typed slices indexed by buffer id or global
// port id, so a cycle touches no map and allocates nothing.
type Kernel struct {
	Topo  *topology.Topology
	mode  link.Mode
	reuse bool
	delay int64
	now   int64
	rng   *rand.Rand
	Pool  flit.Pool
	Hooks Hooks

	// Buffers: ids [0, nb); destinations ≥ nb encode terminal sinks. The
	// per-buffer state the cycle loop touches sits in one struct per buffer
	// (one or two cache lines); cold data lives in side arrays.
	bs    []bufState
	bSw   []int32 // switch the buffer belongs to (terminal for sources)
	bPort []int32 // port at that switch
	nb    int32
	epoch uint32 // stamp of the current cycle's flow memo

	// Ports: global port id = portBase[s] + port.
	portBase []int32
	portSw   []int32 // switch of each global port
	pDest    []int32 // buffer (or sink) a flit reaches through the port
	Links    []link.Link
	sw       []xbar.Switch
	outBuf   bool // switches have output buffers (ports are released there)
	injLinks []link.Link

	// Terminals.
	srcBuf []int32
	queues []wormQueue

	// Per-cycle scratch, sized once.
	active  []uint64 // buffers holding a flit
	heads   []uint64 // routing buffers with an unrouted head at the front
	posted  []int32  // switches with requests this cycle
	moves   []int32
	popped  []flit.Flit
	stalled []int32
	moved   int
	rear    []int32 // deadlock check scratch: per worm, buffer of its newest flit
	rearSeq []int32
	wg      waitGraph

	// CheckDeadlock asks the next Step to run the wait-for-graph check (it
	// also runs on its own in any cycle in which no flit moves). Deadlock is
	// set when a check finds one.
	CheckDeadlock bool
	Deadlock      *Deadlock

	// FlitHops counts flits crossing a switch (every replicated copy counts).
	FlitHops int64

	// Invariant counters (tests assert they stay zero).
	Violations Violations

	stats *collector
}

// Violations counts broken invariants; every field must stay zero.
type Violations struct {
	ChannelOverUse int64 // a channel carried two flits in one cycle
	OutOfOrder     int64 // a flit arrived before an earlier flit of its packet
	Misdelivered   int64 // a flit reached the wrong terminal
	Overflow       int64 // a buffer held more flits than its depth
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

func (q *wormQueue) push(w int32) {
	if q.n == len(q.buf) {
		nb := make([]int32, max(8, 2*len(q.buf)))
		for i := 0; i < q.n; i++ {
			nb[i] = q.buf[(q.head+i)%len(q.buf)]
		}
		q.buf, q.head = nb, 0
	}
	q.buf[(q.head+q.n)%len(q.buf)] = w
	q.n++
}

func (q *wormQueue) front() int32 { return q.buf[q.head] }

func (q *wormQueue) pop() {
	q.head = (q.head + 1) % len(q.buf)
	q.n--
}

// KernelSpec is what NewKernel needs beyond the topology.
type KernelSpec struct {
	Mode       link.Mode
	InDepth    int
	OutDepth   int
	Latency    int
	Delay      int
	Reuse      bool
	Policy     xbar.Policy
	Seed       uint64
	SourceOnly bool // reserved
}

// NewKernel lays out the buffers, ports and links of topology t.
func NewKernel(t *topology.Topology, s KernelSpec) (*Kernel, error) {
	if s.InDepth <= 0 && s.OutDepth <= 0 {
		return nil, &ConfigError{Key: "buffers", Value: "input 0, output 0", Allowed: "at least one of buffers.input and buffers.output ≥ 1"}
	}
	if s.Latency < 1 {
		return nil, badKey("link.latency", s.Latency, "an integer ≥ 1")
	}
	k := &Kernel{
		Topo:   t,
		mode:   s.Mode,
		reuse:  s.Reuse,
		delay:  int64(s.Delay),
		rng:    rand.New(rand.NewPCG(s.Seed, 0x9e3779b97f4a7c15)),
		outBuf: s.OutDepth > 0,
	}
	k.layout(s)
	return k, nil
}

func (k *Kernel) layout(s KernelSpec) {
	t := k.Topo
	ns := len(t.Switches)
	k.portBase = make([]int32, ns+1)
	for i, sw := range t.Switches {
		k.portBase[i+1] = k.portBase[i] + int32(len(sw.Out))
	}
	np := k.portBase[ns]
	k.portSw = make([]int32, np)
	for i := 0; i < ns; i++ {
		for p := k.portBase[i]; p < k.portBase[i+1]; p++ {
			k.portSw[p] = int32(i)
		}
	}
	// Which input ports are fed (by a link or a terminal).
	fed := make([]bool, np)
	for _, sw := range t.Switches {
		for _, e := range sw.Out {
			if e.Switch >= 0 {
				fed[k.portBase[e.Switch]+e.Port] = true
			}
		}
	}
	for term := range t.InSwitch {
		fed[k.portBase[t.InSwitch[term]]+t.InPort[term]] = true
	}
	inID := make([]int32, np)
	outID := make([]int32, np)
	for i := range inID {
		inID[i], outID[i] = -1, -1
	}
	var depth []int
	var kinds []uint8
	add := func(kind uint8, sw, port int32, d int) int32 {
		id := int32(len(kinds))
		kinds = append(kinds, kind)
		k.bSw = append(k.bSw, sw)
		k.bPort = append(k.bPort, port)
		depth = append(depth, d)
		return id
	}
	for si, sw := range t.Switches {
		for p, e := range sw.Out {
			gp := k.portBase[si] + int32(p)
			if s.InDepth > 0 && fed[gp] {
				inID[gp] = add(kindIn, int32(si), int32(p), s.InDepth)
			}
			if s.OutDepth > 0 && (e.Switch >= 0 || e.Terminal >= 0) {
				outID[gp] = add(kindOut, int32(si), int32(p), s.OutDepth)
			}
		}
	}
	nterm := t.Terminals()
	k.srcBuf = make([]int32, nterm)
	for term := 0; term < nterm; term++ {
		k.srcBuf[term] = add(kindSource, int32(term), -1, 1)
	}
	nb := int32(len(kinds))
	k.nb = nb
	sink := func(term int32) int32 { return nb + term }
	// farIn is the buffer or sink a flit reaches over the link of port gp.
	farIn := func(e topology.End) int32 {
		if e.Switch < 0 {
			return sink(e.Terminal)
		}
		return inID[k.portBase[e.Switch]+e.Port]
	}

	k.bs = make([]bufState, nb)
	total := 0
	for _, d := range depth {
		total += d
	}
	storage := make([]flit.Flit, total)
	off := 0
	for i, d := range depth {
		k.bs[i].Init(storage[off : off+d : off+d])
		off += d
	}
	for i := range k.bs {
		x := &k.bs[i]
		x.rSw, x.rIn, x.fixed, x.lat, x.rel, x.ch = -1, -1, -1, 1, -1, -1
		x.kind = kinds[i]
	}
	k.pDest = fill(int(np), -1)
	k.Links = make([]link.Link, np)
	for i := range k.Links {
		k.Links[i] = link.New(s.Latency)
	}
	k.injLinks = make([]link.Link, nterm)
	for i := range k.injLinks {
		k.injLinks[i] = link.New(s.Latency)
	}
	L := int32(s.Latency)
	for si, sw := range t.Switches {
		for p, e := range sw.Out {
			gp := k.portBase[si] + int32(p)
			if s.OutDepth > 0 {
				k.pDest[gp] = outID[gp]
			} else if e.Switch >= 0 || e.Terminal >= 0 {
				k.pDest[gp] = farIn(e)
			}
			if b := inID[gp]; b >= 0 {
				k.bs[b].rSw, k.bs[b].rIn = int32(si), int32(p)
				if s.OutDepth > 0 {
					k.bs[b].lat = 1 // crossbar only
				} else {
					k.bs[b].lat, k.bs[b].ch = L, chanRouted
				}
			}
			if b := outID[gp]; b >= 0 {
				k.bs[b].lat, k.bs[b].rel, k.bs[b].ch = L, gp, gp
				switch {
				case s.InDepth > 0 || e.Switch < 0:
					k.bs[b].fixed = farIn(e)
				default: // output-buffered only: route at the next switch
					k.bs[b].rSw, k.bs[b].rIn = e.Switch, e.Port
				}
			}
		}
	}
	for term := 0; term < nterm; term++ {
		b := k.srcBuf[term]
		k.bs[b].lat, k.bs[b].ch = L, np+int32(term)
		in := k.portBase[t.InSwitch[term]] + t.InPort[term]
		if s.InDepth > 0 {
			k.bs[b].fixed = inID[in]
		} else {
			k.bs[b].rSw, k.bs[b].rIn = t.InSwitch[term], t.InPort[term]
		}
	}
	k.sw = make([]xbar.Switch, ns)
	for i, sw := range t.Switches {
		k.sw[i] = xbar.New(len(sw.Out), s.Policy)
	}
	k.queues = make([]wormQueue, nterm)
	k.active = make([]uint64, (nb+63)/64)
	k.heads = make([]uint64, (nb+63)/64)
	k.moves = make([]int32, 0, nb)
	k.popped = make([]flit.Flit, 0, nb)
}

func fill(n int, v int32) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = v
	}
	return s
}

func fill64(n int, v int64) []int64 {
	s := make([]int64, n)
	for i := range s {
		s[i] = v
	}
	return s
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

// Enqueue creates a packet at terminal src for dst with the given length in
// the current cycle and queues it at the source interface. It returns the
// worm's pool index.
func (k *Kernel) Enqueue(src, dst, flits int) int32 {
	wi := k.Pool.Get()
	w := &k.Pool.Worms[wi]
	w.Src, w.Dst, w.Len = int32(src), int32(dst), int32(flits)
	w.GenCycle = k.now
	w.InjCycle = -1
	k.Topo.Router.Init(w, k.rng)
	if k.stats != nil {
		k.stats.generated(w, k.now)
	}
	q := &k.queues[src]
	q.push(wi)
	k.refill(int32(src), k.now)
	return wi
}

// refill puts the next flit of the front packet into terminal term's
// source register if it is empty.
func (k *Kernel) refill(term int32, readyAt int64) {
	b := k.srcBuf[term]
	buf := &k.bs[b]
	q := &k.queues[term]
	if !buf.Empty() || q.n == 0 {
		return
	}
	wi := q.front()
	w := &k.Pool.Worms[wi]
	if w.Issued == 0 && k.bs[b].rSw >= 0 {
		readyAt += k.delay
	}
	f := flit.Flit{Worm: wi, Seq: w.Issued, Kind: flit.KindOf(w.Issued, w.Len)}
	f.SetReady(readyAt)
	w.Issued++
	if w.Issued == w.Len {
		q.pop()
	}
	buf.Push(f)
	k.setActive(b)
	k.noteHead(b)
}

func (k *Kernel) anyActive() bool {
	for _, w := range k.active {
		if w != 0 {
			return true
		}
	}
	return false
}

func (k *Kernel) setActive(b int32)   { k.active[b>>6] |= 1 << uint(b&63) }
func (k *Kernel) clearActive(b int32) { k.active[b>>6] &^= 1 << uint(b&63) }

// Step simulates one cycle.
func (k *Kernel) Step() {
	k.route()
	k.allocate()
	k.flow()
	if k.Deadlock == nil && (k.CheckDeadlock || len(k.moves) == 0 && k.anyActive()) {
		k.Deadlock = k.detect()
	}
	k.commit()
	k.now++
}

// route posts a request for every head at the front of a routing buffer
// that holds no ports yet. A head whose ports are held by another worm is
// not posted: it cannot win this cycle.
func (k *Kernel) route() {
	for wi, word := range k.heads {
		for word != 0 {
			b := int32(wi<<6 | bits.TrailingZeros64(word))
			word &= word - 1
			x := &k.bs[b]
			f := x.Front()
			if !f.Ready(k.now) {
				continue
			}
			w := &k.Pool.Worms[f.Worm]
			s := x.rSw
			if x.st == stIdle {
				x.mask = k.Topo.Router.Route(int(s), int(x.rIn), w)
				x.st = stRequesting
			}
			sw := &k.sw[s]
			if !sw.Grantable(x.mask) {
				continue
			}
			if !sw.Pending() {
				k.posted = append(k.posted, s)
			}
			sw.Post(xbar.Request{In: x.rIn, Want: x.mask, Worm: f.Worm, Age: w.GenCycle, Src: w.Src, ID: w.ID, Buf: b})
		}
	}
}

// allocate runs the arbiter of every switch that has requests.
func (k *Kernel) allocate() {
	for _, s := range k.posted {
		k.sw[s].Arbitrate(k.grant)
	}
	k.posted = k.posted[:0]
}

func (k *Kernel) grant(r *xbar.Request) {
	k.bs[r.Buf].st = stGranted
	k.heads[r.Buf>>6] &^= 1 << uint(r.Buf&63)
}

// noteHead marks b as holding an unrouted head at its front, if it does.
func (k *Kernel) noteHead(b int32) {
	x := &k.bs[b]
	if x.rSw >= 0 && x.st != stGranted && x.Front().Seq == 0 {
		k.heads[b>>6] |= 1 << uint(b&63)
	}
}

// flow decides which front flits move this cycle.
func (k *Kernel) flow() {
	k.epoch++
	if k.epoch == 0 { // wrapped: forget every stale stamp
		for i := range k.bs {
			k.bs[i].memoE = 0
		}
		k.epoch = 1
	}
	k.moves = k.moves[:0]
	for wi, word := range k.active {
		for word != 0 {
			b := int32(wi<<6 | bits.TrailingZeros64(word))
			word &= word - 1
			if x := &k.bs[b]; x.memoE == k.epoch {
				if x.memo == memoYes {
					k.moves = append(k.moves, b)
				}
			} else if k.canMove(b) {
				k.moves = append(k.moves, b)
			}
		}
	}
}

// canMove reports whether the front flit of b leaves b in this cycle. The
// result is memoised per cycle; a buffer met again while its own answer is
// being computed (a cycle of full buffers) cannot move, as a combinational
// loop of ready signals never asserts.
func (k *Kernel) canMove(b int32) bool {
	x := &k.bs[b]
	if x.memoE == k.epoch {
		return x.memo == memoYes
	}
	x.memoE = k.epoch
	x.memo = memoVisiting
	if k.evalMove(x) {
		x.memo = memoYes
		return true
	}
	x.memo = memoNo
	return false
}

// moving reports whether flow decided that b's front flit moves this cycle.
func (k *Kernel) moving(b int32) bool {
	x := &k.bs[b]
	return x.memoE == k.epoch && x.memo == memoYes
}

func (k *Kernel) evalMove(x *bufState) bool {
	if x.Empty() {
		return false
	}
	f := x.Front()
	if !f.Ready(k.now) {
		return false
	}
	if x.rSw >= 0 && x.st != stGranted {
		return false
	}
	need := 1
	if f.Seq == 0 && k.mode != link.Wormhole {
		w := &k.Pool.Worms[f.Worm]
		if k.mode == link.SAF && x.kind != kindSource && !k.wholeIn(x, w) {
			return false // the source holds the whole packet by construction
		}
		if k.mode == link.VCT {
			need = int(w.Len)
		}
	}
	if x.rSw < 0 {
		return k.hasRoom(x.fixed, need)
	}
	base := k.portBase[x.rSw]
	for m := x.mask; m != 0; {
		if !k.hasRoom(k.pDest[base+int32(m.Next())], need) {
			return false
		}
	}
	return true
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
	k.popped = k.popped[:0]
	now := k.now
	for _, b := range k.moves {
		x := &k.bs[b]
		f := x.Pop()
		k.popped = append(k.popped, f)
		x.moved = now
		if f.Kind >= flit.Tail {
			x.st = stIdle // a tail leaves: the next worm starts afresh
		}
		if x.Empty() {
			k.active[b>>6] &^= 1 << uint(b&63)
		} else if x.rSw >= 0 && x.st != stGranted && x.Front().Seq == 0 {
			k.heads[b>>6] |= 1 << uint(b&63)
		}
	}
	k.moved = len(k.moves)
	for i, b := range k.moves {
		f := k.popped[i]
		x := &k.bs[b]
		arrive := now + int64(x.lat)
		k.carry(x)
		if s := x.rSw; s >= 0 {
			if f.Kind == flit.Head || f.Kind == flit.HeadTail {
				w := &k.Pool.Worms[f.Worm]
				w.Hops++
				if x.kind == kindSource {
					w.InjCycle = now
				}
			}
			base := k.portBase[s]
			for m := x.mask; m != 0; {
				k.FlitHops++
				k.receive(k.pDest[base+int32(m.Next())], f, arrive)
			}
			if f.Kind >= flit.Tail && !k.outBuf {
				for m := x.mask; m != 0; {
					k.sw[s].Owner[m.Next()] = xbar.Free
				}
			}
		} else {
			if x.kind == kindSource && f.Seq == 0 {
				k.Pool.Worms[f.Worm].InjCycle = now
			}
			k.receive(x.fixed, f, arrive)
		}
		if x.rel >= 0 && f.Kind >= flit.Tail {
			gp := x.rel
			s := k.portSw[gp]
			k.sw[s].Owner[gp-k.portBase[s]] = xbar.Free
		}
		if x.kind == kindSource {
			k.refill(k.bSw[b], now+1)
		}
	}
}

// switchOf is the switch owning global port gp.
func (k *Kernel) switchOf(gp int32) int { return int(k.portSw[gp]) }

// carry counts the flit on the channel(s) the move out of b crosses.
func (k *Kernel) carry(x *bufState) {
	c := x.ch
	switch {
	case c == chanRouted:
		base := k.portBase[x.rSw]
		for m := x.mask; m != 0; {
			k.carryOn(&k.Links[base+int32(m.Next())])
		}
	case c >= int32(len(k.Links)):
		k.carryOn(&k.injLinks[c-int32(len(k.Links))])
	case c >= 0:
		k.carryOn(&k.Links[c])
	}
}

func (k *Kernel) carryOn(l *link.Link) {
	if !l.Carry(k.now) {
		k.Violations.ChannelOverUse++
	}
}

// receive writes flit f into destination d (a buffer or a terminal sink).
func (k *Kernel) receive(d int32, f flit.Flit, arrive int64) {
	if d >= k.nb {
		k.eject(d-k.nb, f, arrive, &k.Pool.Worms[f.Worm])
		return
	}
	buf := &k.bs[d]
	if buf.Free() == 0 {
		k.Violations.Overflow++
		return
	}
	if f.Seq == 0 && buf.rSw >= 0 {
		arrive += k.delay
		if buf.Empty() && buf.st != stGranted {
			k.heads[d>>6] |= 1 << uint(d&63)
		}
	}
	f.SetReady(arrive)
	buf.Push(f)
	if n := int32(buf.Len()); n > buf.maxOcc {
		buf.maxOcc = n
	}
	k.active[d>>6] |= 1 << uint(d&63)
}

// eject consumes a flit at terminal term; the packet is delivered with its
// tail, in cycle arrive-1 (the cycle the tail crosses the ejection link, so a
// latency counts the cycles from generation to delivery inclusive of both).
func (k *Kernel) eject(term int32, f flit.Flit, arrive int64, w *flit.Worm) {
	if term != w.Dst {
		k.Violations.Misdelivered++
	}
	if f.Seq != w.Recvd {
		k.Violations.OutOfOrder++
	}
	w.Recvd++
	if k.stats != nil {
		k.stats.ejected(arrive)
	}
	if w.Recvd < w.Len {
		return
	}
	if k.stats != nil {
		k.stats.delivered(w, arrive)
	}
	if k.Hooks.Delivered != nil {
		k.Hooks.Delivered(w, arrive)
	}
	k.Pool.Put(f.Worm)
}

// InFlight reports the number of flits held in switch buffers (source
// registers excluded).
func (k *Kernel) InFlight() int {
	n := 0
	for b := int32(0); b < k.nb; b++ {
		if k.bs[b].kind != kindSource {
			n += k.bs[b].Len()
		}
	}
	return n
}

// MaxOccupancy is the most flits any switch buffer held.
func (k *Kernel) MaxOccupancy() int {
	m := int32(0)
	for b := int32(0); b < k.nb; b++ {
		if k.bs[b].kind != kindSource && k.bs[b].maxOcc > m {
			m = k.bs[b].maxOcc
		}
	}
	return int(m)
}

// BufferName names buffer b for reports, e.g. "s1,2.out[1]".
func (k *Kernel) BufferName(b int32) string {
	switch k.bs[b].kind {
	case kindSource:
		return fmt.Sprintf("terminal %d source", k.bSw[b])
	case kindIn:
		return fmt.Sprintf("%s.in[%s]", k.Topo.Switches[k.bSw[b]].Label, k.portName(int(k.bPort[b])))
	}
	return fmt.Sprintf("%s.out[%s]", k.Topo.Switches[k.bSw[b]].Label, k.portName(int(k.bPort[b])))
}

// PortName names global port gp, e.g. "r(3,4).out[x+]".
func (k *Kernel) PortName(gp int32) string {
	s := k.switchOf(gp)
	return fmt.Sprintf("%s.out[%s]", k.Topo.Switches[s].Label, k.portName(int(gp-k.portBase[s])))
}

func (k *Kernel) portName(p int) string {
	if p < len(k.Topo.PortNames) {
		return k.Topo.PortNames[p]
	}
	return fmt.Sprint(p)
}

// Backlog is the number of generated flits still at their sources: waiting in
// the source queue or in the source register.
func (k *Kernel) Backlog() int64 {
	var n int64
	for term := range k.queues {
		n += int64(k.bs[k.srcBuf[term]].Len())
		q := &k.queues[term]
		for i := 0; i < q.n; i++ {
			w := &k.Pool.Worms[q.buf[(q.head+i)%len(q.buf)]]
			n += int64(w.Len - w.Issued)
		}
	}
	return n
}

// Location is a buffer in the fabric: input or output buffer Port of Switch.
type Location struct {
	Switch int
	Port   int
	Output bool
	Label  string // the switch's label, e.g. "s2,0"
}

// Locate appends to out the switch buffers holding flit seq of worm wi
// (several for a replicated flit). Scenario tests and the verify suite use
// it to follow a header cycle by cycle.
func (k *Kernel) Locate(wi, seq int32, out []Location) []Location {
	for wd, word := range k.active {
		for word != 0 {
			b := int32(wd<<6 | bits.TrailingZeros64(word))
			word &= word - 1
			x := &k.bs[b]
			if x.kind == kindSource {
				continue
			}
			for i := 0; i < x.Len(); i++ {
				if f := x.At(i); f.Worm == wi && f.Seq == seq {
					s := int(k.bSw[b])
					out = append(out, Location{Switch: s, Port: int(k.bPort[b]), Output: x.kind == kindOut, Label: k.Topo.Switches[s].Label})
				}
			}
		}
	}
	return out
}
