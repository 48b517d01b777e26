package verify

import (
	"fmt"
	"strings"
)

// Theorem 7's universal lower bound beside the banded transpositions
// measured on the simulated hypercube (Varvarigos §2.6, digest 000a §4.8).

func init() {
	Register(Claim{
		ID:     "varvarigos-banded-universal",
		Source: "Varvarigos 1992 §2.6 Theorem 7, Eq. 2.6 and Lemma 2 (digest 000a §4.8)",
		Claim: "no column assignment transposes a matrix of bandwidth B on the d-cube in fewer than B(r−1)/(2d) slots " +
			"(Σ_{i<r} C(d,i) < B ≤ Σ_{i≤r} C(d,i), Lemma 2's W ≥ B(r−1)/2): the banded and ⌊d/β⌋-matrix transpositions measured on the hardware " +
			"never beat it (d = 4..8, every β)",
		Published: "T ≥ B(r−1)/(2d) for r > 1 (Ω(B) for B = N^c); the algorithm's (B−1)/2",
		Tolerance: "measured ≥ the bound in every run",
		Measure: func() (string, bool, error) {
			ok, runs, best := true, 0, 0.0
			var show []string
			for d := 4; d <= 8; d++ {
				for beta := 0; beta <= d-2; beta++ {
					for _, task := range []string{"banded", "banded-multi"} {
						if task == "banded-multi" && beta == 0 {
							continue
						}
						r, err := hcRun(d, task, bandP(beta), 1)
						if err != nil {
							return "", false, err
						}
						u := r.UniversalBound
						if u == nil {
							return "", false, fmt.Errorf("%s d=%d β=%d: no universal bound", task, d, beta)
						}
						ok = ok && r.Slots >= *u
						runs++
						best = max(best, *u/r.Slots)
						if task == "banded" && d == 8 && beta >= 3 {
							show = append(show, fmt.Sprintf("d=%d β=%d: %g ≥ %.4g", d, beta, r.Slots, *u))
						}
					}
				}
			}
			return fmt.Sprintf("%d runs, largest bound/measured %.3f; %s", runs, best, strings.Join(show, ", ")), ok, nil
		},
	})
}
