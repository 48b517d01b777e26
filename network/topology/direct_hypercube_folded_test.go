package topology

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

func binom(n, k int) int64 {
	if k < 0 || k > n {
		return 0
	}
	r := int64(1)
	for i := 1; i <= k; i++ {
		r = r * int64(n-k+i) / int64(i)
	}
	return r
}

// foldedHist is the digest's exact distance distribution from one node
// (000b §2.7): C(d+1,k) nodes at distance k < (d+1)/2, and for odd d
// C(d,(d+1)/2) at the top distance (d+1)/2.
func foldedHist(d int) []int64 {
	var h []int64
	for k := 0; 2*k < d+1; k++ {
		h = append(h, binom(d+1, k))
	}
	if d%2 == 1 {
		h = append(h, binom(d, (d+1)/2))
	}
	return h
}

// checkFolded compares a distance count with the folded-cube paper's
// diameter ⌈d/2⌉ and MID = (d+1)/2 − (d+1)·C(d,⌈d/2⌉)/(2N) exactly, in
// integers: 2·Σdist = N·(d+1)·(N − C(d,⌈d/2⌉)).
func checkFolded(t *testing.T, what string, d int, got Distances) {
	t.Helper()
	n := int64(1) << d
	c := binom(d, (d+1)/2)
	if got.Diameter() != (d+1)/2 {
		t.Errorf("d=%d %s: diameter %d, want ⌈d/2⌉ = %d", d, what, got.Diameter(), (d+1)/2)
	}
	if 2*got.Sum != n*int64(d+1)*(n-c) {
		t.Errorf("d=%d %s: MID %v = %d/%d, want %v", d, what, got.MeanAll(), got.Sum, n*n,
			float64(d+1)/2-float64(d+1)*float64(c)/float64(2*n))
	}
	want := foldedHist(d)
	for k, w := range want {
		if k >= len(got.Hist) || got.Hist[k] != w*n {
			t.Errorf("d=%d %s: distance histogram %v, want %v per node", d, what, got.Hist, want)
			break
		}
	}
}

// The built graph (BFS) and the routes the shortest routing takes (traced
// hop by hop) both give the paper's diameter and MID exactly, and every
// route is as long as min(h, d+1−h).
func TestFoldedCubeDistances(t *testing.T) {
	for d := 2; d <= 10; d++ {
		topo := mustBuild(t, Spec{Kind: "folded-cube", D: d})
		g, err := GraphDistances(topo)
		if err != nil {
			t.Fatal(err)
		}
		checkFolded(t, "graph", d, g)
		if d > 8 {
			continue
		}
		r, err := RouteDistances(topo, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		checkFolded(t, "routes", d, r)
	}
	// Digest 000b §6.11: d = 4 gives 1, 5, 10 nodes at distance 0, 1, 2.
	if h := foldedHist(4); len(h) != 3 || h[0] != 1 || h[1] != 5 || h[2] != 10 {
		t.Errorf("d=4 histogram %v", h)
	}
}

// Every route has the length min(h, d+1−h), crosses the complement link
// at most once and only as its first hop, then corrects bits in
// topology.order.
func TestFoldedCubeRoutes(t *testing.T) {
	for _, s := range []Spec{{Kind: "folded-cube", D: 5}, {Kind: "folded-cube", D: 6, Order: IntList{5, 3, 1, 0, 2, 4}}} {
		topo := mustBuild(t, s)
		order := orderOf(s.Order, s.D)
		rank := make([]int, s.D+1)
		for i, j := range order {
			rank[j] = i + 1 // the complement link (port d) ranks 0
		}
		n := topo.Terminals()
		for src := range n {
			for dst := range n {
				hops := trace(t, topo, src, dst, 0)
				if got, want := len(hops)-1, FoldedDistance(s.D, src, dst); got != want {
					t.Fatalf("d=%d %d→%d: %d hops, want %d", s.D, src, dst, got, want)
				}
				last := -1
				for _, h := range hops[:len(hops)-1] {
					if rank[h.Out] <= last {
						t.Fatalf("d=%d %d→%d: ports %v not in c, order %v", s.D, src, dst, hopPorts(hops), order)
					}
					last = rank[h.Out]
				}
			}
		}
	}
	if FoldedDistance(5, 0, 0b11111) != 1 || FoldedDistance(5, 0, 0b00111) != 3 || FoldedDistance(4, 0, 0b0111) != 2 {
		t.Error("FoldedDistance")
	}
}

// On networks whose routing is minimal the built graph's distances and the
// routes' agree pair for pair in total: hypercube, mesh and torus (with
// 65 to 100 sources, so more than one BFS batch of 64).
func TestGraphDistancesMatchMinimalRoutes(t *testing.T) {
	for _, s := range []Spec{{Kind: "hypercube", D: 7}, {Kind: "mesh", K: 10, N: 2}, {Kind: "torus", K: 5, N: 3}, {Kind: "mesh", K: 65, N: 1}} {
		topo := mustBuild(t, s)
		g, err := GraphDistances(topo)
		if err != nil {
			t.Fatal(err)
		}
		r, err := RouteDistances(topo, nil)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(g) != fmt.Sprint(r) {
			t.Errorf("%+v: graph %v, routes %v", s, g, r)
		}
	}
}
