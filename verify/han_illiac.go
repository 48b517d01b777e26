package verify

import (
	"fmt"
	"strings"

	"github.com/flitsim/flitsim/network/han"
)

// Han 1990 §1.4, §5.2: Q and H on the ILLIAC model.

func init() {
	Register(Claim{
		ID: "han-illiac-corner", Source: "Han 1990 (thesis) §1.4 (ILLIAC model), §5.2",
		Claim:     "on the ILLIAC model (one send direction a step) two opposite corners' messages need 4n − 4 steps; rot180 under Q and H meets it (n = 8 … 32, actual schedule, with and without wraparound)",
		Published: "4n − 4",
		Tolerance: "exact (Tier C: not beaten)",
		Measure: func() (string, bool, error) {
			for n := 8; n <= 32; n *= 2 {
				p, err := han.Permutation("rot180", n, 1)
				if err != nil {
					return "", false, err
				}
				for _, alg := range []string{han.AlgQ, han.AlgH} {
					for _, wrap := range []bool{false, true} {
						r, err := han.RunMeshOn(han.Hardware{Model: han.ModelILLIAC, Wrap: wrap}, alg, n, n, han.Buffers(alg, n), han.Lists(p), han.Actual, nil)
						if err != nil {
							return "", false, err
						}
						if r.DataSteps != int64(4*n-4) {
							return fmt.Sprintf("%s n=%d wrap %v: %d data steps", alg, n, wrap, r.DataSteps), false, nil
						}
					}
				}
			}
			return "4n − 4 for Q and H, n = 8 … 32", true, nil
		},
	})
	Register(Claim{
		ID: "han-illiac-factor", Source: "Han 1990 (thesis) §5.2",
		Claim: "a straightforward port of Q and H to the ILLIAC model takes at most four times the distributed model's steps, " +
			"\"substantially fewer\" in practice (random permutations, n = 16 and 32; the same buffers)",
		Published: "≤ 4×, substantially fewer",
		Tolerance: "at most 4× (static schedule); measured ratio (actual schedule) reported",
		Measure: func() (string, bool, error) {
			var got []string
			ok := true
			for _, alg := range []string{han.AlgQ, han.AlgH} {
				for n := 16; n <= 32; n *= 2 {
					p, err := han.Permutation("random", n, 1)
					if err != nil {
						return "", false, err
					}
					var tot [2][2]int64 // [distributed, illiac][static, actual]
					buf := [2]int{}
					for i, model := range []string{han.ModelDistributed, han.ModelILLIAC} {
						for j, sched := range []string{han.Static, han.Actual} {
							r, err := han.RunMeshOn(han.Hardware{Model: model}, alg, n, n, han.Buffers(alg, n), han.Lists(p), sched, nil)
							if err != nil {
								return "", false, err
							}
							tot[i][j], buf[i] = r.TotalSteps, max(buf[i], r.MaxBuffer)
						}
					}
					got = append(got, fmt.Sprintf("%s n=%d static %.2f× actual %.2f×", alg, n,
						float64(tot[1][0])/float64(tot[0][0]), float64(tot[1][1])/float64(tot[0][1])))
					ok = ok && tot[1][0] <= 4*tot[0][0] && buf[1] <= buf[0]
				}
			}
			return strings.Join(got, "; "), ok, nil
		},
	})
}
