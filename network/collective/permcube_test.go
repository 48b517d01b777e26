package collective

import (
	"strings"
	"testing"

	"github.com/flitsim/flitsim/network/topology"
)

// The reasonable schedule finishes the permutation-cube TE within N
// (Lemma 2, §7.3); heaviest-first reaches the critical sum N/2 on random
// members, symmetric or not (every node has one in-link per dimension).
func TestPermCubeTE(t *testing.T) {
	for d := 2; d <= 8; d++ {
		for _, sym := range []bool{false, true} {
			for seed := uint64(1); seed <= 2; seed++ {
				r, err := Run(topology.Spec{Kind: "permutation-cube", D: d, Seed: seed, Symmetric: sym}, "te", nil, seed)
				if err != nil {
					t.Fatal(err)
				}
				n := 1 << d
				if !r.Delivered || r.Deliveries != int64(n*(n-1)) || r.Slots > *r.UpperBound || r.Slots != float64(n/2) {
					t.Errorf("d=%d symmetric=%v seed %d: %g slots (N/2 = %d), delivered %v (%d)", d, sym, seed, r.Slots, n/2, r.Delivered, r.Deliveries)
				}
			}
		}
	}
}

// One-phase Valiant on the enhanced cube routes bit reversal in about d
// slots where the hypercube's greedy routing needs Θ(√N) (§7.2): on the
// 10-cube fewer than (K+1)d/2 + 1 = 18.5 slots (K = 2.5) against at least
// 2^{d/2−1} = 16 on the cube links alone.
func TestEnhancedPermutation(t *testing.T) {
	for _, perm := range []string{"random", "bit-reversal", "transpose"} {
		for seed := uint64(1); seed <= 3; seed++ {
			v := runKind(t, "enhanced-cube", 10, "permutation", map[string]string{"task.perm": perm}, seed)
			c := runKind(t, "enhanced-cube", 10, "permutation", map[string]string{"task.perm": perm, "task.scheme": "cube"}, seed)
			if v.Slots >= 18.5 {
				t.Errorf("%s seed %d: valiant %g slots, want fewer than 18.5", perm, seed, v.Slots)
			}
			if perm != "random" && c.Slots < 16 {
				t.Errorf("%s seed %d: cube %g slots, want at least 16", perm, seed, c.Slots)
			}
		}
	}
	_, err := Run(topology.Spec{Kind: "enhanced-cube", D: 4}, "permutation", map[string]string{"task.perm": "shuffle"}, 1)
	if err == nil || !strings.Contains(err.Error(), "task.perm") {
		t.Errorf("task.perm=shuffle: error %v, want one naming task.perm", err)
	}
}
