package verify

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

func registerMeshPMNB() {
	Register(Claim{
		ID:     "varvarigos-mesh-pmnb",
		Source: "Varvarigos 1992 §3.4 Lemma 2, Theorem 6, Eqs. 3.3–3.10 (digest 000a §5.7–5.9, §7.1, §9 item 12)",
		Claim: "mesh PMNB by 𝒜_0, with splitting (Theorem 6) and without (§3.4.2) on arrays and tori, p = 3..8, d = 2, 3, random M, t_p = 0..2 (ranks by prefix messages on the links): " +
			"never above the seed's bound, never below the lower bound (M−1)/d (array) or (M−1)/(2d) (torus)",
		Published: "Lemma 2; Eqs. 3.9/3.10 (split); Eqs. 3.7/3.8 (no split)",
		Tolerance: "within the bounds; delivered exactly once; the fixed subphase lengths never overrun; the prefix computes the ranks the packing uses",
		Measure: func() (string, bool, error) {
			rng := rand.New(rand.NewPCG(16, 4))
			ok, runs := true, 0
			var parts []string
			for _, kind := range []string{"mesh", "torus"} {
				for _, alg := range []string{"a0", "split", "nosplit"} {
					worst := 0.0
					for range 6 {
						p, d := 3+rng.IntN(6), 2
						if rng.IntN(3) == 0 {
							p, d = 3+rng.IntN(2), 3
						}
						n := p * p
						if d == 3 {
							n *= p
						}
						r, err := gridRun(kind, p, d, "pmnb", map[string]string{"task.m": fmt.Sprint(1 + rng.IntN(n)), "task.algorithm": alg, "task.tp": fmt.Sprint(rng.IntN(3))})
						if err != nil {
							return "", false, err
						}
						ok = ok && inBounds(r)
						worst = max(worst, r.Slots / *r.UpperBound)
						runs++
					}
					parts = append(parts, fmt.Sprintf("%s %s %.3f", kind, alg, worst))
				}
			}
			r, err := gridRun("torus", 8, 2, "pmnb", map[string]string{"task.m": "32", "task.algorithm": "split"})
			if err != nil {
				return "", false, err
			}
			ok = ok && inBounds(r)
			return fmt.Sprintf("%d runs; largest measured/bound: %s; torus p=8 M=32 split: %g (bound %.4g)", runs, strings.Join(parts, ", "), r.Slots, *r.UpperBound), ok, nil
		},
	})
	Register(Claim{
		ID:        "varvarigos-mesh-pe",
		Source:    "Varvarigos 1992 §3.5 (digest 000a §5.10, §8 item 11)",
		Claim:     "partial exchange in a p×p array: p = 8, M = 16 in the corner 4×4 subarray within 2⌊√M⌋(N−p) + 2(p−1) = 462 (t_p = 0) and above mN/4 = 64; random placements within the bound",
		Published: "≤ 462; ≥ 64",
		Tolerance: "within the bounds; delivered exactly once",
		Measure: func() (string, bool, error) {
			var src []string
			for y := 0; y < 4; y++ {
				for x := 0; x < 4; x++ {
					src = append(src, fmt.Sprint(y*8+x))
				}
			}
			r, err := gridRun("mesh", 8, 2, "pe", map[string]string{"task.sources": strings.Join(src, ",")})
			if err != nil {
				return "", false, err
			}
			ok := inBounds(r) && *r.UpperBound == 462 && r.Slots >= 64
			out := fmt.Sprintf("corner: %g slots (bound %g, lower bound %g)", r.Slots, *r.UpperBound, r.LowerBound)
			rng := rand.New(rand.NewPCG(16, 5))
			worst := 0.0
			for range 8 {
				p := 3 + rng.IntN(6)
				r, err := gridRun("mesh", p, 2, "pe", map[string]string{"task.m": fmt.Sprint(1 + rng.IntN(p*p))})
				if err != nil {
					return "", false, err
				}
				ok = ok && inBounds(r)
				worst = max(worst, r.Slots / *r.UpperBound)
			}
			return out + fmt.Sprintf("; 8 random placements, largest measured/bound %.3f", worst), ok, nil
		},
	})
}
