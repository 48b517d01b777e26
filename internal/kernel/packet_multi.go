package kernel

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"

	"github.com/flitsim/flitsim/flit"
)

// Multiple reads and multiple writes on the packet router (Brebner 1983
// §2.6; digest §3.5, §4.8, §4.9). A batch of operations starts at cycle 0,
// one packet per operation at its source; phase 1 (Valiant's, when set) is
// unchanged: the packet travels whole to a random node. All copying and all
// combining happen in the last leg (phase 2, or the only one with valiant
// off).
//
//   - A read carries a set of destinations as a wildcard pattern over the
//     cube's address bits ({0,1,*}^n, remedy 2 of §4.8): node τ is in it iff
//     τ &^ Star == Val. It is closed under the routing partition, so a
//     packet stays O(n) bits whatever the set's size (an explicit set would
//     need O(N) bits and a general partition). At node α the packet is split
//     by §4.8's node algorithm, scanning dimensions from the lowest: a
//     dimension where the pattern has ᾱ_k sends the whole rest on edge k; a
//     * at k splits off the half with ᾱ_k (sent on edge k) and keeps the
//     half with α_k; what is left when every dimension matches is α itself,
//     a copy delivered here. So every copy follows its bit-fixing (lowest
//     dimension first) path and copies are made only where paths diverge.
//   - A write carries a memory location (terminal Dst, address Addr) and a
//     value. When it joins a queue in its last leg and a packet for the
//     same location is queued on the same out-edge at that node, the two
//     become one (the digest's recommended reading of §4.9: "on arrival,
//     merge with any packet for the same destination currently queued at
//     this node on the same out-edge"); packets reaching the location in the
//     same cycle are combined there too (they meet at that node). The
//     combined packet carries the operator's result, the number of writes
//     in it and the list of their packets.
//
// The kernel's statistics see one packet per operation: a read is
// delivered when its last destination gets its copy, a write when the
// packet it was merged into reaches the location. The replicas a read makes
// are router-internal packets.

// MultiOp is one multiple read or write.
type MultiOp struct {
	Src   int32
	Write bool
	// Read: the destination set, a wildcard pattern over the address
	// digits: bit j of Star makes digit j a * (any value), Val gives the
	// other digits (and 0 at the *s). On the cube (Radix 0 or 2) the set is
	// the nodes τ with τ &^ Star == Val; on the d-shuffle Radix is d.
	Star, Val uint32
	Radix     int32
	// Write: the location (terminal Dst, memory address Addr) and the
	// value written.
	Dst   int32
	Addr  int32
	Value uint64
}

// Size is the number of destinations of a read (1 for a write).
func (o MultiOp) Size() int {
	if o.Write {
		return 1
	}
	n := 1
	for range bits.OnesCount32(o.Star) {
		n *= o.radix()
	}
	return n
}

func (o MultiOp) radix() int {
	if o.Radix <= 2 {
		return 2
	}
	return int(o.Radix)
}

// Has reports whether node t is in read o's destination set.
func (o MultiOp) Has(t int32) bool {
	d := o.radix()
	if d == 2 {
		return uint32(t)&^o.Star == o.Val
	}
	x, v := int(t), int(o.Val)
	for j := 0; x > 0 || v > 0; j++ {
		if o.Star>>j&1 == 0 && x%d != v%d {
			return false
		}
		x, v = x/d, v/d
	}
	return true
}

// Members calls f on every node of read o's set (in an order of its own)
// while f says true; it reports whether f always did.
func (o MultiOp) Members(f func(t int32) bool) bool {
	d := o.radix()
	var pos []int // (the * digits' weights)
	w := 1
	for j := 0; j < 32 && o.Star>>j != 0; j++ {
		if o.Star>>j&1 != 0 {
			pos = append(pos, w)
		}
		w *= d
	}
	var rec func(i int, t int32) bool
	rec = func(i int, t int32) bool {
		if i == len(pos) {
			return f(t)
		}
		for b := range d {
			if !rec(i+1, t+int32(b*pos[i])) {
				return false
			}
		}
		return true
	}
	return rec(0, int32(o.Val))
}

// Combining operators for multiple writes (associative and commutative).
const (
	CombineOr     = "or"
	CombineAnd    = "and"
	CombineSum    = "sum"    // (counts writes exactly when every value is 1)
	CombineLowest = "lowest" // the lowest-numbered writer's value (Goldschlager's SIMDAG rule)
	CombineRandom = "random" // one writer's value, each equally likely
)

// MultiStats is what a batch of multiple reads and writes measured.
type MultiStats struct {
	Reads  int `json:"reads"`
	Writes int `json:"writes"`
	// Copies counts the replicas reads made (a read with K destinations
	// makes K−1); Merges the writes combined into another packet, in
	// queues or at the location.
	Copies int64 `json:"copies"`
	Merges int64 `json:"merges"`
	// Deliveries counts the packets that reached their destination: read
	// copies, and combined write packets at their location.
	Deliveries int64 `json:"deliveries"`
	// TreeEdges counts the link crossings of reads in their last leg (the
	// edges of their bit-fixing trees).
	TreeEdges int64 `json:"tree_edges"`
	// CompletionTime is the instant of the last delivery.
	CompletionTime int64 `json:"completion_time"`
	// Check: destinations that got no copy or more than one, copies at a
	// node not in the set, write counts or results that are wrong.
	Missing    int64 `json:"missing"`
	Duplicates int64 `json:"duplicates"`
	Wrong      int64 `json:"wrong"`
	OK         bool  `json:"ok"`
}

// mPkt is a multi packet's state (indexed by worm pool index).
type mPkt struct {
	op        int32  // its operation, or −1
	star, val uint32 // read: its part of the destination set
	step      int32  // read on the d-shuffle: hops made in its last leg
	q         int32  // write: the queue it last joined
	cnt       int32  // write: writes combined in it
	who       int32  // write: its lowest writer's operation (lowest rule)
	value     uint64 // write: the combined value
	next      int32  // write: the next packet combined into this one, or −1
	tail      int32  // write: the last of that chain
}

type locKey struct{ dst, addr int32 }

type queuedKey struct {
	q int32
	locKey
}

// memCell is a location's memory: the combined value of the writes that
// reached it, how many, and the instant of the last packet.
type memCell struct {
	value uint64
	cnt   int32
	who   int32
	at    int64
}

// multiState is the packet router's multi extension (nil when off).
type multiState struct {
	ops     []MultiOp
	combine string
	dims    int
	shuffle bool  // the d-shuffle's digit splitting (else the cube's)
	radix   int32 // its d
	pk      []mPkt
	root    []int32 // per operation: its packet in the kernel's statistics
	got     []int32 // per read: copies delivered
	seen    map[int64]bool
	queued  map[queuedKey]int32 // write packets queued, by queue and location
	mem     map[locKey]*memCell
	at      int64   // the instant of what is being done (set by step)
	use     []int32 // per global port: read copies sent over it in their last leg
	st      MultiStats
	tree    func(op int32, from, dim int32) // (tests: each tree edge)
	arrival func(op, term int32, at int64)  // (tests: each delivery)
}

// StartMulti starts a batch of multiple reads and writes on the packet
// router at the present cycle: one packet per operation at its source.
// Reads need the binary hypercube (switch i serves terminal i).
//
// With shuffle the network is the d-shuffle (standard routes): a read's
// last leg takes exactly n hops, and at hop s its packet is split by the
// digit shifted in next (digit n−1−s): a * there makes d copies, one per
// out-link; every copy lands after n hops (the digest's inference for
// "a similar scheme ... for the d-shuffle", §4.8).
func (k *Kernel) StartMulti(ops []MultiOp, combine string, shuffle bool) error {
	p, ok := k.stepper.(*packetRouter)
	if !ok || p.sch != nil {
		return errors.New("multiple reads and writes need the packet router")
	}
	m := &multiState{ops: ops, combine: combine, dims: k.Topo.Digits, shuffle: shuffle, radix: int32(k.Topo.Radix), seen: map[int64]bool{},
		queued: map[queuedKey]int32{}, mem: map[locKey]*memCell{}, root: make([]int32, len(ops)),
		got: make([]int32, len(ops)), at: k.now, use: make([]int32, len(p.pt))}
	if p.multi != nil { // (a restarted experiment keeps the test hooks)
		m.tree, m.arrival = p.multi.tree, p.multi.arrival
	}
	n := int32(k.Topo.Terminals())
	for i, o := range ops {
		switch {
		case o.Src < 0 || o.Src >= n || o.Write && (o.Dst < 0 || o.Dst >= n):
			return fmt.Errorf("multi operation %d: terminal out of range", i)
		case !o.Write && !shuffle && (o.Val&o.Star != 0 || (o.Val|o.Star)>>m.dims != 0 || k.Topo.Radix != 2 || o.radix() != 2 || n != 1<<m.dims):
			return fmt.Errorf("multi operation %d: a read's pattern needs the binary cube", i)
		case !o.Write && shuffle && (o.radix() != k.Topo.Radix || o.Star>>m.dims != 0 || int32(o.Val) >= n || !o.Has(int32(o.Val))):
			return fmt.Errorf("multi operation %d: a read's pattern does not fit the %d-shuffle", i, k.Topo.Radix)
		}
	}
	p.multi = m
	for i, o := range ops {
		dst := o.Dst
		if !o.Write {
			m.st.Reads++
			dst = int32(o.Val) // (its first destination: phase 2 ignores it)
		} else {
			m.st.Writes++
		}
		wi := k.newUnicast(int(o.Src), int(dst), 1)
		m.grow(wi)
		m.pk[wi] = mPkt{op: int32(i), star: o.Star, val: o.Val, q: -1, cnt: 1, who: int32(i), value: o.Value, next: -1, tail: wi}
		m.root[i] = wi
		k.listLater(wi, int(o.Src))
	}
	return nil
}

func (m *multiState) grow(wi int32) {
	for int(wi) >= len(m.pk) {
		m.pk = append(m.pk, mPkt{op: -1})
	}
}

// splits reports whether packet wi is a read in its last leg (routed by
// address-set splitting).
func (m *multiState) splits(p *packetRouter, wi int32) bool {
	return int(wi) < len(m.pk) && m.pk[wi].op >= 0 && !m.ops[m.pk[wi].op].Write && p.ps[wi].final < 0
}

// split is §4.8's node algorithm for read packet wi at its switch: it sets
// the port wi leaves by and queues a replica for every other part (a copy
// for this node among them); it reports false if wi itself is the copy
// delivered here.
func (m *multiState) split(p *packetRouter, k *Kernel, wi int32) bool {
	if m.shuffle {
		return m.splitShuffle(p, k, wi)
	}
	sw := p.ps[wi].sw
	alpha := uint32(sw)
	x := m.pk[wi]
	star, val := x.star, x.val
	placed := false // (wi carries the first part)
	emit := func(s, v uint32, dim int) {
		if m.tree != nil {
			m.tree(x.op, sw, int32(dim))
		}
		m.st.TreeEdges++
		c := wi
		m.use[k.portBase[sw]+int32(dim)]++
		if placed {
			c = m.replica(p, k, wi)
		}
		m.pk[c].star, m.pk[c].val = s, v
		p.ps[c].port = k.portBase[sw] + int32(dim)
		if c != wi {
			p.joins = append(p.joins, p.joinOf(p.queueOf(p.ps[c].port), c))
		}
		placed = true
	}
	for d := 0; d < m.dims; d++ {
		b := uint32(1) << d
		if star&b != 0 {
			emit(star&^b, val|^alpha&b, d) // the half with ᾱ_d goes on edge d
			star &^= b
			val |= alpha & b
			continue
		}
		if (val^alpha)&b != 0 {
			emit(star, val, d) // the rest differs first in d
			return true
		}
	}
	// What is left is α itself: a copy for this node.
	c := wi
	if placed {
		c = m.replica(p, k, wi)
	}
	m.pk[c].star, m.pk[c].val = 0, alpha
	p.ps[c].port = k.portBase[sw] + int32(len(k.Topo.Switches[sw].Out)-1) // (the cube's local port)
	if c != wi {
		p.legEnd(k, c, m.at)
		return true
	}
	return false
}

// replica makes a copy of read packet wi at its switch (outstanding in
// the router, not a packet of the kernel's statistics).
func (m *multiState) replica(p *packetRouter, k *Kernel, wi int32) int32 {
	w := k.Pool.Worms[wi]
	c := k.newWorm(int(w.Src), 1)
	cw := &k.Pool.Worms[c]
	cw.Dst, cw.Dests, cw.InjCycle, cw.GenCycle = w.Dst, 1, w.InjCycle, w.GenCycle
	p.grow(c)
	m.grow(c)
	p.ps[c] = p.ps[wi]
	p.ps[c].next = -1
	m.pk[c] = m.pk[wi]
	m.st.Copies++
	p.outstand++
	return c
}

// arrive is multi packet wi reaching terminal term at instant at (in
// place of the kernel's eject): the delivery is checked and counted, and
// the operation's packet delivered when it is complete.
func (m *multiState) arrive(p *packetRouter, k *Kernel, wi, term int32, at int64) {
	x := m.pk[wi]
	o := m.ops[x.op]
	m.st.CompletionTime = max(m.st.CompletionTime, at)
	if o.Write {
		m.land(p, k, wi, term, at)
		return
	}
	m.st.Deliveries++
	if m.arrival != nil {
		m.arrival(x.op, term, at)
	}
	key := int64(x.op)<<32 | int64(term)
	switch {
	case x.star != 0 || x.val != uint32(term) || !o.Has(term):
		m.st.Wrong++
	case m.seen[key]:
		m.st.Duplicates++
	default:
		m.seen[key] = true
	}
	m.got[x.op]++
	root := m.root[x.op]
	if wi != root {
		m.pk[wi].op = -1
		k.Pool.Put(wi)
	}
	if int(m.got[x.op]) == o.Size() {
		k.Pool.Worms[root].Dst = term // (the kernel counts the read delivered here, now)
		f := flit.Flit{Worm: root, Kind: flit.HeadTail, Hops: uint16(p.ps[wi].hops)}
		m.pk[root].op = -1
		k.eject(term, &f, at)
	}
}

// MultiStats checks the last multi batch's deliveries and returns its
// statistics (nil when none ran).
func (k *Kernel) MultiStats() *MultiStats {
	p, ok := k.stepper.(*packetRouter)
	if !ok || p.multi == nil {
		return nil
	}
	m := p.multi
	st := m.st
	for i, o := range m.ops {
		if !o.Write {
			st.Missing += int64(max(0, o.Size()-int(m.got[i])))
		}
	}
	st.Missing += m.checkWrites(&st)
	st.OK = st.Missing == 0 && st.Duplicates == 0 && st.Wrong == 0
	return &st
}

// owns reports whether packet wi is a multi packet.
func (m *multiState) owns(wi int32) bool { return int(wi) < len(m.pk) && m.pk[wi].op >= 0 }

// MultiEdgeUse is, per channel (global port), the number of read copies
// the last multi batch sent over it in their last leg: with a read's
// copies on the edges of its bit-fixing tree, the number of reads whose
// tree uses the edge (Theorem 2.10's edge load). Nil without a batch.
func (k *Kernel) MultiEdgeUse() []int32 {
	p, ok := k.stepper.(*packetRouter)
	if !ok || p.multi == nil {
		return nil
	}
	return slices.Clone(p.multi.use)
}

// begin starts read wi's last leg at its switch (set by route).
func (m *multiState) begin(p *packetRouter, k *Kernel, wi int32) bool {
	m.pk[wi].step = 0
	return m.split(p, k, wi)
}

// splitShuffle is the d-shuffle's node algorithm for read wi: after n hops
// it lands; before, it goes on by the link that shifts in its next digit,
// or, where that digit is a *, as d copies, one per link.
func (m *multiState) splitShuffle(p *packetRouter, k *Kernel, wi int32) bool {
	sw := p.ps[wi].sw
	x := m.pk[wi]
	d := m.radix
	if int(x.step) >= m.dims {
		p.ps[wi].port = k.portBase[sw] + d // (the local port)
		return false
	}
	j := m.dims - 1 - int(x.step)
	w := uint32(1)
	for range j {
		w *= uint32(d)
	}
	first, last := (x.val/w)%uint32(d), (x.val/w)%uint32(d)
	star := x.star
	if x.star>>j&1 != 0 {
		first, last, star = 0, uint32(d-1), x.star&^(1<<j)
	}
	for b := first; b <= last; b++ {
		c := wi
		if b != first {
			c = m.replica(p, k, wi)
		}
		m.pk[c].star, m.pk[c].val, m.pk[c].step = star, x.val+(b-(x.val/w)%uint32(d))*w, x.step+1
		gp := k.portBase[sw] + int32(b)
		p.ps[c].port = gp
		m.use[gp]++
		m.st.TreeEdges++
		if m.tree != nil {
			m.tree(x.op, sw, int32(b))
		}
		if c != wi {
			p.joins = append(p.joins, p.joinOf(p.queueOf(gp), c))
		}
	}
	return true
}
