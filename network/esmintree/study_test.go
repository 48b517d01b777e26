package esmintree

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestStudy: sets of every node are the broadcast (Table 6.1 pattern 1: LB
// 132 on every set, CI 0); one destination never blocks; the sets are
// distinct nodes, ascending; RB blocks more often with more destinations,
// and the same seed gives the same study.
func TestStudy(t *testing.T) {
	net, err := New([]int{5, 4, 3, 2, 1, 5, 4, 3, 2, 1, 0})
	if err != nil {
		t.Fatal(err)
	}
	if p := net.Study(LB, 0, 64, 20, rand.New(rand.NewPCG(1, 2))); p.Channels != 132 || p.CI95 != 0 || p.Blocked != 0 || p.Sets != 20 {
		t.Errorf("LB broadcast study %+v", p)
	}
	if p := net.Study(RB, 0, 1, 200, rand.New(rand.NewPCG(1, 2))); p.Blocked != 0 || p.Channels != 12 {
		t.Errorf("RB to one destination: %+v (a path of 11 stages and the injection link, never blocked)", p)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 100 {
		d := RandomDests(rng, 64, 7)
		if len(d) != 7 || !slices.IsSorted(d) || len(slices.Compact(slices.Clone(d))) != 7 || d[0] < 0 || d[6] > 63 {
			t.Fatalf("RandomDests %v", d)
		}
	}
	b4 := net.Study(RB, 0, 4, 500, rand.New(rand.NewPCG(5, 6)))
	b12 := net.Study(RB, 0, 12, 500, rand.New(rand.NewPCG(5, 6)))
	if !(b4.Blocking < b12.Blocking) || b4.Blocking != float64(b4.Blocked)/500 {
		t.Errorf("RB blocking at 4 destinations %+v, at 12 %+v", b4, b12)
	}
	if again := net.Study(RB, 0, 12, 500, rand.New(rand.NewPCG(5, 6))); again != b12 {
		t.Errorf("same seed, another study: %+v vs %+v", again, b12)
	}
}
