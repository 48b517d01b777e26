package verify

import (
	"fmt"
	"math"
	"strings"

	"github.com/flitsim/flitsim/network/collective"
	"github.com/flitsim/flitsim/network/topology"
)

// Dynamic broadcasting on the 2-D array and torus (Varvarigos §4.5, digest
// 000a §6.7 and §7.4's mesh table): every period's PMNB is the split
// algorithm of Theorem 6 on the router, X = (N−1)/(γdN), V = 2d(p−1)t_p +
// (1 + 1/γ)(p−1).

// dynMeshRun runs the dynamic task on the p×p array or torus, failing
// unless every period's PMNB delivered every packet to every node once.
func dynMeshRun(kind string, p int, params map[string]string) (*collective.DynResult, error) {
	r, err := runDynamic(topology.Spec{Kind: kind, K: p, N: 2}, params, 1)
	if err != nil {
		return nil, err
	}
	if !r.Delivered {
		return nil, fmt.Errorf("dynamic on the %d×%d %s: %w (missing %d, duplicates %d, stray %d)", p, p, kind, ErrShortfall, r.Missing, r.Duplicates, r.Stray)
	}
	return r, nil
}

func init() {
	Register(Claim{
		ID:        "varvarigos-dynamic-mesh-delay",
		Source:    "Varvarigos 1992 §4.2 Eq. 4.1, §4.5 Eqs. 4.16–4.18 (digest 000a §6.7, §7.4 mesh table)",
		Claim:     "dynamic broadcasting on the 2-D array and torus (Theorem 6's split PMNB on the router every period, fixed intervals, t_p = 0, ρ = 0.5): mean delay under the Dynamic Broadcasting Theorem's bound",
		Published: "T ≤ 45.082 (4×4 array), 62.834 (8×8 array), 55.862 (8×8 torus)",
		Tolerance: "measured mean delay ≤ the bound, which must be the digest's figure to 3 decimals; queues stable; every period's PMNB delivered exactly once",
		Measure: func() (string, bool, error) {
			var parts []string
			ok := true
			for _, c := range []struct {
				kind      string
				p         int
				periods   int
				published float64
			}{{"mesh", 4, 3000, 45.082}, {"mesh", 8, 600, 62.834}, {"torus", 8, 600, 55.862}} {
				r, err := dynMeshRun(c.kind, c.p, map[string]string{"task.rho": "0.5", "task.periods": fmt.Sprint(c.periods)})
				if err != nil {
					return "", false, err
				}
				parts = append(parts, fmt.Sprintf("%d×%d %s: %.3f ± %.3f (Eq. 4.1 range %.3f–%.3f, bound %.3f; %s)", c.p, c.p, c.kind, r.MeanDelay, r.DelayCI95, r.TheoremLow, r.TheoremHigh, r.TheoremBound, r.Verdict))
				ok = ok && r.MeanDelay <= r.TheoremBound && math.Abs(r.TheoremBound-c.published) < 5e-4 && r.Verdict == "stable"
			}
			return strings.Join(parts, "; "), ok, nil
		},
	})
	Register(Claim{
		ID:        "varvarigos-dynamic-mesh-threshold",
		Source:    "Varvarigos 1992 §4.5 Eq. 4.21 (digest 000a §6.7, §7.4 mesh table)",
		Claim:     "dynamic broadcasting on the 4×4 array and torus, t_p = 0: the queues grow above ρ* = 1/(1 + dγ(1+1/γ)(p−1)/(p^d − 1)) and drain below it",
		Published: "ρ* = 0.55556 (array), 0.45455 (torus)",
		Tolerance: "saturated period's NX/length to 5 digits; queues drain at 0.50 and grow at 0.61 (array), at 0.40 and 0.50 (torus) (saturated start, 2000 periods, z-test)",
		Measure: func() (string, bool, error) {
			var parts []string
			ok := true
			for _, c := range []struct {
				kind                string
				published, lo, high float64
			}{{"mesh", 0.55556, 0.50, 0.61}, {"torus", 0.45455, 0.40, 0.50}} {
				run := func(params map[string]string) (*collective.DynResult, error) { return dynMeshRun(c.kind, 4, params) }
				txt, good, err := dynThresholdWith(run, c.published, 5e-6, c.lo, c.high, 2000, 30)
				if err != nil {
					return "", false, err
				}
				parts, ok = append(parts, "4×4 "+c.kind+": "+txt), ok && good
			}
			return strings.Join(parts, "; "), ok, nil
		},
	})
}
