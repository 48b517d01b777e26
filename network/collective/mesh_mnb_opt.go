package collective

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"sync"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/internal/kernel"
)

// The optimal MNB of the p×p torus (Varvarigos §3.2 quoting [BeT89],
// digest 000a §5.2): ⌈(N−1)/4⌉ steps, p²/4 for p even and (p²−1)/4 for p
// odd, and of the p-ary d-dimensional torus ⌈(N−1)/(2d)⌉ (quoted in §3.4):
// every node's packet spread by the same spanning tree of offsets,
// translated to its origin. A translated tree is a valid schedule iff in
// every step the tree crosses each of the 2d link directions at most once
// (node v then sends in step t, over direction e, the packet of origin
// v − w for the one tree edge w → w+e of step t). The seed does not give
// [BeT89]'s tree; torusTree finds one by search.
//
// The search looks only at trees invariant under σ(x_0, …, x_{d−1}) =
// (−x_{d−1}, x_0, …, x_{d−2}) — for d = 2 the quarter turn (x, y) → (−y,
// x) — which cycles the directions +e_0 → +e_1 → … → +e_{d−1} → −e_0 → …
// → −e_{d−1} → +e_0: the 2d turns of an edge cross 2d different
// directions, so a step that adds a whole orbit {u, σu, σ²u, …} (each
// member by the turn of one edge) is always valid. Most orbits have 2d
// members; the smaller ones (for d = 2, p even, h = p/2: {(h,0), (0,h)}
// and {(h,h)}) must share steps with directions to spare, spending the
// idle link directions 2d·steps − (N−1) allows. A step may take an orbit
// only when one of its members has a tree neighbour already reached; the
// depth-first search tries the orbits nearest the origin first, for a
// small orbit each direction it may come in by, and backs off a choice
// that leaves a step it cannot close. It scans every orbit each step:
// every torus a collective runs on (N ≤ 1024) takes under 10 ms
// (TestTorusTreeValid; the 2-D p = 100 about 0.4 s).

// mnbTree is a spanning tree of the torus's offsets with the step at which
// each offset is reached: offset u = Σ x_i p^i is reached in step Step[u]
// (1-based; 0 for the origin) from Par[u] over direction Dir[u] (2·dim +
// (0 −, 1 +)).
type mnbTree struct {
	P, D  int
	Steps int
	Par   []int32
	Dir   []int8
	Step  []int32
	// Expanded counts the search's tried (orbit, edge) choices.
	Expanded int
}

// maxTreeExpand bounds the search: beyond it torusTree gives up.
const maxTreeExpand = 1 << 22

var treeCache sync.Map // [p, d] → *mnbTree

// torusTree is the cached symmetric MNB tree of the p-ary d-dimensional
// torus (p ≥ 3) with ⌈(N−1)/(2d)⌉ steps.
func torusTree(p, d int) (*mnbTree, error) {
	if t, ok := treeCache.Load([2]int{p, d}); ok {
		return t.(*mnbTree), nil
	}
	t, err := searchTorusTree(p, d)
	if err != nil {
		return nil, err
	}
	treeCache.Store([2]int{p, d}, t)
	return t, nil
}

// treeSearch is the state of one search.
type treeSearch struct {
	p, d, n   int
	pow       []int
	orbits    [][]int32 // by nearness to the origin
	reached   []bool
	idle      int // idle link directions left to spend
	full      uint16
	t         *mnbTree
	turnDir   []int8  // σ on directions
	byOrbit   []int32 // orbit index → the step that took it, or 0
	remaining int     // orbits not yet taken
}

func (s *treeSearch) digit(u, i int) int { return u / s.pow[i] % s.p }

// turn is σ(u) = (−x_{d−1}, x_0, …, x_{d−2}) (d = 2: ρ(x, y) = (−y, x)).
func (s *treeSearch) turn(u int) int {
	v := (s.p - s.digit(u, s.d-1)) % s.p
	for i := 1; i < s.d; i++ {
		v += s.digit(u, i-1) * s.pow[i]
	}
	return v
}

// step is u moved one hop along direction dir (2·dim + sign).
func (s *treeSearch) step(u int, dir int8) int {
	i := int(dir >> 1)
	c := s.digit(u, i)
	return u + ((c+s.p+2*int(dir&1)-1)%s.p-c)*s.pow[i]
}

// dist is offset u's distance from the origin on the torus.
func (s *treeSearch) dist(u int) int {
	h := 0
	for i := 0; i < s.d; i++ {
		c := s.digit(u, i)
		h += min(c, s.p-c)
	}
	return h
}

func searchTorusTree(p, d int) (*mnbTree, error) {
	if p < 3 || d < 1 || d > 8 {
		return nil, fmt.Errorf("torus MNB tree: p = %d, d = %d, want p ≥ 3 and 1 ≤ d ≤ 8", p, d)
	}
	s := &treeSearch{p: p, d: d, n: 1, full: 1<<(2*d) - 1}
	for range d {
		s.pow = append(s.pow, s.n)
		s.n *= p
	}
	n := s.n
	steps := ceilDiv(n-1, 2*d)
	s.idle, s.reached = 2*d*steps-(n-1), make([]bool, n)
	s.t = &mnbTree{P: p, D: d, Steps: steps, Par: make([]int32, n), Dir: make([]int8, n), Step: make([]int32, n)}
	for i := 0; i < d; i++ { // σ: +e_i → +e_{i+1}, the last to −e_0 (and − to −, the last to +e_0)
		s.turnDir = append(s.turnDir, int8(2*(i+1)), int8(2*(i+1)+1))
	}
	s.turnDir[2*d-2], s.turnDir[2*d-1] = 1, 0
	s.reached[0], s.t.Par[0] = true, -1
	seen := make([]bool, n)
	seen[0] = true
	for u := 1; u < n; u++ {
		var o []int32
		for v := u; !seen[v]; v = s.turn(v) {
			seen[v] = true
			o = append(o, int32(v))
		}
		if o != nil {
			s.orbits = append(s.orbits, o)
		}
	}
	slices.SortStableFunc(s.orbits, func(a, b []int32) int { return s.dist(int(a[0])) - s.dist(int(b[0])) })
	s.byOrbit = make([]int32, len(s.orbits))
	s.remaining = len(s.orbits)
	if !s.dfs(1) {
		return nil, fmt.Errorf("torus MNB tree: no symmetric tree of %d steps for p = %d, d = %d within %d tries", steps, p, d, s.t.Expanded)
	}
	return s.t, nil
}

// joins reports whether orbit o can join in step t, which has used the
// directions avoid, its first member over dir from a node reached in an
// earlier step (enough: the reached set is σ-invariant, so another member
// over σ^k(dir) is the same edges turned).
func (s *treeSearch) joins(o []int32, dir int8, avoid uint16, t int) bool {
	from := s.step(int(o[0]), dir^1)
	return avoid&s.orbitDirs(dir, len(o)) == 0 && s.reached[from] && (from == 0 || int(s.t.Step[from]) < t)
}

// orbitDirs is the set of directions (a bit mask) that the turns of an
// edge along dir cross in an orbit of size m.
func (s *treeSearch) orbitDirs(dir int8, m int) uint16 {
	var mask uint16
	for k := 0; k < m; k++ {
		mask |= 1 << dir
		dir = s.turnDir[dir]
	}
	return mask
}

// dfs fills steps from t on; false: no way on from here.
func (s *treeSearch) dfs(t int) bool {
	if s.remaining == 0 {
		return true
	}
	if t > s.t.Steps || s.t.Expanded >= maxTreeExpand {
		return false
	}
	return s.fill(t, 0, 0)
}

// fill adds orbits to step t whose directions avoid the mask used (from
// orbit index from on), then ends the step: at once when all 2d
// directions are used, else spending idle ones while the budget lasts.
func (s *treeSearch) fill(t int, used uint16, from int) bool {
	if used == s.full {
		return s.dfs(t + 1)
	}
	for oi := from; oi < len(s.orbits); oi++ {
		if s.byOrbit[oi] != 0 {
			continue
		}
		o := s.orbits[oi]
		for dir := int8(0); dir < int8(2*s.d); dir++ {
			if !s.joins(o, dir, used, t) {
				continue
			}
			s.t.Expanded++
			mask := s.take(o, dir, t, oi)
			if s.fill(t, used|mask, oi+1) {
				return true
			}
			s.untake(o, oi)
			if s.t.Expanded >= maxTreeExpand || mask == s.full {
				break // (another direction would reach the same set with the same mask)
			}
		}
		if s.t.Expanded >= maxTreeExpand {
			return false
		}
	}
	return used != 0 && s.idle >= 2*s.d-bits.OnesCount16(used) && s.closeStep(t, used)
}

// closeStep ends step t with the directions used (spending the idle ones)
// and searches on.
func (s *treeSearch) closeStep(t int, used uint16) bool {
	spent := 2*s.d - bits.OnesCount16(used)
	s.idle -= spent
	if s.dfs(t + 1) {
		return true
	}
	s.idle += spent
	return false
}

// take reaches orbit o in step t: its first member over dir, the others
// by turns of that edge; it returns the directions crossed.
func (s *treeSearch) take(o []int32, dir int8, t, oi int) uint16 {
	u, d := int(o[0]), dir
	var mask uint16
	for range o {
		s.reached[u] = true
		s.t.Par[u], s.t.Dir[u], s.t.Step[u] = int32(s.step(u, d^1)), d, int32(t)
		mask |= 1 << d
		u, d = s.turn(u), s.turnDir[d]
	}
	s.byOrbit[oi] = int32(t)
	s.remaining--
	return mask
}

func (s *treeSearch) untake(o []int32, oi int) {
	for _, u := range o {
		s.reached[u] = false
	}
	s.byOrbit[oi] = 0
	s.remaining++
}

// torusMNBHops is the translated tree's plan on the torus g: in step t
// every node v sends, for each tree edge w → u of step t, the packet of
// origin v − w (its key: keyOf(origin)) over u's direction.
func torusMNBHops(g *grid, t *mnbTree, keyOf func(origin int) int32) []gridHop {
	hops := make([]gridHop, 0, g.N*(g.N-1))
	for u := 1; u < g.N; u++ {
		w := int(t.Par[u])
		for x := 0; x < g.N; x++ {
			v := 0
			for i := 0; i < g.d; i++ {
				v += (g.digit(x, i) + g.digit(w, i)) % g.p * g.pow[i]
			}
			hops = append(hops, gridHop{Slot: t.Step[u] - 1, Node: int32(v), Key: keyOf(x), Dim: t.Dir[u] >> 1, Dir: t.Dir[u] & 1})
		}
	}
	return hops
}

// setupMNBOpt loads the optimal MNB (task.algorithm=optimal, d ≥ 2): the
// searched tree's plan on the torus, folded onto the array there.
func setupMNBOpt(k *kernel.Kernel, g *grid, px *proxy, r *Result) (*checker, error) {
	if g.p < 3 {
		return nil, inputerr.New("topology.k", g.p, "at least 3 for task.algorithm=optimal (it simulates the k-ary torus)")
	}
	t, err := torusTree(g.p, g.d)
	if err != nil {
		return nil, err
	}
	var hops []gridHop
	if g.torus {
		hops = torusMNBHops(g, t, func(x int) int32 { return int32(x) })
	} else if hops, err = foldPlan(g, torusMNBHops(g, t, func(x int) int32 { return int32(foldNode(g, x)) })); err != nil {
		return nil, err
	}
	ck := newCheckerOthers(g.N)
	plan := newGridPlan(g, g.N, hops, ck)
	for v := 0; v < g.N; v++ {
		plan.load(k, v, v)
	}
	px.SlotScheduler, px.limit = plan, plan.slots+1
	r.Packets = int64(g.N)
	r.Params = append(r.Params, "task.algorithm=optimal")
	mnbOptFigures(g, t, r)
	return ck, nil
}

// mnbOptFigures sets the optimum (Theorem 1 for d = 2, §3.4's torus
// optimum; an array of d ≥ 3 has only the simulation's bound), the lower
// bound and the reading.
func mnbOptFigures(g *grid, t *mnbTree, r *Result) {
	meshMNBFormula(g, "optimal", r)
	links := 2 * g.d
	r.LowerText = fmt.Sprintf("⌈(N−1)/%d⌉: every node receives N−1 packets over its %d links", links, links)
	if !g.torus {
		links = g.d
		r.LowerText = fmt.Sprintf("⌈(N−1)/%d⌉: the corner node receives N−1 packets over its %d links (Theorem 1)", links, links)
		if g.d > 2 {
			r.LowerText = strings.Replace(r.LowerText, "Theorem 1", "Eq. 3.4 with M = N", 1)
			u := float64(2 * t.Steps)
			r.UpperBound, r.UpperText = &u, "2⌈(N−1)/(2d)⌉: the torus optimum simulated with slowdown 2 (§3.4, digest §5.8)"
		}
	}
	r.LowerBound = float64(ceilDiv(g.N-1, links))
	sym := "quarter-turn-symmetric trees"
	if g.d > 2 {
		sym = "trees symmetric under (x_0, …, x_{d−1}) → (−x_{d−1}, x_0, …, x_{d−2}), which cycles the 2d directions"
	}
	r.Reading = fmt.Sprintf("every node's packet spread by one spanning tree of offsets translated to its origin, "+
		"found by search among %s (%d steps, %d choices tried; the seed quotes [BeT89]'s optimum without the algorithm)", sym, t.Steps, t.Expanded)
	if !g.torus {
		r.Reading += "; carried out on the array by the torus-by-array simulation with slowdown 2 (§3.2: ring nodes 0, 1, 2, … at array places 0, 2, 4, … going out, the rest at the odd places coming back; a torus step is two array slots)"
	}
}
