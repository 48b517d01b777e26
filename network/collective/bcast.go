package collective

import (
	"math/bits"
	"slices"

	"github.com/flitsim/flitsim/internal/kernel"
)

// A bcastStep sends, at every node that holds it, the packet whose origin
// is node ⊕ Off over dimension Dim (a copy, unless it is the last time the
// node sends that packet).
type bcastStep struct {
	Off, Dim int32
	final    bool // the node's last send of this offset (the packet itself goes)
}

// bcastSched carries out broadcasts on the hypercube. A node holds the
// broadcast packets it has received, indexed by their offset (the node's
// label XOR the origin's); a schedule entry (x, j) of slot t makes every
// node holding offset x send it over dimension j. The packet arriving over
// dimension j then has offset x ⊕ e_j at the receiver. With one entry per
// dimension per slot the schedule is symmetric (every node does the same),
// so no link carries two packets (multinode broadcast); a single origin
// may use a dimension for several offsets (single-node broadcast: only
// one offset is held at each node).
//
// A node keeps its packets in registers indexed alike at every node (as
// the OCTR's row slots): an offset is held from its arrival to its last
// send, and offsets whose holding times do not overlap share a register
// (an interval colouring, computed once from the schedule), so storage is
// the most offsets held at once rather than N per node. With a single
// origin a node holds one offset at most: one register.
type bcastSched struct {
	c     *cube
	steps [][]bcastStep
	last  []int32 // per offset: the last slot it is sent in, or −1
	reg   []int32 // per offset: its register
	nreg  int
	hold  []int32 // per register × node: the packet's index, or −1 (register-major: all nodes use a register in the same slot)
	// single origin: root, and per offset its sends in slot order.
	root   int
	single bool
	sendOf [][]bcastSend
	ck     *checker
	pk     *kernel.ScheduledPackets
}

// bcastSend is one send of an offset (single origin).
type bcastSend struct {
	slot int32
	e    bcastStep
}

func newBcastSched(c *cube, steps [][]bcastStep, ck *checker) *bcastSched {
	s := &bcastSched{c: c, steps: steps, ck: ck}
	s.last = make([]int32, c.n)
	lastAt := make([]int32, c.n) // per offset: index of its last entry in its last slot
	for i := range s.last {
		s.last[i] = -1
	}
	for t, st := range steps {
		for i, e := range st {
			s.last[e.Off], lastAt[e.Off] = int32(t), int32(i)
		}
	}
	for t, st := range steps {
		for i := range st {
			st[i].final = s.last[st[i].Off] == int32(t) && lastAt[st[i].Off] == int32(i)
		}
	}
	return s
}

// registers colours the offsets' holding intervals [arrival slot, last
// send slot] (a register freed by a slot's last send takes an arrival of
// the same slot: sends are decided before arrivals).
func (s *bcastSched) registers() {
	n := s.c.n
	s.reg = make([]int32, n)
	var free []int32
	take := func(x int) {
		if len(free) == 0 {
			free = append(free, int32(s.nreg))
			s.nreg++
		}
		s.reg[x] = free[len(free)-1]
		free = free[:len(free)-1]
	}
	ending := make([][]int32, len(s.steps)) // per slot: offsets whose last send it is
	for x, l := range s.last {
		if l >= 0 {
			ending[l] = append(ending[l], int32(x))
		}
	}
	take(0)
	for t, st := range s.steps {
		for _, x := range ending[t] {
			free = append(free, s.reg[x])
		}
		for _, e := range st {
			if y := int(e.Off ^ 1<<e.Dim); s.last[y] > int32(t) {
				take(y)
			}
		}
	}
	s.nreg = max(s.nreg, 1)
}

// load enqueues one packet at each origin, for every other node.
func (s *bcastSched) load(k *kernel.Kernel, origins []int) {
	s.pk = k.ScheduledPackets()
	if s.single = len(origins) == 1; s.single {
		s.root, s.nreg, s.reg = origins[0], 1, make([]int32, s.c.n)
		s.sendOf = make([][]bcastSend, s.c.n)
		for t, st := range s.steps {
			for _, e := range st {
				s.sendOf[e.Off] = append(s.sendOf[e.Off], bcastSend{int32(t), e})
			}
		}
	} else {
		s.registers()
	}
	s.hold = make([]int32, s.c.n*s.nreg)
	for i := range s.hold {
		s.hold[i] = -1
	}
	for _, o := range origins {
		wi := k.EnqueueScheduled(s.c.term[o], s.c.term[o], uint64(o))
		s.hold[int(s.reg[0])*s.c.n+o] = wi
		for v := 0; v < s.c.n; v++ {
			if v != o {
				s.ck.expect(v, o)
			}
		}
	}
}

func (s *bcastSched) Sends(slot int64, node int32, out []kernel.SlotSend) []kernel.SlotSend {
	if slot >= int64(len(s.steps)) {
		return out
	}
	if s.single {
		base := int(node)
		wi := s.hold[base]
		if wi < 0 {
			return out
		}
		for _, x := range s.sendOf[int(node)^s.root] {
			if x.slot == int32(slot) {
				out = append(out, kernel.SlotSend{Packet: wi, Port: s.c.port[int(node)*s.c.d+int(x.e.Dim)], Copy: !x.e.final})
				if x.e.final {
					s.hold[base] = -1
				}
			}
		}
		return out
	}
	for _, e := range s.steps[slot] {
		r := int(s.reg[e.Off])*s.c.n + int(node)
		wi := s.hold[r]
		if wi < 0 {
			continue
		}
		out = append(out, kernel.SlotSend{Packet: wi, Port: s.c.port[int(node)*s.c.d+int(e.Dim)], Copy: !e.final})
		if e.final {
			s.hold[r] = -1
		}
	}
	return out
}

func (s *bcastSched) Arrived(slot int64, node, inPort int32, wi int32) bool {
	origin := int(s.pk.Aux(wi))
	s.ck.got(int(node), origin, true)
	off := int(node) ^ origin
	if r := int(s.reg[off])*s.c.n + int(node); s.last[off] > int32(slot) && s.hold[r] < 0 {
		s.hold[r] = wi
		return true
	}
	return false // (a copy is delivered where it stops)
}

// snbSteps is the single-node broadcast along the binomial tree rooted at
// offset 0: in slot t every holder (offsets below 2^t) sends over
// dimension t; d slots.
func snbSteps(d int) [][]bcastStep {
	steps := make([][]bcastStep, d)
	for t := 0; t < d; t++ {
		for x := 0; x < 1<<t; x++ {
			steps[t] = append(steps[t], bcastStep{Off: int32(x), Dim: int32(t)})
		}
	}
	return steps
}

// mnbSteps is a symmetric multinode broadcast: a spanning tree of offsets
// grown from 0, at most one edge per dimension per slot (so every link
// direction carries one packet per slot at every node at once). Each slot
// matches dimensions to new offsets (one new offset per dimension at
// most) by augmenting paths; among the candidates an offset with the
// fewest held neighbours (the hardest to reach later) goes first, the
// lowest offset among ties. The candidates are kept incrementally
// (mnbCands), so the 16-cube's tree takes seconds.
func mnbSteps(d int) [][]bcastStep {
	n := 1 << d
	c := newMnbCands(d)
	c.add(0)
	left := n - 1
	var steps [][]bcastStep
	for left > 0 {
		match := c.match()
		var st []bcastStep
		for j, y := range match {
			if y >= 0 {
				st = append(st, bcastStep{Off: y ^ 1<<j, Dim: int32(j)})
			}
		}
		for _, y := range match {
			if y >= 0 {
				c.add(y)
				left--
			}
		}
		steps = append(steps, st)
	}
	return steps
}

// mnbCands are the offsets not yet reached, per dimension j those with a
// reached neighbour over j, bucketed by their number of reached
// neighbours: bucket (j, h) is a bitset over offsets, so a dimension's
// candidates in order (fewest reached neighbours first, then by offset)
// are its buckets' set bits in turn.
type mnbCands struct {
	d, words int
	have     []bool
	held     []uint8  // per offset: reached neighbours
	bits     []uint64 // (j·(d+1) + h) × words
	count    []int32  // per (j, h): offsets in the bucket
	per      []int    // per j: candidates
}

func newMnbCands(d int) *mnbCands {
	n := 1 << d
	w := (n + 63) / 64
	return &mnbCands{d: d, words: w, have: make([]bool, n), held: make([]uint8, n),
		bits: make([]uint64, d*(d+1)*w), count: make([]int32, d*(d+1)), per: make([]int, d)}
}

func (c *mnbCands) flip(j, h int, y int32, on bool) {
	b := (j*(c.d+1) + h) * c.words
	if on {
		c.bits[b+int(y>>6)] |= 1 << (y & 63)
		c.count[j*(c.d+1)+h]++
		c.per[j]++
	} else {
		c.bits[b+int(y>>6)] &^= 1 << (y & 63)
		c.count[j*(c.d+1)+h]--
		c.per[j]--
	}
}

// add marks offset y reached and updates the candidates.
func (c *mnbCands) add(y int32) {
	for i := 0; i < c.d; i++ {
		if c.have[y^1<<i] {
			c.flip(i, int(c.held[y]), y, false)
		}
	}
	c.have[y] = true
	for i := 0; i < c.d; i++ {
		z := y ^ 1<<i
		if c.have[z] {
			continue
		}
		h := int(c.held[z])
		for j := 0; j < c.d; j++ {
			if j != i && c.have[z^1<<j] {
				c.flip(j, h, z, false)
				c.flip(j, h+1, z, true)
			}
		}
		c.held[z] = uint8(h + 1)
		c.flip(i, h+1, z, true)
	}
}

// each calls f for dimension j's candidates in order until f returns true.
func (c *mnbCands) each(j int, f func(y int32) bool) bool {
	for h := 1; h <= c.d; h++ {
		if c.count[j*(c.d+1)+h] == 0 {
			continue
		}
		b := (j*(c.d+1) + h) * c.words
		for wi, w := range c.bits[b : b+c.words] {
			for ; w != 0; w &= w - 1 {
				if f(int32(wi<<6 + bits.TrailingZeros64(w))) {
					return true
				}
			}
		}
	}
	return false
}

// match matches dimensions to distinct candidates (a maximum matching by
// augmenting paths, first candidates first, dimensions with the fewest
// candidates first).
func (c *mnbCands) match() []int32 {
	d := c.d
	dimOf := make(map[int32]int, d)
	match := make([]int32, d)
	for j := range match {
		match[j] = -1
	}
	var try func(j int, seen map[int32]bool) bool
	try = func(j int, seen map[int32]bool) bool {
		return c.each(j, func(y int32) bool {
			if seen[y] {
				return false
			}
			seen[y] = true
			o, taken := dimOf[y]
			if !taken || try(o, seen) {
				match[j], dimOf[y] = y, j
				return true
			}
			return false
		})
	}
	order := make([]int32, d)
	for j := range order {
		order[j] = int32(j)
	}
	slices.SortStableFunc(order, func(a, b int32) int { return c.per[a] - c.per[b] })
	for _, j := range order {
		try(int(j), map[int32]bool{})
	}
	return match
}
