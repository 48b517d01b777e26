package verify

import (
	"fmt"
	"strings"

	"github.com/flitsim/flitsim/network/topology"
)

// Collective routing on the permutation cube and the enhanced cube
// (Varvarigos 1992 §7.2–7.3, digest 000b §4.12–4.13), on the packet
// router with delivery checked.

func init() {
	Register(Claim{
		ID:        "varvarigos-permcube-te",
		Source:    "Varvarigos 1992 §7.3, Lemmas 1 and 2 (digest 000b §4.13)",
		Claim:     "any reasonable schedule finishes the total exchange on a permutation cube within N slots (random members d = 3..8, symmetric and not, 2 seeds each; whether N/2 is always reached is left open)",
		Published: "≤ N; lower bound N/2 (critical sum)",
		Tolerance: "within [N/2, N]; every node receives one packet from every other",
		Measure: func() (string, bool, error) {
			var parts []string
			ok, atHalf, runs := true, 0, 0
			for d := 3; d <= 8; d++ {
				for _, sym := range []bool{false, true} {
					for seed := uint64(1); seed <= 2; seed++ {
						r, err := runCollective(topology.Spec{Kind: "permutation-cube", D: d, Seed: seed, Symmetric: sym}, "te", nil, seed)
						if err != nil {
							return "", false, err
						}
						if !r.Delivered {
							return "", false, fmt.Errorf("permutation-cube TE d=%d: %w", d, ErrShortfall)
						}
						ok = ok && r.Slots >= r.LowerBound && r.Slots <= *r.UpperBound
						runs++
						if r.Slots == r.LowerBound {
							atHalf++
						}
						if seed == 1 && !sym {
							parts = append(parts, fmt.Sprintf("d=%d: %g", d, r.Slots))
						}
					}
				}
			}
			return fmt.Sprintf("%s; N/2 in %d of %d members (heaviest row first)", strings.Join(parts, ", "), atHalf, runs), ok, nil
		},
	})
	Register(Claim{
		ID:     "varvarigos-enhanced-permutation",
		Source: "Varvarigos 1992 §7.2, Corollary 1 (digest 000b §4.12)",
		Claim: "one-phase Valiant routing (the extra link first, then the cube greedily) routes a fixed permutation in Θ(log N) on most enhanced cubes — fewer than (K+1)d/2 + 1 slots for some member, K > 2.5 — " +
			"while bit reversal needs Θ(√N) on the hypercube with greedy routing (random members, 3 seeds each)",
		Published: "< (K+1)d/2 + 1 = 1.75d + 1 at K = 2.5; hypercube greedy Θ(√N)",
		Tolerance: "every member tried below 1.75d + 1 (bit reversal, transpose, random); the cube links alone at least 2^{d/2−1} for bit reversal",
		Measure: func() (string, bool, error) {
			var parts []string
			ok := true
			for _, d := range []int{8, 10, 12} {
				most, cube := 0.0, 0.0
				for _, perm := range []string{"bit-reversal", "transpose", "random"} {
					for seed := uint64(1); seed <= 3; seed++ {
						for _, scheme := range []string{"valiant", "cube"} {
							if scheme == "cube" && (perm != "bit-reversal" || seed > 1) {
								continue
							}
							r, err := runCollective(topology.Spec{Kind: "enhanced-cube", D: d, Seed: seed}, "permutation", map[string]string{"task.perm": perm, "task.scheme": scheme}, seed)
							if err != nil {
								return "", false, err
							}
							if !r.Delivered {
								return "", false, fmt.Errorf("enhanced-cube %s d=%d: %w", perm, d, ErrShortfall)
							}
							ok = ok && r.Slots >= r.LowerBound
							if scheme == "cube" {
								cube = r.Slots
							} else {
								most = max(most, r.Slots)
							}
						}
					}
				}
				ok = ok && most < 1.75*float64(d)+1 && cube >= float64(int(1)<<(d/2-1))
				parts = append(parts, fmt.Sprintf("d=%d: at most %g (bound %g), cube bit reversal %g", d, most, 1.75*float64(d)+1, cube))
			}
			return strings.Join(parts, "; "), ok, nil
		},
	})
}
