package esmintree

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func mustNew(t testing.TB, dims ...int) *Net {
	t.Helper()
	n, err := New(dims)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// brute is the fewest channels over every non-blocking path assignment and
// how many assignments reach it.
func brute(t *testing.T, n *Net, src int, dests []int) (best, count, blocked int) {
	best = 1 << 30
	err := n.Assignments(src, dests, 1<<16, func(_ []uint64, tr Tree) {
		switch {
		case tr.Blocked:
			blocked++
		case tr.Channels < best:
			best, count = tr.Channels, 1
		case tr.Channels == best:
			count++
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return best, count, blocked
}

func TestFigs64And65(t *testing.T) {
	for _, c := range []struct {
		dims        []int
		chans, omts int
		perStage    []int
	}{
		{[]int{1, 2, 1, 2, 0}, 9, 4, []int{1, 1, 2, 2, 2}},
		{[]int{1, 1, 2, 2, 0}, 10, 8, []int{1, 2, 2, 2, 2}},
	} {
		n := mustNew(t, c.dims...)
		trees, err := n.Optimal(0, []int{1, 3}, 100)
		if err != nil {
			t.Fatal(err)
		}
		if len(trees) != c.omts {
			t.Errorf("%v: %d OMTs, want %d", c.dims, len(trees), c.omts)
		}
		for _, tr := range trees {
			if tr.Channels != c.chans || tr.Blocked {
				t.Errorf("%v: OMT %v has %d channels (blocked %v), want %d", c.dims, tr.Paths, tr.Channels, tr.Blocked, c.chans)
			}
		}
		lb := n.Build(LB, 0, 0, []int{1, 3})
		if lb.Channels != c.chans || !slices.Equal(lb.PerStage, c.perStage) {
			t.Errorf("%v: LB %d channels %v, want %d %v", c.dims, lb.Channels, lb.PerStage, c.chans, c.perStage)
		}
		if best, count, _ := brute(t, n, 0, []int{1, 3}); best != c.chans || count != c.omts {
			t.Errorf("%v: brute force %d trees of %d channels", c.dims, count, best)
		}
	}
}

func TestFig67RBBlocking(t *testing.T) {
	n := mustNew(t, 2, 1, 2, 2, 0)
	if _, _, blocked := brute(t, n, 0, []int{6, 7}); blocked != 4 {
		t.Errorf("%d of 16 assignments block, want 4", blocked)
	}
	// RB's draws block at about that rate (1/4).
	b := 0
	for aux := range uint64(4000) {
		if n.Build(RB, aux, 0, []int{6, 7}).Blocked {
			b++
		}
	}
	if b < 850 || b > 1150 {
		t.Errorf("RB blocked %d of 4000 draws, want about 1000", b)
	}
}

// TestOptimalIsBruteForce checks LB and the OMT search against every path
// assignment on random small networks.
func TestOptimalIsBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		n, src, dests := randomCase(rng)
		best, count, _ := brute(t, n, src, dests)
		lb := n.Build(LB, 0, src, dests)
		trees, err := n.Optimal(src, dests, 1<<16)
		if err != nil {
			t.Fatal(err)
		}
		if lb.Blocked || lb.Channels != best || len(trees) != count {
			t.Fatalf("trial %d dims %v src %d dests %v: LB %d, brute %d (%d trees), OMT search %d trees",
				trial, n.dim, src, dests, lb.Channels, best, count, len(trees))
		}
		// One path index for every destination (topology.path random or
		// given) is one of the optimal trees (§6.4.1's general LB).
		q := make([]uint64, len(dests))
		q0 := rng.Uint64() & (1<<n.Extra() - 1)
		for k := range q {
			q[k] = q0
		}
		if tr := n.BuildPaths(q, src, dests); tr.Blocked || tr.Channels != best {
			t.Fatalf("trial %d: one path %d for all: %d channels (blocked %v), optimum %d", trial, q[0], tr.Channels, tr.Blocked, best)
		}
		for _, alg := range []Alg{FB, RM} {
			if tr := n.Build(alg, uint64(trial), src, dests); tr.Blocked || tr.Channels < best {
				t.Fatalf("trial %d: %v %d channels blocked %v, optimum %d", trial, alg, tr.Channels, tr.Blocked, best)
			}
		}
	}
}

func randomCase(rng *rand.Rand) (*Net, int, []int) {
	dims, src, dests := RandomCase(rng)
	n, _ := New(dims)
	return n, src, dests
}

// table61 is Table 6.1 with the implied final stage 0.
var table61 = [][]int{
	{5, 4, 3, 2, 1, 5, 4, 3, 2, 1, 0}, {1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 0}, {5, 5, 4, 4, 3, 3, 2, 2, 1, 1, 0},
	{1, 2, 3, 4, 5, 5, 4, 3, 2, 1, 0}, {1, 2, 3, 4, 5, 5, 5, 5, 5, 5, 0}, {1, 2, 3, 4, 5, 1, 1, 1, 1, 1, 0},
}

func TestTable61Broadcast(t *testing.T) {
	all := make([]int, 64)
	for i := range all {
		all[i] = i
	}
	want := map[Alg][]int{LB: {132, 158, 158, 132, 207, 192}, FB: {287, 189, 189, 287, 287, 287}}
	for alg, w := range want {
		for p, dims := range table61 {
			if got := mustNew(t, dims...).Build(alg, 0, 0, all).Channels; got != w[p] {
				t.Errorf("%v pattern %d: %d channels, want %d", alg, p+1, got, w[p])
			}
		}
	}
}

func TestFig66Marking(t *testing.T) {
	n := mustNew(t, 1, 2, 3, 3, 1, 1, 0)
	var got []bool
	for i := range n.Stages() {
		got = append(got, n.Latest(i))
	}
	// (null, 2, null, 3, null, 1, 0)
	if want := []bool{false, true, false, true, false, true, true}; !slices.Equal(got, want) {
		t.Errorf("latest stages %v, want %v", got, want)
	}
}

func TestOptimalCap(t *testing.T) {
	n := mustNew(t, 1, 1, 2, 2, 0)
	if _, err := n.Optimal(0, []int{1, 3}, 7); err != ErrTooMany {
		t.Errorf("cap 7 of 8 trees: %v, want ErrTooMany", err)
	}
}

func BenchmarkBuild1024(b *testing.B) {
	dims := []int{9, 8, 7, 6, 5, 4, 3, 2, 1, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1, 0} // 10 extra stages
	n, _ := New(dims)
	all := make([]int, 1024)
	for i := range all {
		all[i] = i
	}
	for b.Loop() {
		for _, alg := range []Alg{LB, FB, RM} {
			n.Build(alg, 7, 0, all)
		}
	}
}

// TestSortedWalk checks walk's sorting way against its table way.
func TestSortedWalk(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for range 200 {
		n, src, dests := randomCase(rng)
		for _, alg := range []Alg{LB, FB, RB, RM} {
			aux := rng.Uint64()
			a := n.Build(alg, aux, src, dests)
			tableFrom = 0
			b := n.Build(alg, aux, src, dests)
			tableFrom = 16
			if a.Channels != b.Channels || a.Blocked != b.Blocked || !slices.Equal(a.PerStage, b.PerStage) {
				t.Fatalf("%v %v: table %+v, sorted %+v", n.dim, alg, a, b)
			}
		}
	}
}
