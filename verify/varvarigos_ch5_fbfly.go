package verify

import (
	"fmt"
	"math"
	"strings"

	"github.com/flitsim/flitsim/network/analytic"
)

// Varvarigos 1992 §5.5 and §5.7 on the simulated hardware: Table 5.1 on the
// folded butterfly, whose greedy routing the thesis says the unbuffered
// simple scheme is (digest 000b §2.2), and the head-of-queue distance
// histogram π_i of eq. 5.47 (digest 000b §4.9, §5.4).

func init() {
	Register(Claim{
		ID:     "varvarigos-ch5-fbfly-table51-quick",
		Source: "Varvarigos 1992 §5.5, Fig. 5.8, Table 5.1 (digest 000b §2.2, §5.1)",
		Claim: "greedy routing on the folded butterfly (d = 8, one packet a link) is the unbuffered simple scheme: " +
			"Table 5.1's peak row (p0 0.3642) and p0 0.9983, per row of d butterfly nodes (the full table: --only varvarigos-ch5-fbfly)",
		Published: "0.6883, 0.6331 (the thesis's simulations, per hypercube node)",
		Tolerance: "1 %",
		Tier:      TierQuick,
		Measure: func() (string, bool, error) {
			return table51Rows("folded-butterfly", []int{7, 0}, 1000)
		},
	})
	for i := range table51 {
		Register(Claim{
			ID:        fmt.Sprintf("varvarigos-ch5-fbfly-table51-sim-%02d", i+1),
			Source:    "Varvarigos 1992 §5.5, Fig. 5.8, Table 5.1 (digest 000b §2.2, §5.1)",
			Claim:     fmt.Sprintf("folded butterfly, d = 8, greedy (unbuffered simple), p0 %.4f: simulated throughput per row of d nodes", table51[i][0]),
			Published: fmt.Sprintf("%.4f (the thesis's simulation, per hypercube node)", table51[i][2]),
			Tolerance: "1 %",
			Tier:      TierFull,
			Measure: func() (string, bool, error) {
				return table51Rows("folded-butterfly", []int{i}, 4000)
			},
		})
	}
	for _, d := range []int{3, 4, 8} {
		Register(Claim{
			ID:     fmt.Sprintf("varvarigos-ch5-pi-d%d", d),
			Source: "Varvarigos 1992 §5.7, eq. 5.47, Fig. 5.13 (digest 000b §4.9, §5.4)",
			Claim: fmt.Sprintf("d = %d, simple, k = inf (no drops), p0 0.5: the distance to its destination of the packet "+
				"at the head of a random busy forward link, histogram π_1..π_%d", d, d),
			Published: "π_i = (2/d)·Σ_{j≥i} C(d,j)·2^−d: " + fmtPi(hypercubePi(d)),
			Tolerance: "±0.002 each",
			Measure: func() (string, bool, error) {
				measure := int64(20000) // (a small cube needs more slots for the same count)
				if d == 8 {
					measure = 1500
				}
				_, r, err := slottedRun(d, "simple", "inf", 0.5, measure)
				if err != nil {
					return "", false, err
				}
				want := hypercubePi(d)
				ok := len(r.Pi) == d
				for i := 0; ok && i < d; i++ {
					ok = math.Abs(r.Pi[i]-want[i]) <= 0.002
				}
				return fmtPi(r.Pi), ok, nil
			},
		})
	}
}

// hypercubePi is eq. 5.47 on the d-cube (analytic.HypercubePi, exact):
// π_i = (2/d)·Σ_{j=i}^{d} C(d,j)·2^−d, i = 1..d at index i − 1.
func hypercubePi(d int) []float64 {
	pi, _, err := analytic.HypercubePi(d)
	if err != nil {
		return nil
	}
	return analytic.Floats(pi)
}

// fmtPi writes a histogram to 5 decimals.
func fmtPi(pi []float64) string {
	s := make([]string, len(pi))
	for i, v := range pi {
		s[i] = fmt.Sprintf("%.5f", v)
	}
	return strings.Join(s, ", ")
}
