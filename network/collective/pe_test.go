package collective

import (
	"fmt"
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
// 2d·t_p; with M = 1 it is a single-node scatter.
func TestPartialExchange(t *testing.T) {
	for d := 2; d <= 6; d++ {
		n := 1 << d
		for m := 1; m <= n; m = 2*m + 1 {
			r := runSeed(t, d, "pe", map[string]string{"task.m": fmt.Sprint(m)}, uint64(d))
			if r.Deliveries != int64(m*(n-1)) || r.UpperBound == nil {
				t.Errorf("pe d=%d M=%d: %d deliveries, want %d", d, m, r.Deliveries, m*(n-1))
			}
			r2 := runSeed(t, d, "pe", map[string]string{"task.m": fmt.Sprint(m), "task.tp": "2"}, uint64(d))
			if r2.Slots != r.Slots+float64(4*d) || *r2.UpperBound != *r.UpperBound+float64(4*d) {
				t.Errorf("pe d=%d M=%d: %g slots with t_p = 2, %g without", d, m, r2.Slots, r.Slots)
			}
		}
	}
	for d := 2; d <= 6; d++ { // (M = N: a TE by the OCTR, N/2)
		if r := runSeed(t, d, "pe", map[string]string{"task.m": fmt.Sprint(1 << d)}, 1); r.Slots != float64(int(1)<<(d-1)) || r.Slots > *r.UpperBound {
			t.Errorf("pe d=%d M=N: %g slots, want N/2", d, r.Slots)
		}
	}
}
