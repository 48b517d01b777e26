package collective

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network/topology"
)

// The searched tree, checked independently of the search: ⌈(N−1)/(2d)⌉
// steps, every offset reached once from a neighbour reached earlier over
// the direction between them, no direction twice in a step; for every
// torus a collective runs on (N ≤ 1024, d ≤ 6).
func TestTorusTreeValid(t *testing.T) {
	var cases [][2]int
	for d := 2; d <= 6; d++ {
		for p := 3; ; p++ {
			if n := ipow(p, d); n < 0 || n > MaxMeshNodes {
				break
			}
			cases = append(cases, [2]int{p, d})
		}
	}
	for _, c := range cases {
		p, d := c[0], c[1]
		start := time.Now()
		tr, err := searchTorusTree(p, d)
		took := time.Since(start)
		if err != nil {
			t.Fatal(err)
		}
		if d == 2 && (p <= 8 || p == 32) || d > 2 && p <= 4 {
			t.Logf("p = %d, d = %d: %d steps, %d choices, %v", p, d, tr.Steps, tr.Expanded, took)
		}
		checkTree(t, tr, p, d)
		if took > time.Second {
			t.Errorf("p = %d, d = %d: the search took %v", p, d, took)
		}
	}
}

func checkTree(t *testing.T, tr *mnbTree, p, d int) {
	t.Helper()
	s := &treeSearch{p: p, d: d, n: 1}
	for range d {
		s.pow = append(s.pow, s.n)
		s.n *= p
	}
	if tr.Steps != ceilDiv(s.n-1, 2*d) {
		t.Fatalf("p = %d, d = %d: %d steps, want ⌈(N−1)/(2d)⌉ = %d", p, d, tr.Steps, ceilDiv(s.n-1, 2*d))
	}
	used := map[[2]int]int{}
	for u := 1; u < s.n; u++ {
		w, st := int(tr.Par[u]), int(tr.Step[u])
		if st < 1 || st > tr.Steps || w < 0 || w != 0 && int(tr.Step[w]) >= st {
			t.Fatalf("p = %d, d = %d: offset %d reached in step %d from %d (step %d)", p, d, u, st, w, tr.Step[max(w, 0)])
		}
		if s.step(w, tr.Dir[u]) != u {
			t.Fatalf("p = %d, d = %d: offset %d is not %d moved along direction %d", p, d, u, w, tr.Dir[u])
		}
		if used[[2]int{st, int(tr.Dir[u])}]++; used[[2]int{st, int(tr.Dir[u])}] > 1 {
			t.Fatalf("p = %d, d = %d: step %d crosses direction %d twice", p, d, st, tr.Dir[u])
		}
	}
}

// The optimum on the hardware: torus p²/4 or (p²−1)/4, array ⌊N/2⌋
// (Theorem 1), delivered exactly once with no link conflict; d-D tori
// ⌈(N−1)/(2d)⌉ (§3.4), arrays twice that (the simulation's bound).
func TestMNBOptimalOnHardware(t *testing.T) {
	for _, c := range [][2]int{{3, 2}, {4, 2}, {5, 2}, {6, 2}, {7, 2}, {8, 2}, {9, 2}, {3, 3}, {4, 3}, {5, 3}, {3, 4}, {4, 4}, {3, 5}} {
		p, d := c[0], c[1]
		n := ipow(p, d)
		for _, kind := range []string{"torus", "mesh"} {
			r := runGridT(t, kind, p, d, "mnb", map[string]string{"task.algorithm": "optimal"})
			want, lb := ceilDiv(n-1, 2*d), ceilDiv(n-1, 2*d)
			if kind == "mesh" {
				want, lb = 2*want, ceilDiv(n-1, d)
			}
			if r.Slots != float64(want) || r.LowerBound != float64(lb) || d == 2 && *r.Formula != float64(want) || d > 2 && kind == "torus" && *r.Formula != float64(want) {
				t.Errorf("%s p = %d, d = %d: %g slots (formula %v, lower bound %g), want %d", kind, p, d, r.Slots, r.Formula, r.LowerBound, want)
			}
			if d == 2 && kind == "mesh" && want != n/2 {
				t.Errorf("array p = %d: 2⌈(N−1)/4⌉ = %d is not ⌊N/2⌋", p, want)
			}
		}
	}
}

func TestMNBOptimalRefuses(t *testing.T) {
	for _, c := range []struct {
		kind, task string
		p, n       int
		key        string
		params     map[string]string
	}{
		{"mesh", "mnb", 2, 2, "topology.k", map[string]string{"task.algorithm": "optimal"}},
		{"mesh", "mnb", 4, 2, "task.algorithm", map[string]string{"task.algorithm": "best"}},
		{"torus", "pmnb", 4, 2, "task.algorithm", map[string]string{"task.algorithm": "optimal"}},
	} {
		_, err := Run(topology.Spec{Kind: c.kind, K: c.p, N: c.n}, c.task, c.params, 1)
		var ie *inputerr.Error
		if !errors.As(err, &ie) || ie.Key != c.key {
			t.Errorf("%s k=%d n=%d %v: %v, want an input error on %s", c.kind, c.p, c.n, c.params, err, c.key)
		}
	}
}

func TestFoldSubslots(t *testing.T) {
	for p := 2; p <= 64; p++ {
		if _, err := foldSubslots(p); err != nil {
			t.Fatal(err)
		}
		seen := map[int]bool{}
		for c := 0; c < p; c++ {
			a, b := foldPos(p, c), foldPos(p, (c+1)%p)
			if a < 0 || a >= p || seen[a] || abs(a-b) > 2 {
				t.Fatalf("p = %d: ring %d at %d, ring %d at %d", p, c, a, (c+1)%p, b)
			}
			seen[a] = true
		}
	}
}

// runPlan carries out the hops that build gives on the grid of spec: keys
// start at their origin, key is expected at node want[key] alone, and an
// arrival is a delivery when deliver says so.
func runPlan(t *testing.T, spec topology.Spec, torus bool, build func(g *grid) (hops []gridHop, origin, want []int, deliver func(node, key int) bool)) (*Result, error) {
	t.Helper()
	return runNet(spec, "plan", 1, nil, func(k *kernel.Kernel, net *Net, px *proxy, r *Result) (*checker, error) {
		g, err := newGrid(net, spec.K, spec.N, torus)
		if err != nil {
			return nil, err
		}
		hops, origin, want, deliver := build(g)
		ck := newCheckerCols(g.N, len(origin))
		for key, v := range want {
			ck.expect(v, key)
		}
		plan := newGridPlan(g, len(origin), hops, ck)
		plan.dest = deliver
		for key, o := range origin {
			plan.load(k, o, key)
		}
		px.SlotScheduler, px.limit = plan, plan.slots+1
		return ck, nil
	})
}

// walkPlan is a random conflict-free torus plan: packet class c of every
// node moves in step t along direction dirs[t][c] (the classes take
// different directions in a step, so each link carries one packet); a
// packet is delivered where its walk ends.
func walkPlan(g *grid, rng *rand.Rand, steps, classes int) ([]gridHop, []int, []int) {
	var hops []gridHop
	origin, at := make([]int, g.N*classes), make([]int, g.N*classes)
	for key := range origin {
		origin[key], at[key] = key/classes, key/classes
	}
	for s := 0; s < steps; s++ {
		perm := rng.Perm(2 * g.d)
		for key := range origin {
			dd := perm[key%classes]
			dim, dir := dd/2, dd%2
			hops = append(hops, gridHop{Slot: int32(s), Node: int32(at[key]), Key: int32(key), Dim: int8(dim), Dir: int8(dir)})
			c := (g.digit(at[key], dim) + 2*dir - 1 + g.p) % g.p
			at[key] += (c - g.digit(at[key], dim)) * g.pow[dim]
		}
	}
	return hops, origin, at
}

// The fold takes any torus plan to an array plan of twice the length: a
// random walk plan runs on the torus and, folded, on the array hardware
// (which refuses a link conflict) with the same packets ending at the
// folded nodes.
func TestFoldAnyTorusPlan(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 3))
	for i := 0; i < 30; i++ {
		p, d := 3+rng.IntN(6), 1+rng.IntN(3)
		if d == 3 {
			p = min(p, 5)
		}
		steps, classes := 1+rng.IntN(6), 1+rng.IntN(2*d)
		seed := rng.Uint64()
		for _, torus := range []bool{true, false} {
			kind := map[bool]string{true: "torus", false: "mesh"}[torus]
			r, err := runPlan(t, topology.Spec{Kind: kind, K: p, N: d}, torus, func(g *grid) ([]gridHop, []int, []int, func(int, int) bool) {
				hops, origin, at := walkPlan(g, rand.New(rand.NewPCG(seed, 1)), steps, classes)
				arrivals := make([]int, len(origin)) // (a walk may pass its end before it stops there)
				last := func(_, key int) bool { arrivals[key]++; return arrivals[key] == steps }
				if torus {
					return hops, origin, at, last
				}
				folded, err := foldPlan(g, hops)
				if err != nil {
					t.Fatal(err)
				}
				o, w := make([]int, len(origin)), make([]int, len(origin))
				for key := range o {
					o[key], w[key] = foldNode(g, origin[key]), foldNode(g, at[key])
				}
				return folded, o, w, last
			})
			if err != nil {
				t.Fatalf("%s p=%d d=%d: %v", kind, p, d, err)
			}
			limit := float64(steps) * map[bool]float64{true: 1, false: 2}[torus]
			if !r.Delivered || r.Slots > limit || r.Slots < limit-1 {
				t.Fatalf("%s p=%d d=%d %d steps: %g slots, delivered %v (missing %d, stray %d)", kind, p, d, steps, r.Slots, r.Delivered, r.Missing, r.Stray)
			}
		}
	}
}

// The hardware refuses a plan that puts two packets on a link direction
// in one slot: the optimal torus plan with one hop turned onto another's
// link.
func TestMNBOptimalConflictRefused(t *testing.T) {
	spec := topology.Spec{Kind: "torus", K: 4, N: 2}
	_, err := runPlan(t, spec, true, func(g *grid) ([]gridHop, []int, []int, func(int, int) bool) {
		tr, err := torusTree(4, 2)
		if err != nil {
			t.Fatal(err)
		}
		hops := torusMNBHops(g, tr, func(x int) int32 { return int32(x) })
		for i := range hops {
			if hops[i].Slot == 0 && hops[i].Node == 0 && hops[i].Dim == 1 {
				hops[i].Dim, hops[i].Dir = 0, 1-hops[i].Dir // onto a dimension-0 link node 0 also uses in slot 0
				break
			}
		}
		origin := make([]int, g.N)
		for v := range origin {
			origin[v] = v
		}
		return hops, origin, nil, nil
	})
	var sc *kernel.ScheduleConflict
	if !errors.As(err, &sc) {
		t.Fatalf("got %v, want the router's ScheduleConflict", err)
	}
}

// benchGridMNB runs the optimal MNB on the p×p torus or array b.N times
// (the cached tree's plan built every run) and reports slots/s and
// packet-hops/s; it fails unless every run delivers in want slots.
func benchGridMNB(b *testing.B, kind string, p int, want float64) {
	b.ReportAllocs()
	var slots, hops float64
	for range b.N {
		r, err := Run(topology.Spec{Kind: kind, K: p, N: 2}, "mnb", map[string]string{"task.algorithm": "optimal"}, 1)
		if err != nil || !r.Delivered || r.Slots != want {
			b.Fatalf("%s p=%d: %v, %+v", kind, p, err, r)
		}
		slots += r.Slots
		hops += float64(r.Transmissions)
	}
	b.ReportMetric(slots/b.Elapsed().Seconds(), "slots/s")
	b.ReportMetric(hops/b.Elapsed().Seconds(), "packet-hops/s")
}

// The 32×32 torus: 256 slots, 1 047 552 packet-hops.
func BenchmarkTorusMNBOptimal32(b *testing.B) { benchGridMNB(b, "torus", 32, 256) }

// The 32×32 array: 512 slots, 2 029 632 packet-hops (relays included).
func BenchmarkArrayMNBOptimal32(b *testing.B) { benchGridMNB(b, "mesh", 32, 512) }
