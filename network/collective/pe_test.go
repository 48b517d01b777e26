package collective

import (
	"fmt"
	"slices"
	"testing"
)

// The balanced scatter tree (digest §10.6 (b)): every subtree at most
// ⌈(2^k − 1)/k⌉ nodes, every parent one hop closer to the root and in the
// same subtree.
func TestScatterTree(t *testing.T) {
	for k := 1; k <= 10; k++ {
		tr := newScatterTree(k)
		if tr.largest() != ceilDiv(1<<k-1, k) {
			t.Errorf("k=%d: largest subtree %d, want %d", k, tr.largest(), ceilDiv(1<<k-1, k))
		}
		for y := 1; y < 1<<k; y++ {
			p := int(tr.parent[y])
			if x := y ^ p; x&(x-1) != 0 || p > y || p != 0 && tr.sub[p] != tr.sub[y] || p == 0 && 1<<tr.sub[y] != y {
				t.Fatalf("k=%d node %d: parent %d (subtree %d, parent's %d)", k, y, p, tr.sub[y], tr.sub[p])
			}
		}
	}
}

// Partial exchange: every active node's packet to every other node
// delivered once, never below Theorem 1's bound; the prefix channel adds
// 2d·t_p, except where ⌈log₂M⌉ = d (a TE: no ranks); with M = 1 it is a
// single-node scatter.
func TestPartialExchange(t *testing.T) {
	for d := 2; d <= 6; d++ {
		n := 1 << d
		for m := 1; m <= n; m = 2*m + 1 {
			r := runSeed(t, d, "pe", map[string]string{"task.m": fmt.Sprint(m)}, uint64(d))
			if r.Deliveries != int64(m*(n-1)) || r.UpperBound == nil {
				t.Errorf("pe d=%d M=%d: %d deliveries, want %d", d, m, r.Deliveries, m*(n-1))
			}
			r2 := runSeed(t, d, "pe", map[string]string{"task.m": fmt.Sprint(m), "task.tp": "2"}, uint64(d))
			add := float64(4 * d)
			if peAsTE(d, m) {
				add = 0
			}
			if r2.Slots != r.Slots+add || *r2.UpperBound != *r.UpperBound+add {
				t.Errorf("pe d=%d M=%d: %g slots (bound %g) with t_p = 2, %g (%g) without", d, m, r2.Slots, *r2.UpperBound, r.Slots, *r.UpperBound)
			}
		}
	}
	for d := 2; d <= 6; d++ { // (M = N: a TE by the OCTR, N/2)
		if r := runSeed(t, d, "pe", map[string]string{"task.m": fmt.Sprint(1 << d)}, 1); r.Slots != float64(int(1)<<(d-1)) || r.Slots > *r.UpperBound {
			t.Errorf("pe d=%d M=N: %g slots, want N/2", d, r.Slots)
		}
	}
}

// TestPEWithinQuotedBound: no run exceeds the upper bound it quotes, over
// d = 3…8 and every M (d ≤ 6; d = 7, 8: a dense sample with every
// ⌈log₂M⌉ boundary), two active sets each (six for M ≤ N/8). Where
// ⌈log₂M⌉ = d the bound is the TE's N/2 (the bug: M = 33 of 64 took 98
// slots against it); where the seed's bound is printed as formula its
// assumptions failed and the quoted bound must lie above it.
func TestPEWithinQuotedBound(t *testing.T) {
	top := 8
	if testing.Short() {
		top = 6
	}
	for d := 3; d <= top; d++ {
		n := 1 << d
		for _, m := range peSweep(d) {
			seeds := uint64(2)
			if m <= n/8 { // (cheap, and where the seed's two assumptions vary by set: more sets)
				seeds = 6
			}
			for seed := uint64(1); seed <= seeds; seed++ {
				r := runSeed(t, d, "pe", map[string]string{"task.m": fmt.Sprint(m)}, seed)
				if r.UpperBound == nil {
					t.Fatalf("pe d=%d M=%d seed %d: no upper bound", d, m, seed)
				}
				if r.Slots > *r.UpperBound || r.Deliveries != int64(m*(n-1)) {
					t.Fatalf("pe d=%d M=%d seed %d: %g slots, bound %g (%s), %d deliveries", d, m, seed, r.Slots, *r.UpperBound, r.UpperText, r.Deliveries)
				}
				if peAsTE(d, m) && *r.UpperBound != float64(n/2) {
					t.Errorf("pe d=%d M=%d: bound %g, want the TE's N/2", d, m, *r.UpperBound)
				}
				if r.Formula != nil && !(*r.Formula < *r.UpperBound && *r.Formula == float64(peSeedBound(d, m))) {
					t.Errorf("pe d=%d M=%d seed %d: seed's bound %g beside bound %g", d, m, seed, *r.Formula, *r.UpperBound)
				}
			}
		}
	}
}

// peSweep is every M for d ≤ 6, else every M up to 9 and each power of two
// with its neighbours and a midpoint above it.
func peSweep(d int) []int {
	n := 1 << d
	if d <= 6 {
		var all []int
		for m := 1; m <= n; m++ {
			all = append(all, m)
		}
		return all
	}
	out := []int{1, 2, 3, 4, 5, 6, 7, 9}
	for p := 8; p <= n; p *= 2 {
		out = append(out, p, p+1, p+p/2, 2*p-1)
	}
	return slices.DeleteFunc(out, func(m int) bool { return m > n })
}

func peSeedBound(d, m int) float64 {
	u, _ := peBound(d, m, 0)
	return u
}
