package verify

import (
	"fmt"
	"math"
	"strings"

	"github.com/flitsim/flitsim/network/analytic"
)

// Varvarigos 1992 Figs. 5.3, 5.5 and 5.6 (d = 11): the thesis draws the
// analysis alone and says the unbuffered models are very close to
// simulation (§5.5, §6.5: Table 5.1's differences are below 0.2 %) and
// the buffered priority one within 3 %. The full tier simulates each curve
// at the loads `flitsim analytic --plot` draws (docs/analytic.md) and
// compares it with the model point by point.

// figLoads are the simulated loads.
var figLoads = []float64{0.02, 0.05, 0.1, 0.2, 0.4, 0.7, 1}

// figCurveRow simulates one curve on the 11-cube at figLoads for 1000
// measured slots a load; ok when every point is within tol of the model.
func figCurveRow(scheme string, k int, tol float64) (string, bool, error) {
	ok := true
	var got []string
	for _, p0 := range figLoads {
		var m analytic.Slotted
		var err error
		switch {
		case scheme == "simple":
			m, err = analytic.SimpleScheme(11, k, p0)
		case k == 0:
			m, err = analytic.PriorityUnbuffered(11, p0)
		default:
			m, err = analytic.PriorityBuffered(11, k, p0)
		}
		if err != nil {
			return "", false, err
		}
		sim, _, err := slottedRun(11, scheme, fmt.Sprint(k), p0, 1000)
		if err != nil {
			return "", false, err
		}
		diff := (sim - m.ThroughputPerNode) / m.ThroughputPerNode
		ok = ok && math.Abs(diff) <= tol
		got = append(got, fmt.Sprintf("%g: %.4f (%+.1f %%)", p0, sim, 100*diff))
	}
	return strings.Join(got, ", "), ok, nil
}

func init() {
	for _, c := range []struct {
		fig, scheme string
		k           int
		tol         float64
	}{
		{"5.3", "simple", 0, 0.01}, {"5.5", "priority", 0, 0.01},
		{"5.6", "priority", 1, 0.03}, {"5.6", "priority", 2, 0.03}, {"5.6", "priority", 3, 0.03},
	} {
		Register(Claim{
			ID:     fmt.Sprintf("varvarigos-ch5-fig%s-%s-k%d", strings.ReplaceAll(c.fig, ".", ""), c.scheme, c.k),
			Source: fmt.Sprintf("Varvarigos 1992 Fig. %s, §5.5 (digest 000b §4.2–4.6, §5.5)", c.fig),
			Claim: fmt.Sprintf("d = 11, %s scheme, k = %d: the simulated throughput per node at p0 = 0.02 … 1 "+
				"against the analysis the figure draws", c.scheme, c.k),
			Published: "the analysis (eqs. 5.1–5.42), which the thesis says simulation confirms",
			Tolerance: fmt.Sprintf("%g %% of the analysis at every load", 100*c.tol),
			Tier:      TierFull,
			Measure: func() (string, bool, error) {
				return figCurveRow(c.scheme, c.k, c.tol)
			},
		})
	}
}
