package verify

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/flitsim/flitsim/network/collective"
	"github.com/flitsim/flitsim/network/topology"
)

// Collective tasks on the linear array, ring, 2-D array and torus
// (Varvarigos 1992 §3.2–3.5, digest 000a §5.1–5.10, §7.1, §8 items 8–11),
// carried out as schedules by the simulated nodes on the packet router.

// gridRun is one task on the p-ary d-dimensional array or torus, failing
// unless delivered.
func gridRun(kind string, p, d int, task string, params map[string]string) (*collective.Result, error) {
	r, err := runCollective(topology.Spec{Kind: kind, K: p, N: d}, task, params, 1)
	if err != nil {
		return nil, err
	}
	if !r.Delivered {
		return nil, fmt.Errorf("%s on the %d-ary %d-%s: %w (missing %d, duplicates %d, stray %d)", task, p, d, kind, ErrShortfall, r.Missing, r.Duplicates, r.Stray)
	}
	return r, nil
}

// inBounds reports whether r is within its upper bound and above its lower.
func inBounds(r *collective.Result) bool {
	return r.Slots >= r.LowerBound && (r.UpperBound == nil || r.Slots <= *r.UpperBound+1e-9)
}

func init() {
	Register(Claim{
		ID:        "varvarigos-line-mnb",
		Source:    "Varvarigos 1992 §3.2 remark after Theorem 2 (digest 000a §5.3, §7.1 item 13, §8 item 9)",
		Claim:     "MNB with one packet per node: linear array p−1, ring ⌊p/2⌋ without splitting, (p−1)/2 with halves (p = 3..10)",
		Published: "array 2..9; ring 1, 2, 2, 3, 3, 4, 4, 5; halves 1, 1.5, …, 4.5",
		Tolerance: "exact; delivered exactly once",
		Measure:   measureLineMNB,
	})
	Register(Claim{
		ID:        "varvarigos-line-bcast",
		Source:    "Varvarigos 1992 §3.2 Theorem 2 (digest 000a §5.3)",
		Claim:     "broadcast of arbitrary packet counts (K in all) by pass-through priority: linear array ≤ K+p−1, ring with halves ≤ (K+p−1)/2 (200 random cases, p = 3..12)",
		Published: "≤ K + p − 1; ring ≤ (K + p − 1)/2",
		Tolerance: "never above the bound; delivered exactly once; the array's count equals the derived max_j(S_j + p − 2 − j)",
		Measure:   measureLineBcast,
	})
	Register(Claim{
		ID:        "varvarigos-mesh-packing",
		Source:    "Varvarigos 1992 §3.3 Theorems 3 and 4 (digest 000a §5.4–5.5, §7.1 item 5)",
		Claim:     "packing in d(p−1) and monotone routing in 2d(p−1) steps with no link conflict (arrays and tori, p = 2..8, d = 1..3): exactly when a packet crosses every phase whole, never more on random instances",
		Published: "d(p−1); 2d(p−1)",
		Tolerance: "exact for source N−1 (packing) and N−1 → 0 → N−1 (monotone); ≤ on 5 random instances each; delivered exactly once",
		Measure:   measureMeshPacking,
	})
	Register(Claim{
		ID:        "varvarigos-mesh-packing-example",
		Source:    "digest 000a §8 item 10 (Varvarigos 1992 §3.3 Theorem 3; co-location [VERIFIED] by the digest)",
		Claim:     "p = 3, d = 2, sources {1,2,3,4,5,7} packed to 0..5 in 4 steps; two packets share node (1,1) after step 1",
		Published: "4 steps; 2 packets at a node",
		Tolerance: "exact",
		Deviation: "the 4 steps are the phase clock d(p−1): in this instance no packet crosses the whole last phase, so the last packet arrives after step 3 on the simulated hardware; the clock (4), the co-location (2) and conflict-free links are reproduced",
		Measure: func() (string, bool, error) {
			r, err := gridRun("mesh", 3, 2, "packing", map[string]string{"task.sources": "1,2,3,4,5,7"})
			if err != nil {
				return "", false, err
			}
			return fmt.Sprintf("last arrival after step %g (clock %g); at most %d packets at a node", r.Slots, *r.Formula, r.MaxAtNode), r.Slots == 3 && *r.Formula == 4 && r.MaxAtNode == 2, nil
		},
	})
	registerMeshMNB()
	registerMeshPMNB()
}

// measureMeshPacking checks packing and monotone routing on arrays and tori:
// exact for the whole-phase instance, within the bound on random ones.
func measureMeshPacking() (string, bool, error) {
	rng := rand.New(rand.NewPCG(16, 3))
	ok, runs := true, 0
	var parts []string
	for _, kind := range []string{"mesh", "torus"} {
		for d := 1; d <= 3; d++ {
			for p := 2 + b2i(kind == "torus"); p <= 8; p++ {
				n := 1
				for range d {
					n *= p
				}
				last := fmt.Sprint(n - 1)
				r, err := gridRun(kind, p, d, "packing", map[string]string{"task.sources": last})
				if err != nil {
					return "", false, err
				}
				r2, err := gridRun(kind, p, d, "monotone", map[string]string{"task.sources": last, "task.dests": last})
				if err != nil {
					return "", false, err
				}
				ok = ok && r.Slots == float64(d*(p-1)) && r2.Slots == float64(2*d*(p-1))
				if p == 4 {
					parts = append(parts, fmt.Sprintf("%s d=%d p=4: %g/%g", kind, d, r.Slots, r2.Slots))
				}
				for range 5 {
					m := fmt.Sprint(1 + rng.IntN(n))
					for _, task := range []string{"packing", "monotone"} {
						r, err := gridRun(kind, p, d, task, map[string]string{"task.m": m})
						if err != nil {
							return "", false, err
						}
						ok = ok && r.Slots <= *r.Formula && r.Slots >= r.LowerBound
						runs++
					}
				}
			}
		}
	}
	return strings.Join(parts, ", ") + fmt.Sprintf("; %d random runs within", runs), ok, nil
}

// measureLineBcast runs 200 random packet counts on arrays and rings and
// checks Theorem 2's bounds and the array's exact count.
func measureLineBcast() (string, bool, error) {
	rng := rand.New(rand.NewPCG(16, 2))
	ok, worst, worstRing := true, 0.0, 0.0
	for range 200 {
		p := 3 + rng.IntN(10)
		c := make([]string, p)
		for i := range c {
			c[i] = fmt.Sprint(rng.IntN(5))
		}
		c[rng.IntN(p)] = fmt.Sprint(1 + rng.IntN(5))
		params := map[string]string{"task.packets": strings.Join(c, ",")}
		r, err := gridRun("mesh", p, 1, "bcast", params)
		if err != nil {
			return "", false, err
		}
		ok = ok && inBounds(r) && r.Formula != nil && r.Slots == *r.Formula
		worst = max(worst, r.Slots / *r.UpperBound)
		if r, err = gridRun("torus", p, 1, "bcast", params); err != nil {
			return "", false, err
		}
		ok = ok && inBounds(r)
		worstRing = max(worstRing, r.Slots / *r.UpperBound)
	}
	return fmt.Sprintf("largest measured/bound: array %.3f, ring %.3f", worst, worstRing), ok, nil
}

// measureLineMNB runs the MNB on arrays, whole rings and rings with halves
// for p = 3..10 and checks p−1, ⌊p/2⌋ and (p−1)/2.
func measureLineMNB() (string, bool, error) {
	var arr, ring, halves []string
	ok := true
	for p := 3; p <= 10; p++ {
		for _, c := range []struct {
			kind, alg string
			want      float64
			out       *[]string
		}{{"mesh", "", float64(p - 1), &arr}, {"torus", "whole", float64(p / 2), &ring}, {"torus", "halves", float64(p-1) / 2, &halves}} {
			params := map[string]string{}
			if c.alg != "" {
				params["task.algorithm"] = c.alg
			}
			r, err := gridRun(c.kind, p, 1, "mnb", params)
			if err != nil {
				return "", false, err
			}
			*c.out = append(*c.out, fmt.Sprintf("%g", r.Slots))
			ok = ok && r.Slots == c.want && r.Slots >= r.LowerBound
		}
	}
	return "array " + strings.Join(arr, ", ") + "; ring " + strings.Join(ring, ", ") + "; halves " + strings.Join(halves, ", "), ok, nil
}

func b2i(c bool) int {
	if c {
		return 1
	}
	return 0
}
