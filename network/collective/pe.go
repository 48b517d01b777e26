package collective

import (
	"math/bits"
	"slices"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/internal/kernel"
)

// peSched is the hypercube partial exchange of Varvarigos §3.7 (digest
// 000a §5.12): M active nodes each send a packet to every other node.
// With m = ⌈log₂ M⌉, k = d−m, rank r_s and home h_s = r_s W(s) (rank in
// the m high bits, s's own k low bits), a packet from s to t goes
//
//   - phase 2 (isotone routing): to h_s ⊕ e_ĵ, ĵ the subtree of the
//     balanced scatter tree T(h_s) of the k-subcube (r_s *^k) holding
//     r_s W(t) (to h_s itself when W(t) = W(s)): dimension ĵ first, then
//     dimensions k..d−1 ascending;
//   - phase 3 (subcube scatter): down subtree ĵ to r_s W(t), furthest
//     first;
//   - phase 4 (subcube TE in (*^m W(t))): to t over dimensions k..d−1
//     ascending.
//
// Reading: the phases are not separated by global windows; each node is
// non-wasting, sending on every link the waiting packet of the earliest
// phase (phase 3: the one furthest from its target), oldest first, so a
// link never idles while a packet waits for it. Ranks come from the t_p
// prefix channel (known in advance when t_p = 0).
type peSched struct {
	c      *cube
	m, lg  int
	k      int
	act    []int // the active nodes, by label
	tree   *scatterTree
	pre    *prefixChan
	p0     int64
	rank   []int32 // per node: the rank it knows (after the prefix)
	stage  []int8  // per packet (active index · N + t): 2, 3, 4
	way    []int32 // per packet: the current phase's target node
	ready  []int64 // per packet: the slot it became ready at its node
	seq    []int32 // per packet: its place in its source's stream to its phase-2 target
	queue  [][]hent
	loaded [][]hent
	began  bool
	ck     *checker
	best   []int // scratch: per dimension, the queue index chosen
	// phaseEnd[p] is the last data slot a packet finished phase p in (the
	// end of the phase had the phases been separated).
	phaseEnd [5]int64
	now      int64
}

func newPeSched(c *cube, m, tp int, seed uint64, ck *checker) *peSched {
	lg := bits.Len(uint(m - 1))
	s := &peSched{c: c, m: m, lg: lg, k: c.d - lg, ck: ck, tree: newScatterTree(c.d - lg)}
	active := activeSet(c.n, m, seed)
	for v, a := range active {
		if a {
			s.act = append(s.act, v)
		}
	}
	s.queue, s.loaded = make([][]hent, c.n), make([][]hent, c.n)
	np := m * c.n
	s.stage, s.way, s.ready, s.seq = make([]int8, np), make([]int32, np), make([]int64, np), make([]int32, np)
	s.best = make([]int, c.d)
	if tp > 0 {
		s.pre = newPrefixChan(c, int64(tp), [][]int{{0}}, func(_, _, v int) bool { return active[v] }, prefixTag)
		s.p0 = s.pre.slots()
	}
	return s
}

func (s *peSched) load(k *kernel.Kernel) {
	if s.pre != nil {
		s.pre.load(k)
	}
	for a, src := range s.act {
		for t := 0; t < s.c.n; t++ {
			if t == src {
				continue
			}
			wi := enqueueTagged(k, s.c, src, t, uint64(a*s.c.n+t))
			s.ck.expect(t, src)
			s.loaded[src] = append(s.loaded[src], hent{wi: wi, key: int32(a*s.c.n + t)})
		}
	}
}

// beginData sets every packet's phase-2 target from the ranks the nodes
// know.
func (s *peSched) beginData() {
	s.began = true
	if s.pre != nil {
		s.pre.finish()
		s.rank = s.pre.rank[0]
	} else {
		s.rank = make([]int32, s.c.n)
		for i, v := range s.act {
			s.rank[v] = int32(i)
		}
	}
	for v, ps := range s.loaded {
		// A stream (source, phase-2 target) is sent furthest-down-the-tree
		// first (phase 3 starts with the furthest packets, §3.7).
		slices.SortStableFunc(ps, func(a, b hent) int {
			return int(s.tree.depth[(v^int(b.key))&(1<<s.k-1)]) - int(s.tree.depth[(v^int(a.key))&(1<<s.k-1)])
		})
		n := map[int32]int32{}
		for _, h := range ps {
			s.stage[h.key] = 2
			s.way[h.key] = int32(s.phase2Target(v, int(h.key)%s.c.n))
			s.seq[h.key] = n[s.way[h.key]]
			n[s.way[h.key]]++
			s.advance(v, h.key)
			s.queue[v] = append(s.queue[v], h)
		}
		s.loaded[v] = nil
	}
}

// home is h_s; phase2Target is h_s or h_s ⊕ e_ĵ for destination t.
func (s *peSched) home(src int) int {
	return int(s.rank[src])<<s.k | src&(1<<s.k-1)
}

func (s *peSched) phase2Target(src, t int) int {
	h := s.home(src)
	if y := (src ^ t) & (1<<s.k - 1); y != 0 {
		return h ^ 1<<s.tree.sub[y]
	}
	return h
}

// advance moves packet key at node v on to its next phases while v is
// the current phase's target; false when it is delivered at v.
func (s *peSched) advance(v int, key int32) bool {
	t := int(key) % s.c.n
	for int(s.way[key]) == v {
		s.phaseEnd[s.stage[key]] = max(s.phaseEnd[s.stage[key]], s.now)
		switch s.stage[key] {
		case 2:
			s.stage[key], s.way[key] = 3, int32(v&^(1<<s.k-1)|t&(1<<s.k-1))
		case 3:
			s.stage[key], s.way[key] = 4, int32(t)
		default:
			return false
		}
	}
	return true
}

// next is the dimension packet key takes from node v, and its priority
// (smaller first).
func (s *peSched) next(v int, key int32) (dim, prio int) {
	w := int(s.way[key])
	switch s.stage[key] {
	case 2: // (the stream's order: the seed's pipeline; home-bound packets, which have no phase 3, last)
		x := v ^ w
		if low := x & (1<<s.k - 1); low != 0 {
			return bits.TrailingZeros(uint(low)), 2<<24 + int(s.seq[key])
		}
		p := 2<<24 + int(s.seq[key])
		if s.homeBound(key) {
			p += 1 << 20
		}
		return bits.TrailingZeros(uint(x)), p
	case 4: // (furthest first, as the OCTR's heavy rows)
		x := v ^ w
		return bits.TrailingZeros(uint(x)), 4<<24 - bits.OnesCount(uint(x))
	}
	src := s.act[int(key)/s.c.n]
	h := s.home(src)
	cur, z := (v^h)&(1<<s.k-1), (w^h)&(1<<s.k-1)
	nx := s.tree.next(cur, z)
	return bits.TrailingZeros(uint(cur ^ nx)), 3<<24 - int(s.tree.depth[z]-s.tree.depth[cur])
}

func (s *peSched) Sends(slot int64, node int32, out []kernel.SlotSend) []kernel.SlotSend {
	if slot < s.p0 {
		return s.pre.Sends(slot, node, out)
	}
	if !s.began {
		s.beginData()
	}
	v, q := int(node), s.queue[int(node)]
	for j := range s.best {
		s.best[j] = -1
	}
	var bp [32]int
	for i, h := range q {
		dim, p := s.next(v, h.key)
		if b := s.best[dim]; b < 0 || p < bp[dim] || p == bp[dim] && (s.ready[h.key] < s.ready[q[b].key] || s.ready[h.key] == s.ready[q[b].key] && h.key < q[b].key) {
			s.best[dim], bp[dim] = i, p
		}
	}
	sent := 0
	for dim, b := range s.best {
		if b >= 0 {
			out = append(out, kernel.SlotSend{Packet: q[b].wi, Port: s.c.port[v*s.c.d+dim]})
			q[b].key = -1 - q[b].key // (mark sent)
			sent++
		}
	}
	if sent > 0 {
		s.queue[v] = dropSent(q)
	}
	return out
}

func (s *peSched) Arrived(slot int64, node, inPort int32, w *flit.Worm, wi int32) bool {
	if w.Aux >= prefixTag {
		s.pre.Arrived(slot, node, w)
		return false
	}
	key, v := int32(w.Aux), int(node)
	s.now = slot + 1 - s.p0
	if !s.advance(v, key) {
		s.ck.got(v, s.act[int(key)/s.c.n], true)
		return false
	}
	s.ready[key] = slot + 1
	s.queue[v] = append(s.queue[v], hent{wi: wi, key: key})
	return true
}

// homeBound: packet key's phase-2 target is its source's home.
func (s *peSched) homeBound(key int32) bool {
	src := s.act[int(key)/s.c.n]
	return (src^int(key)%s.c.n)&(1<<s.k-1) == 0
}

// phase2Load is the most phase-2 packets any directed link carries on
// §3.7's routes (ĵ, then dimensions k..d−1 ascending), ranks by label
// order as the prefix computes them. Lemma 6 makes it the longest stream
// (≤ MS); it is more when two sources' streams share a link, e.g. two
// active nodes with the same m high bits whose low bits differ in two
// positions j, j' both send through the same neighbour, and phase 2
// cannot end before that link has carried them all.
func (s *peSched) phase2Load() int {
	d, low := s.c.d, 1<<s.k-1
	load := make([]int32, s.c.n*d)
	most := int32(0)
	for r, src := range s.act {
		h := r<<s.k | src&low
		for t := 0; t < s.c.n; t++ {
			w := h
			if y := (src ^ t) & low; y != 0 {
				w ^= 1 << s.tree.sub[y]
			} else if t == src {
				continue
			}
			// (the low dimension first, then the high ones ascending: the
			// order of bits in src ^ w, since ĵ < k)
			for v, x := src, src^w; x != 0; x &= x - 1 {
				j := bits.TrailingZeros(uint(x))
				load[v*d+j]++
				most = max(most, load[v*d+j])
				v ^= 1 << j
			}
		}
	}
	return int(most)
}
