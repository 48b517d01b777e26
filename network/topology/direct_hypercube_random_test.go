package topology

import (
	"fmt"
	"math/bits"
	"testing"

	"github.com/flitsim/flitsim/configs/inputerr"
)

// links lists each node's out-link targets on ports 0..n−1.
func links(topo *Topology, n int) [][]int {
	out := make([][]int, len(topo.Switches))
	for s, sw := range topo.Switches {
		for p := range n {
			out[s] = append(out[s], int(sw.Out[p].Switch))
		}
	}
	return out
}

// The classes' definitions hold on drawn members: a pseudocube's
// dimension-i link has the form 0…01*…* (i stars); a permutation cube's
// dimension-i links are one-to-one (one in-link per dimension, on port i),
// and in a symmetric one every link has its reverse; an enhanced cube
// holds the d-cube. One seed is one network; another seed another.
func TestRandomClassesDefinitions(t *testing.T) {
	const d = 6
	for _, s := range []Spec{
		{Kind: "pseudocube", D: d, Seed: 3},
		{Kind: "permutation-cube", D: d, Seed: 3},
		{Kind: "permutation-cube", D: d, Seed: 3, Symmetric: true},
		{Kind: "enhanced-cube", D: d, Seed: 3},
	} {
		name := fmt.Sprintf("%s symmetric=%v", s.Kind, s.Symmetric)
		topo := mustBuild(t, s)
		ls := links(topo, d)
		in := make([]map[int]int, d) // per dimension: in-links per node
		for i := range in {
			in[i] = map[int]int{}
		}
		for v, l := range ls {
			for i, u := range l {
				x := v ^ u
				if s.Kind == "enhanced-cube" {
					if x != 1<<i {
						t.Fatalf("%s: node %d port %d leads to %d, not its cube neighbour", name, v, i, u)
					}
					continue
				}
				if x>>i != 1 {
					t.Fatalf("%s: node %d dimension %d link to %d: string %b is not 0…01*…*", name, v, i, u, x)
				}
				in[i][u]++
			}
		}
		if s.Kind == "permutation-cube" {
			for i := range d {
				for u := range ls {
					if in[i][u] != 1 {
						t.Fatalf("%s: node %d has %d dimension-%d in-links", name, u, in[i][u], i)
					}
				}
			}
			for v, sw := range topo.Switches {
				for i := range d {
					if sw.Out[i].Port != int32(i) || (s.Symmetric && ls[ls[v][i]][i] != v) {
						t.Fatalf("%s: node %d dimension %d: %+v", name, v, i, sw.Out[i])
					}
				}
			}
		}
		ports := d
		if s.Kind == "enhanced-cube" {
			ports = d + 1 // the extra links
		}
		all := fmt.Sprint(links(topo, ports))
		if fmt.Sprint(links(mustBuild(t, s), ports)) != all {
			t.Errorf("%s: seed 3 built two networks", name)
		}
		s.Seed = 4
		if fmt.Sprint(links(mustBuild(t, s), ports)) == all {
			t.Errorf("%s: seeds 3 and 4 built the same network", name)
		}
	}
	// The pseudocube's in-degrees vary (mean d), the permutation cube's do not.
	topo := mustBuild(t, Spec{Kind: "pseudocube", D: 8, Seed: 1})
	lo, hi := 64, 0
	for _, sw := range topo.Switches {
		lo, hi = min(lo, len(sw.Out)), max(hi, len(sw.Out))
	}
	if hi <= 9 {
		t.Errorf("pseudocube d=8: routers have %d..%d ports; in-degrees do not vary", lo, hi)
	}
}

// The self-routing's route lengths: from every node of any pseudocube
// (so of any permutation cube) exactly C(d,k) destinations are k hops
// away, as in the hypercube — the destinations reached by each set of
// dimensions are distinct (§7.3 Lemma 1 for permutation cubes; the same
// induction for pseudocubes) — so the mean over N² pairs is d/2 and the
// longest route d. Each route crosses dimensions in descending order.
func TestMSBRouteLengths(t *testing.T) {
	for _, s := range []Spec{
		{Kind: "pseudocube", D: 7, Seed: 9},
		{Kind: "permutation-cube", D: 7, Seed: 9},
		{Kind: "permutation-cube", D: 6, Seed: 2, Symmetric: true},
	} {
		topo := mustBuild(t, s)
		n := topo.Terminals()
		for src := range n {
			count := make([]int64, s.D+1)
			seen := map[int]bool{}
			for dst := range n {
				hops := trace(t, topo, src, dst, 0)
				addr := 0
				for i, h := range hops[:len(hops)-1] {
					if i > 0 && h.Out >= hops[i-1].Out {
						t.Fatalf("%s %d→%d: dimensions %v not descending", s.Kind, src, dst, hopPorts(hops))
					}
					addr |= 1 << h.Out
				}
				if seen[addr] {
					t.Fatalf("%s from %d: relative address %b twice", s.Kind, src, addr)
				}
				seen[addr] = true
				count[len(hops)-1]++
			}
			for k, c := range count {
				if c != binom(s.D, k) {
					t.Fatalf("%s from %d: %v nodes at 0..d hops, want C(d,k)", s.Kind, src, count)
				}
			}
		}
		r, err := RouteDistances(topo, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Diameter() != s.D || 2*r.Sum != int64(s.D)*int64(n)*int64(n) {
			t.Errorf("%s: route diameter %d, MID %v; want d, d/2", s.Kind, r.Diameter(), r.MeanAll())
		}
	}
}

// Digest 000b §6 worked examples 9 and 10, on the instances they give.
func TestVarvarigosWorkedExamples(t *testing.T) {
	// 9: a pseudocube with 000 → {110, 010, 001} and 110's dimension-0
	// link to 111 (the other links: any of their form). 000→111 takes two
	// hops, 000 → 110 → 111.
	out := [][]int32{{1, 2, 6}, {0, 3, 5}, {3, 0, 7}, {2, 1, 4}, {5, 6, 0}, {4, 7, 1}, {7, 4, 2}, {6, 5, 3}}
	topo, err := buildDirected(3, 3, out, dimNames(3), 0)
	if err != nil {
		t.Fatal(err)
	}
	topo.Router = msbRouter{d: 3}
	if err := topo.Validate(); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(hopSwitches(trace(t, topo, 0, 7, 0))); got != "[0 6 7]" {
		t.Errorf("example 9: 000→111 via %s, want [0 6 7]", got)
	}
	// 10: a 2-dimensional permutation cube with dimension-1 links 00→11,
	// 01→10, 10→00, 11→01: from 00 the normal relative addresses are 01
	// (to 01), 10 (to 11) and 11 (to 10).
	out = [][]int32{{1, 3}, {0, 2}, {3, 0}, {2, 1}}
	if topo, err = buildDirected(2, 2, out, dimNames(2), 0); err != nil {
		t.Fatal(err)
	}
	topo.Router = msbRouter{d: 2}
	for dst, want := range map[int]int{1: 0b01, 3: 0b10, 2: 0b11} {
		addr := 0
		hops := trace(t, topo, 0, dst, 0)
		for _, h := range hops[:len(hops)-1] {
			addr |= 1 << h.Out
		}
		if addr != want {
			t.Errorf("example 10: 00→%02b address %02b, want %02b", dst, addr, want)
		}
	}
}

func hopSwitches(hops []Hop) []int {
	s := make([]int, len(hops))
	for i, h := range hops {
		s[i] = h.Switch
	}
	return s
}

// Greedy routing on an enhanced cube lowers the Hamming distance every hop
// (≤ d hops); one-phase Valiant routing takes the source's extra link and
// then only cube links in order. An enhanced cube whose extra links are
// the complement links is a folded cube, and greedy routing on it is
// shortest: its lengths are min(h, d+1−h).
func TestEnhancedCubeRouting(t *testing.T) {
	const d = 6
	for _, name := range []string{"greedy", "valiant"} {
		topo := mustBuild(t, Spec{Kind: "enhanced-cube", D: d, Seed: 5, Routing: name})
		extra := links(topo, d+1)
		n := topo.Terminals()
		for src := range n {
			for dst := range n {
				hops := trace(t, topo, src, dst, 0)
				at := src
				for i, h := range hops[:len(hops)-1] {
					next := extra[at][h.Out]
					switch {
					case name == "greedy" && bits.OnesCount(uint(next^dst)) >= bits.OnesCount(uint(at^dst)):
						t.Fatalf("greedy %d→%d: hop %d→%d does not get nearer", src, dst, at, next)
					case name == "valiant" && (i == 0) != (h.Out == d):
						t.Fatalf("valiant %d→%d: ports %v", src, dst, hopPorts(hops))
					}
					at = next
				}
				if limit := d + map[string]int{"greedy": 0, "valiant": 1}[name]; len(hops)-1 > limit {
					t.Fatalf("%s %d→%d: %d hops", name, src, dst, len(hops)-1)
				}
			}
		}
	}
	// The folded cube as an enhanced cube.
	n := 1 << d
	out := make([][]int32, n)
	for v := range out {
		for j := range d {
			out[v] = append(out[v], int32(v^1<<j))
		}
		out[v] = append(out[v], int32(v^(n-1)))
	}
	topo, err := buildDirected(d, d+1, out, append(dimNames(d), "x"), 0)
	if err != nil {
		t.Fatal(err)
	}
	s := Spec{Kind: "enhanced-cube", D: d}
	if topo.Router, err = newEnhanced(false)(topo, s); err != nil {
		t.Fatal(err)
	}
	for src := range n {
		for dst := range n {
			if got, want := len(trace(t, topo, src, dst, 0))-1, FoldedDistance(d, src, dst); got != want {
				t.Fatalf("greedy on the folded cube %d→%d: %d hops, want %d", src, dst, got, want)
			}
		}
	}
}

// The graph distances of the random classes (BFS over a few members)
// are the digest's: a pseudocube's mean near d/4 + 0.9 (§7.1, Fig. 7.1),
// an enhanced cube's below d/2 (§7.2), and every route at least as long
// as the shortest path.
func TestRandomClassesGraphDistances(t *testing.T) {
	for _, k := range []string{"pseudocube", "permutation-cube", "enhanced-cube"} {
		for d := 3; d <= 7; d++ {
			topo := mustBuild(t, Spec{Kind: k, D: d, Seed: uint64(d)})
			g, err := GraphDistances(topo)
			if err != nil {
				t.Fatal(err)
			}
			r, err := RouteDistances(topo, nil)
			if err != nil {
				t.Fatal(err)
			}
			if g.Sum > r.Sum || g.Diameter() > r.Diameter() || g.MeanAll() >= float64(d)/2 {
				t.Errorf("%s d=%d: graph MID %v diameter %d, routes %v %d", k, d, g.MeanDistinct(), g.Diameter(), r.MeanDistinct(), r.Diameter())
			}
			if k == "pseudocube" && (g.MeanDistinct() < float64(d)/4+0.9-0.2 || g.MeanDistinct() > float64(d)/4+0.9+0.2) {
				t.Errorf("pseudocube d=%d: MID %v, d/4+0.9 = %v", d, g.MeanDistinct(), float64(d)/4+0.9)
			}
		}
	}
}

// A member needing more than xbar.MaxPorts ports at a router is refused
// with an error naming run.seed: node 0 gets its 6 cube in-links and k
// dimension-6 links, on k + 7 ports (the terminal's included).
func TestDirectedTooManyInLinks(t *testing.T) {
	const d = 7
	for _, k := range []int{57, 58} {
		out := make([][]int32, 1<<d)
		for v := range out {
			out[v] = make([]int32, d)
			for i := range d {
				out[v][i] = int32(v ^ 1<<i)
			}
			if v >= 64 && v < 64+k {
				out[v][d-1] = 0
			}
		}
		topo, err := buildDirected(d, d, out, dimNames(d), 42)
		if k == 57 {
			if err != nil || len(topo.Switches[0].Out) != 64 {
				t.Fatalf("k=%d: %v", k, err)
			}
			continue
		}
		if e, ok := inputerr.As(err); !ok || e.Key != "run.seed" || e.Value != "42" {
			t.Fatalf("k=%d: %v", k, err)
		}
	}
}
