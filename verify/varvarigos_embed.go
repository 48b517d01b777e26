package verify

import (
	"fmt"
	"math/bits"
	"strings"
)

// Embeddings of Varvarigos 1992 §2.8 and §2.9 (digest 000a §4.10, §4.11),
// run as collective tasks on the hypercube router.

func init() {
	Register(Claim{
		ID:        "varvarigos-sparse-embed",
		Source:    "Varvarigos 1992 §2.8 (digest 000a §4.10)",
		Claim:     "a sparse guest relabelled to a small adjacency bandwidth B (reverse Cuthill–McKee for [Pis84]'s heuristics) and embedded by Binary-Gray has dilation log₂ B; its neighbour exchange on the router",
		Published: "dilation = log₂ B (≤ β + 1 with 2^β ≥ (B−1)/2)",
		Tolerance: "measured dilation ≤ β + 1; the exchange delivered exactly once, never below Theorem 1, and faster than with the shuffled labels at the node of their number",
		Measure: func() (string, bool, error) {
			var parts []string
			ok := true
			for _, c := range []struct {
				d     int
				graph string
			}{{8, "grid"}, {10, "grid"}, {8, "torus"}, {8, "random"}} {
				r, err := collRun(c.d, "sparse-embed", map[string]string{"task.graph": c.graph})
				if err != nil {
					return "", false, err
				}
				beta := bits.Len(uint(*r.Bandwidth/2 - 1))
				parts = append(parts, fmt.Sprintf("%s d=%d: B = %d, dilation %d (β + 1 = %d), exchange %g slots (Theorem 1: %g; shuffled labels %g)", c.graph, c.d, *r.Bandwidth, *r.Dilation, beta+1, r.Slots, r.LowerBound, *r.Alternative))
				ok = ok && *r.Dilation <= beta+1 && r.Slots >= r.LowerBound && r.Slots < *r.Alternative
			}
			return strings.Join(parts, "; "), ok, nil
		},
	})
	Register(Claim{
		ID:        "varvarigos-block-diagonal",
		Source:    "Varvarigos 1992 §2.9 (digest 000a §4.11)",
		Claim:     "K blocks of 2^{l_i}×2^{l_i} (Σ 2^{l_i} = 2^d) on disjoint subcubes (*^{l_i} x_i) from a prefix code (Kraft's equality); every block transposed at once in its subcube",
		Published: "disjoint subcubes; transposition max_i 2^{l_i−1} (each block a TE in its subcube, §2.4)",
		Tolerance: "subcubes checked disjoint and covering; slots exactly max 2^{l_i−1}; delivered exactly once",
		Measure: func() (string, bool, error) {
			var parts []string
			ok := true
			for _, c := range []struct {
				d      int
				blocks string
				want   float64
			}{{6, "5,4,3,2,1,1", 16}, {8, "6,6,5,5,5,4,3,3", 32}, {8, "4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4", 8}} {
				r, err := collRun(c.d, "block-diagonal", map[string]string{"task.blocks": c.blocks})
				if err != nil {
					return "", false, err
				}
				parts = append(parts, fmt.Sprintf("d=%d blocks %s: %g slots (%d packets)", c.d, c.blocks, r.Slots, r.Deliveries))
				ok = ok && r.Slots == c.want
			}
			return strings.Join(parts, "; "), ok, nil
		},
	})
}
