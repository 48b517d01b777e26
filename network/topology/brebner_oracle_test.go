package topology

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/flitsim/flitsim/flit"
)

// Route-by-route equality with the reference model of digest 004
// (004_brebner_refmodel.py): its route functions, ported line for line as
// independent oracles. Each returns the nodes visited, the source first.

func refCube(n, s, t int, dims []int) []int { // dims: the order, filtered to the differing ones
	cur, out := s, []int{s}
	for _, k := range dims {
		if (s^t)>>k&1 != 0 {
			cur ^= 1 << k
			out = append(out, cur)
		}
	}
	return out
}

func refDShuffle(d, n, s, t int, opt bool) []int {
	N := ipow(d, n)
	digits := func(x int) []int {
		o := make([]int, n)
		for i := n - 1; i >= 0; i-- {
			o[i] = x % d
			x /= d
		}
		return o
	}
	td, start := digits(t), 0
	if opt {
		sd := digits(s)
		for L := n; L >= 0; L-- {
			if slices.Equal(sd[n-L:], td[:L]) {
				start = L
				break
			}
		}
	}
	cur, out := s, []int{s}
	for k := start; k < n; k++ {
		cur = cur*d%N + td[k]
		out = append(out, cur)
	}
	return out
}

func refSE(n, s, t int) []int {
	N := 1 << n
	sh := func(v int) int { return (v<<1)&(N-1) | v>>(n-1) }
	cur := sh(s)
	out := []int{s, cur}
	for i := n - 1; i >= 0; i-- {
		if (t>>i)&1 != cur&1 {
			cur ^= 1
			out = append(out, cur)
		}
		if i > 0 {
			cur = sh(cur)
			out = append(out, cur)
		}
	}
	return out
}

func refCCC(s, a, b int, fwdTie bool) []int {
	c, p := a/s, a%s
	c2, p2 := b/s, b%s
	out := []int{a}
	diff := c ^ c2
	for diff != 0 {
		if diff>>p&1 != 0 {
			c ^= 1 << p
			diff ^= 1 << p
			out = append(out, c*s+p)
		}
		if diff != 0 {
			p = (p + 1) % s
			out = append(out, c*s+p)
		}
	}
	f, g := ((p2-p)%s+s)%s, ((p-p2)%s+s)%s
	fwd := f < g || (f == g && fwdTie)
	steps := g
	if fwd {
		steps = f
	}
	for range steps {
		if fwd {
			p = (p + 1) % s
		} else {
			p = (p - 1 + s) % s
		}
		out = append(out, c*s+p)
	}
	return out
}

// refGrid is the model's Grid with the strict strategy: all i-moves, then
// all j-moves (id = i·n + j); plusTie[0] and plusTie[1] are the directions
// of i and j at exactly half a ring (the model draws them at random).
func refGrid(n int, wrap bool, a, b int, plusTie [2]bool) []int {
	moves1d := func(x, y, plus, minus int, tie bool) []int {
		var mv []int
		if !wrap {
			for ; x < y; x++ {
				mv = append(mv, plus)
			}
			for ; x > y; x-- {
				mv = append(mv, minus)
			}
			return mv
		}
		f, g := ((y-x)%n+n)%n, ((x-y)%n+n)%n
		if f < g || (f == g && tie) {
			for range f {
				mv = append(mv, plus)
			}
			return mv
		}
		for range g {
			mv = append(mv, minus)
		}
		return mv
	}
	i, j := a/n, a%n
	i2, j2 := b/n, b%n
	mv := append(moves1d(i, i2, 0, 1, plusTie[0]), moves1d(j, j2, 2, 3, plusTie[1])...)
	out := []int{a}
	for _, m := range mv {
		switch m {
		case 0:
			i = (i + 1) % n
		case 1:
			i = (i - 1 + n) % n
		case 2:
			j = (j + 1) % n
		default:
			j = (j - 1 + n) % n
		}
		out = append(out, i*n+j)
	}
	return out
}

// refUpfal is the digest's §2.4 three passes on the CCC⁺ with the random
// flips of the first two passes given by bits of aux.
func refUpfal(s, a, b int, aux uint64) []int {
	c, p := a/s, a%s
	c2, p2 := b/s, b%s
	out := []int{a}
	step := func(flip bool) {
		if flip {
			c ^= 1 << p
		}
		p = (p + 1) % s
		out = append(out, c*s+p)
	}
	h := 0
	for range s { // round the cycle, flipping at random
		step(aux>>h&1 != 0)
		h++
	}
	for p != p2 { // on to the destination position, flipping at random
		step(aux>>h&1 != 0)
		h++
	}
	for range s { // round again, fixing the bits
		step((c^c2)>>p&1 != 0)
	}
	return out
}

// eachPair compares the built network's route with want for every pair.
func eachPair(t *testing.T, s Spec, aux func(src, dst int) uint64, want func(src, dst int, aux uint64) []int) {
	t.Helper()
	topo := mustBuild(t, s)
	for src := range topo.Terminals() {
		for dst := range topo.Terminals() {
			a := aux(src, dst)
			got, w := walk(t, topo, src, dst, a), want(src, dst, a)
			if !slices.Equal(got, w) {
				t.Fatalf("%s %s %d→%d (aux %d):\n got %v\nwant %v", topo.Kind, topo.Router.Name(), src, dst, a, got, w)
			}
		}
	}
}

func TestBrebnerRoutesMatchReferenceModel(t *testing.T) {
	none := func(int, int) uint64 { return 0 }
	for n := 1; n <= 6; n++ {
		eachPair(t, Spec{Kind: "hypercube", D: n}, none, func(s, d int, _ uint64) []int { return refCube(n, s, d, identity(n)) })
		// Semi-strict from start st: increasing modulo n (the model sorts
		// the differing dimensions by (k − st) mod n).
		eachPair(t, Spec{Kind: "hypercube", D: n, Routing: "semi-strict"}, func(s, d int) uint64 { return uint64((s*7 + d) % n) },
			func(s, d int, st uint64) []int {
				order := identity(n)
				slices.SortFunc(order, func(a, b int) int { return (a-int(st)+n)%n - (b-int(st)+n)%n })
				return refCube(n, s, d, order)
			})
		eachPair(t, Spec{Kind: "shuffle-exchange", N: n}, none, func(s, d int, _ uint64) []int { return refSE(n, s, d) })
	}
	for _, dn := range [][2]int{{2, 1}, {2, 3}, {2, 5}, {3, 3}, {4, 2}, {5, 2}} {
		d, n := dn[0], dn[1]
		for _, opt := range []bool{false, true} {
			r := map[bool]string{false: "standard", true: "shortest"}[opt]
			eachPair(t, Spec{Kind: "dshuffle", D: d, N: n, Routing: r}, none, func(s, t int, _ uint64) []int { return refDShuffle(d, n, s, t, opt) })
		}
	}
	for s := 2; s <= 5; s++ {
		eachPair(t, Spec{Kind: "ccc", N: s}, none, func(a, b int, _ uint64) []int { return refCCC(s, a, b, true) })
		eachPair(t, Spec{Kind: "ccc", N: s, Tie: "random"}, func(a, b int) uint64 { return uint64(a ^ b) },
			func(a, b int, aux uint64) []int { return refCCC(s, a, b, s%2 == 1 || aux&1 != 0) })
		eachPair(t, Spec{Kind: "ccc-plus", N: s}, func(a, b int) uint64 { return uint64(a*131+b*7) * 0x9e3779b97f4a7c15 },
			func(a, b int, aux uint64) []int { return refUpfal(s, a, b, aux) })
	}
	// Grid and torus: the model's id i·n+j is the mesh's x0 + k·x1, so its
	// i is x1 and strict (i first) is dor with order 1,0.
	for _, n := range []int{2, 3, 4, 5, 6} {
		eachPair(t, Spec{Kind: "mesh", K: n, N: 2, Order: IntList{1, 0}}, none,
			func(a, b int, _ uint64) []int { return refGrid(n, false, a, b, [2]bool{}) })
		eachPair(t, Spec{Kind: "torus", K: n, N: 2, Order: IntList{1, 0}}, none,
			func(a, b int, _ uint64) []int { return refGrid(n, true, a, b, [2]bool{true, true}) })
		// tie random: bit 1 of aux is dimension 1 (i), bit 0 dimension 0 (j).
		eachPair(t, Spec{Kind: "torus", K: n, N: 2, Order: IntList{1, 0}, Tie: "random"}, func(a, b int) uint64 { return uint64(a+b) % 4 },
			func(a, b int, aux uint64) []int { return refGrid(n, true, a, b, [2]bool{aux>>1&1 != 0, aux&1 != 0}) })
	}
}

// TestRandomOrdersAreUniform checks the randomised orders hop by hop: the
// cube's random-order over all d! ranks gives every order of the differing
// dimensions equally often (exactly), and the mesh's and torus's random
// interleaving, drawn per packet, hits each interleaving with frequency
// within sampling error of uniform.
func TestRandomOrdersAreUniform(t *testing.T) {
	topo := mustBuild(t, Spec{Kind: "hypercube", D: 4, Routing: "random-order"})
	count := map[string]int{}
	for rank := range uint64(24) {
		count[fmt.Sprint(walk(t, topo, 0b0000, 0b1011, rank))]++
	}
	if len(count) != 6 { // 3! orders of dimensions 0, 1, 3, each 24/6 times
		t.Fatalf("cube random-order: %d orders %v", len(count), count)
	}
	for k, c := range count {
		if c != 4 {
			t.Errorf("cube random-order: order %s %d times of 24", k, c)
		}
	}
	for _, s := range []Spec{{Kind: "mesh", K: 4, N: 2, Routing: "random-order"}, {Kind: "torus", K: 5, N: 2, Routing: "random-order"}} {
		topo := mustBuild(t, s)
		rng := rand.New(rand.NewPCG(3, 4))
		const trials = 30000
		count := map[string]int{}
		for range trials {
			w := newWorm(0, 2+2*s.K) // (0,0) → (2,2): C(4,2) = 6 interleavings
			topo.Router.Init(w, rng)
			count[fmt.Sprint(walk(t, topo, 0, int(w.Dst), w.Aux))]++
		}
		chi := 0.0
		for _, c := range count {
			e := float64(trials) / 6
			chi += (float64(c) - e) * (float64(c) - e) / e
		}
		// 5 degrees of freedom: P(χ² > 25) ≈ 1.4e-4.
		if len(count) != 6 || chi > 25 {
			t.Errorf("%s random-order: %d interleavings, χ² = %.1f: %v", s.Kind, len(count), chi, count)
		}
	}
}

func newWorm(src, dst int) *flit.Worm { return &flit.Worm{Src: int32(src), Dst: int32(dst)} }

// TestStatelessViewsDeliver: the stateless Route of the routings that keep
// per-packet state (multicast worms take it) reaches every destination
// without crossing a router twice.
func TestStatelessViewsDeliver(t *testing.T) {
	for _, s := range []Spec{{Kind: "dshuffle", D: 2, N: 5}, {Kind: "dshuffle", D: 3, N: 3}, {Kind: "shuffle-exchange", N: 1},
		{Kind: "shuffle-exchange", N: 6}, {Kind: "ccc-plus", N: 2}, {Kind: "ccc-plus", N: 4}} {
		topo := mustBuild(t, s)
		if _, ok := topo.Router.(StatefulRouter); !ok {
			t.Fatalf("%s: not stateful", s.Kind)
		}
		for src := range topo.Terminals() {
			for dst := range topo.Terminals() {
				w := newWorm(src, dst)
				sw, in := int(topo.InSwitch[src]), int(topo.InPort[src])
				seen := map[int]bool{}
				for {
					if seen[sw] {
						t.Fatalf("%s %d→%d: router %d crossed twice", s.Kind, src, dst, sw)
					}
					seen[sw] = true
					e := topo.Switches[sw].Out[topo.Router.Route(sw, in, w).First()]
					if e.ToTerminal() {
						if int(e.Terminal) != dst {
							t.Fatalf("%s %d→%d: ejected at %d", s.Kind, src, dst, e.Terminal)
						}
						break
					}
					sw, in = int(e.Switch), int(e.Port)
				}
			}
		}
	}
}

// TestBrebnerRoutersDoNotAllocate: a head is routed at every switch it
// crosses, so the routing functions (and Init) must not allocate.
func TestBrebnerRoutersDoNotAllocate(t *testing.T) {
	for _, s := range []Spec{{Kind: "dshuffle", D: 3, N: 4}, {Kind: "dshuffle", D: 3, N: 4, Routing: "shortest"},
		{Kind: "ccc", N: 4, Tie: "random"}, {Kind: "ccc-plus", N: 4}, {Kind: "shuffle-exchange", N: 6},
		{Kind: "hypercube", D: 8, Routing: "random-order"}, {Kind: "hypercube", D: 8, Routing: "semi-strict"},
		{Kind: "mesh", K: 6, N: 3, Routing: "random-order"}, {Kind: "torus", K: 6, N: 2, Tie: "random", Routing: "random-order"},
		{Kind: "torus", K: 6, N: 2, Tie: "random"}} {
		topo := mustBuild(t, s)
		rng := rand.New(rand.NewPCG(1, 1))
		nt := topo.Terminals()
		sr, stateful := topo.Router.(StatefulRouter)
		w := newWorm(0, 0)
		var st flit.RouteState
		i, hops := 0, 0
		if a := testing.AllocsPerRun(500, func() {
			i++
			w.Src, w.Dst, st = int32(i%nt), int32(i*7%nt), flit.RouteState{}
			topo.Router.Init(w, rng)
			sw, in := int(topo.InSwitch[w.Src]), int(topo.InPort[w.Src])
			for {
				ps := topo.Router.Route(sw, in, w)
				if stateful {
					ps = sr.RouteHead(sw, in, w, &st)
				}
				e := topo.Switches[sw].Out[ps.First()]
				if e.Switch < 0 {
					break
				}
				sw, in = int(e.Switch), int(e.Port)
				hops++
			}
		}); a != 0 || hops == 0 {
			t.Errorf("%s %s: %v allocations per route (%d hops)", s.Kind, topo.Router.Name(), a, hops)
		}
	}
}
