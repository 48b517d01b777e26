package collective

import (
	"fmt"
	"slices"
	"sync"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/internal/kernel"
)

// The optimal MNB of the p×p torus (Varvarigos §3.2 quoting [BeT89],
// digest 000a §5.2): ⌈(N−1)/4⌉ steps, p²/4 for p even and (p²−1)/4 for p
// odd, every node's packet spread by the same spanning tree of offsets,
// translated to its origin. A translated tree is a valid schedule iff in
// every step the tree crosses each of the four link directions at most
// once (node v then sends in step t, over direction e, the packet of origin
// v − w for the one tree edge w → w+e of step t). The seed does not give
// [BeT89]'s tree; torusTree finds one by search.
//
// The search looks only at trees invariant under the quarter turn ρ(x, y)
// = (−y, x), which maps the directions +x → +y → −x → −y → +x: the four
// turns of an edge cross four different directions, so a step that adds a
// whole orbit {u, ρu, ρ²u, ρ³u} (each member by the turn of one edge) is
// always valid. For p odd every orbit but {0} has four members and the
// steps are exactly the (p²−1)/4 orbits; for p even (h = p/2) the orbit
// {(h,0), (0,h)} has two and {(h,h)} one, and they must share the one step
// with an idle direction. A step may take an orbit only when one of its
// members has a tree neighbour already reached; the depth-first search
// tries the orbits nearest the origin first and backs off a choice that
// leaves a step it cannot close (for p even, the two small orbits tried
// apart: at most 1.6 tries a step for p ≤ 32). The search scans every
// orbit each step: p ≤ 8 in tens of µs, p = 32 (the largest torus a
// collective runs on) in about 3 ms, p = 100 in 0.4 s.

// mnbTree is a spanning tree of the torus's offsets with the step at which
// each offset is reached: offset u = x + p·y is reached in step Step[u]
// (1-based; 0 for the origin) from Par[u] over direction Dir[u] (2·dim +
// (0 −, 1 +)).
type mnbTree struct {
	P     int
	Steps int
	Par   []int32
	Dir   []int8
	Step  []int32
	// Expanded counts the search's tried (orbit, edge) choices.
	Expanded int
}

// maxTreeExpand bounds the search: beyond it torusTree gives up.
const maxTreeExpand = 1 << 22

var treeCache sync.Map // p → *mnbTree

// torusTree is the cached quarter-turn-symmetric MNB tree of the p×p
// torus (p ≥ 3) with ⌈(p²−1)/4⌉ steps.
func torusTree(p int) (*mnbTree, error) {
	if t, ok := treeCache.Load(p); ok {
		return t.(*mnbTree), nil
	}
	t, err := searchTorusTree(p)
	if err != nil {
		return nil, err
	}
	treeCache.Store(p, t)
	return t, nil
}

// treeSearch is the state of one search.
type treeSearch struct {
	p, n      int
	orbits    [][]int32 // by nearness to the origin
	reached   []bool
	idle      int // idle link directions left to spend
	t         *mnbTree
	turnDir   [4]int8 // ρ on directions
	byOrbit   []int32 // orbit index → the step that took it, or 0
	remaining int     // orbits not yet taken
}

// turn is ρ(u) = (−y, x).
func (s *treeSearch) turn(u int) int {
	x, y := u%s.p, u/s.p
	return (s.p-y)%s.p + s.p*x
}

// step is u moved one hop along direction dir (2·dim + sign).
func (s *treeSearch) step(u int, dir int8) int {
	c := [2]int{u % s.p, u / s.p}
	c[dir>>1] = (c[dir>>1] + s.p + 2*int(dir&1) - 1) % s.p
	return c[0] + s.p*c[1]
}

func searchTorusTree(p int) (*mnbTree, error) {
	if p < 3 {
		return nil, fmt.Errorf("torus MNB tree: p = %d, want at least 3", p)
	}
	n := p * p
	steps := (n - 1 + 3) / 4
	s := &treeSearch{p: p, n: n, reached: make([]bool, n), idle: 4*steps - (n - 1),
		t:       &mnbTree{P: p, Steps: steps, Par: make([]int32, n), Dir: make([]int8, n), Step: make([]int32, n)},
		turnDir: [4]int8{2, 3, 1, 0}} // ρ: −x → −y, +x → +y, −y → +x, +y → −x
	s.reached[0] = true
	s.t.Par[0] = -1
	seen := make([]bool, n)
	seen[0] = true
	for u := 1; u < n; u++ {
		if seen[u] {
			continue
		}
		var o []int32
		for v := u; !seen[v]; v = s.turn(v) {
			seen[v] = true
			o = append(o, int32(v))
		}
		s.orbits = append(s.orbits, o)
	}
	dist := func(u int32) int {
		x, y := int(u)%p, int(u)/p
		return min(x, p-x) + min(y, p-y)
	}
	slices.SortStableFunc(s.orbits, func(a, b []int32) int { return dist(a[0]) - dist(b[0]) })
	s.byOrbit = make([]int32, len(s.orbits))
	s.remaining = len(s.orbits)
	if !s.dfs(1) {
		return nil, fmt.Errorf("torus MNB tree: no quarter-turn-symmetric tree of %d steps for p = %d within %d tries", steps, p, s.t.Expanded)
	}
	return s.t, nil
}

// edgeInto finds a member of orbit o and a direction by which it joins the
// reached set: the member's index and the direction, or −1.
func (s *treeSearch) edgeInto(o []int32, avoid uint8) (int, int8) {
	for i, u := range o {
		for dir := int8(0); dir < 4; dir++ {
			if avoid&s.orbitDirs(dir, len(o)) != 0 {
				continue
			}
			if s.reached[s.step(int(u), dir^1)] { // (the neighbour it comes from)
				return i, dir
			}
		}
	}
	return -1, -1
}

// orbitDirs is the set of directions (a bit mask) that the turns of an
// edge along dir cross in an orbit of size m.
func (s *treeSearch) orbitDirs(dir int8, m int) uint8 {
	var mask uint8
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
// orbit index from on), then ends the step: at once when all four
// directions are used, else spending idle ones while the budget lasts.
func (s *treeSearch) fill(t int, used uint8, from int) bool {
	if used == 15 {
		return s.dfs(t + 1)
	}
	for oi := from; oi < len(s.orbits); oi++ {
		if s.byOrbit[oi] != 0 {
			continue
		}
		o := s.orbits[oi]
		i, dir := s.edgeInto(o, used)
		if i < 0 {
			continue
		}
		s.t.Expanded++
		mask := s.take(o, i, dir, t, oi)
		if s.fill(t, used|mask, oi+1) {
			return true
		}
		s.untake(o, oi)
		if s.t.Expanded >= maxTreeExpand {
			return false
		}
	}
	return used != 0 && s.idle >= 4-popcount4(used) && s.closeStep(t, used)
}

// closeStep ends step t with the directions used (spending the idle ones)
// and searches on.
func (s *treeSearch) closeStep(t int, used uint8) bool {
	spent := 4 - popcount4(used)
	s.idle -= spent
	if s.dfs(t + 1) {
		return true
	}
	s.idle += spent
	return false
}

// take reaches orbit o in step t: member i over dir, the others by turns
// of that edge; it returns the directions crossed.
func (s *treeSearch) take(o []int32, i int, dir int8, t, oi int) uint8 {
	u, d := int(o[i]), dir
	var mask uint8
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

func popcount4(m uint8) int { return int(m&1 + m>>1&1 + m>>2&1 + m>>3&1) }

// torusMNBHops is the translated tree's plan on the p×p torus g (d = 2):
// in step t every node v sends, for each tree edge w → u of step t, the
// packet of origin v − w (its key: keyOf(origin)) over u's direction.
func torusMNBHops(g *grid, t *mnbTree, keyOf func(origin int) int32) []gridHop {
	p := g.p
	hops := make([]gridHop, 0, g.N*(g.N-1))
	for u := 1; u < g.N; u++ {
		w := int(t.Par[u])
		for x := 0; x < g.N; x++ {
			v := (x%p+w%p)%p + p*((x/p+w/p)%p)
			hops = append(hops, gridHop{Slot: t.Step[u] - 1, Node: int32(v), Key: keyOf(x), Dim: t.Dir[u] >> 1, Dir: t.Dir[u] & 1})
		}
	}
	return hops
}

// setupMNBOpt loads the optimal 2-D MNB (task.algorithm=optimal): the
// searched tree's plan on the torus, folded onto the array there.
func setupMNBOpt(k *kernel.Kernel, g *grid, px *proxy, r *Result) (*checker, error) {
	if g.d != 2 {
		return nil, inputerr.New("task.algorithm", "optimal", "on a 2-D torus or array only (topology.n = 2; got %d)", g.d)
	}
	if g.p < 3 {
		return nil, inputerr.New("topology.k", g.p, "at least 3 for task.algorithm=optimal (it simulates the k×k torus)")
	}
	t, err := torusTree(g.p)
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

// mnbOptFigures sets the optimum, the lower bound and the reading.
func mnbOptFigures(g *grid, t *mnbTree, r *Result) {
	meshMNBFormula(g, "optimal", r)
	links := 4
	r.LowerText = "⌈(N−1)/4⌉: every node receives N−1 packets over its 4 links"
	if !g.torus {
		links = 2
		r.LowerText = "⌈(N−1)/2⌉: the corner node receives N−1 packets over its 2 links (Theorem 1)"
	}
	r.LowerBound = float64(ceilDiv(g.N-1, links))
	r.Reading = fmt.Sprintf("every node's packet spread by one spanning tree of offsets translated to its origin, "+
		"found by search among quarter-turn-symmetric trees (%d steps, %d choices tried; the seed quotes [BeT89]'s optimum without the algorithm)", t.Steps, t.Expanded)
	if !g.torus {
		r.Reading += "; carried out on the array by the torus-by-array simulation with slowdown 2 (§3.2: ring nodes 0, 1, 2, … at array places 0, 2, 4, … going out, the rest at the odd places coming back; a torus step is two array slots)"
	}
}
