package collective

import (
	"slices"

	"github.com/flitsim/flitsim/network/kernel"
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
type bcastSched struct {
	c     *cube
	steps [][]bcastStep
	last  []int32 // per offset: the last slot it is sent in, or −1
	hold  []int32 // per node × offset: the packet's index, or −1
	ck    *checker
	pk    *kernel.ScheduledPackets
}

func newBcastSched(c *cube, steps [][]bcastStep, ck *checker) *bcastSched {
	s := &bcastSched{c: c, steps: steps, ck: ck}
	s.last = make([]int32, c.n)
	for i := range s.last {
		s.last[i] = -1
	}
	for t, st := range steps {
		for _, e := range st {
			s.last[e.Off] = int32(t)
		}
	}
	for t, st := range steps {
		for i := range st {
			st[i].final = s.last[st[i].Off] == int32(t)
			for _, e := range st[i+1:] {
				if e.Off == st[i].Off {
					st[i].final = false
				}
			}
		}
	}
	s.hold = make([]int32, c.n*c.n)
	for i := range s.hold {
		s.hold[i] = -1
	}
	return s
}

// load enqueues one packet at each origin, for every other node.
func (s *bcastSched) load(k *kernel.Kernel, origins []int) {
	s.pk = k.ScheduledPackets()
	for _, o := range origins {
		wi := k.EnqueueScheduled(s.c.term[o], s.c.term[o], int32(o))
		s.hold[o*s.c.n] = wi
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
	base := int(node) * s.c.n
	for _, e := range s.steps[slot] {
		wi := s.hold[base+int(e.Off)]
		if wi < 0 {
			continue
		}
		out = append(out, kernel.SlotSend{Packet: wi, Port: s.c.port[int(node)*s.c.d+int(e.Dim)], Copy: !e.final})
		if e.final {
			s.hold[base+int(e.Off)] = -1
		}
	}
	return out
}

func (s *bcastSched) Arrived(slot int64, node, inPort int32, wi int32) bool {
	origin := int(s.pk.Aux(wi))
	s.ck.got(int(node), origin, true)
	off := int(node) ^ origin
	if s.last[off] > int32(slot) && s.hold[int(node)*s.c.n+off] < 0 {
		s.hold[int(node)*s.c.n+off] = wi
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
// fewest held neighbours (the hardest to reach later) goes first.
func mnbSteps(d int) [][]bcastStep {
	n := 1 << d
	have := make([]bool, n)
	have[0] = true
	left := n - 1
	var steps [][]bcastStep
	for left > 0 {
		// cand[j]: new offsets reachable over dimension j, hardest first.
		cand := make([][]int32, d)
		for y := 1; y < n; y++ {
			if have[y] {
				continue
			}
			for j := 0; j < d; j++ {
				if have[y^1<<j] {
					cand[j] = append(cand[j], int32(y))
				}
			}
		}
		held := func(y int32) int {
			c := 0
			for j := 0; j < d; j++ {
				if have[int(y)^1<<j] {
					c++
				}
			}
			return c
		}
		for j := range cand {
			sortBy(cand[j], held)
		}
		match := matchDims(cand, n)
		var st []bcastStep
		for j, y := range match {
			if y >= 0 {
				st = append(st, bcastStep{Off: y ^ 1<<j, Dim: int32(j)})
				have[y] = true
				left--
			}
		}
		steps = append(steps, st)
	}
	return steps
}

// matchDims matches dimensions to distinct candidates (a maximum matching
// by augmenting paths, first candidates first).
func matchDims(cand [][]int32, n int) []int32 {
	d := len(cand)
	dimOf := make(map[int32]int, d)
	match := make([]int32, d)
	for j := range match {
		match[j] = -1
	}
	var try func(j int, seen map[int32]bool) bool
	try = func(j int, seen map[int32]bool) bool {
		for _, y := range cand[j] {
			if seen[y] {
				continue
			}
			seen[y] = true
			o, taken := dimOf[y]
			if !taken || try(o, seen) {
				match[j], dimOf[y] = y, j
				return true
			}
		}
		return false
	}
	// Dimensions with the fewest candidates first.
	order := make([]int32, d)
	for j := range order {
		order[j] = int32(j)
	}
	sortBy(order, func(j int32) int { return len(cand[j]) })
	for _, j := range order {
		try(int(j), map[int32]bool{})
	}
	return match
}

// sortBy sorts xs by key, stably.
func sortBy(xs []int32, key func(int32) int) {
	keys := make(map[int32]int, len(xs))
	for _, x := range xs {
		keys[x] = key(x)
	}
	slices.SortStableFunc(xs, func(a, b int32) int { return keys[a] - keys[b] })
}
