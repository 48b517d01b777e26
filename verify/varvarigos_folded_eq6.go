package verify

import (
	"fmt"
	"math"

	"github.com/flitsim/flitsim/network/collective"
)

// The folded-cube paper's delay bound (its eq. 6, digest 000b §4.14(h),
// §5.6 item 17) beside the dynamic broadcasting measured on the router.

func init() {
	registerFoldedEq6("varvarigos-dynamic-folded-eq6", "", 6, 0.3, 1000)
	registerFoldedEq6("varvarigos-dynamic-folded-eq6-d10", TierFull, 10, 0.5, 100)
}

// registerFoldedEq6 registers the row: the formula at d = 10, t_p = 0
// (ρ* and T at ρ = 0.5) and the delay measured on the folded d-cube at
// load rho over the given periods.
func registerFoldedEq6(id, tier string, d int, rho float64, periods int) {
	Register(Claim{
		ID:     id,
		Source: "folded-cube paper Corollary 1 eqs. 5–6 (digest 000b §4.14(h), §5.6 item 17)",
		Claim: fmt.Sprintf("dynamic broadcasting on the folded cube: d = 10, t_p = 0 is stable for ρ < 0.823151 with T ≤ 95.70 at ρ = 0.5 (eq. 6); "+
			"the mean delay measured on the folded %d-cube at ρ = %g (%d periods) is below eq. 6", d, rho, periods),
		Published: "ρ* = 0.823151; T ≤ 95.70 (ρ = 0.5, d = 10)",
		Tolerance: "the formula to the printed digits; measured mean delay + its 95 % half-width ≤ eq. 6",
		Tier:      tier,
		Measure: func() (string, bool, error) {
			e := collective.Eq41{N: 1 << 10, X: 1.0 / 11, V: 20}
			th, t := e.Threshold(), e.Eq6(0.5)
			ok := math.Abs(th-0.823151) < 5e-7 && math.Abs(t-95.70) < 5e-3
			r, err := dynRunOn("folded-cube", d, map[string]string{"task.rho": fmt.Sprint(rho), "task.periods": fmt.Sprint(periods)})
			if err != nil {
				return "", false, err
			}
			if r.Eq6Bound == nil {
				return "", false, fmt.Errorf("folded %d-cube at ρ = %g: no eq. 6 bound in the result", d, rho)
			}
			ci := r.DelayCI95
			if math.IsNaN(ci) {
				ci = 0
			}
			ok = ok && r.MeanDelay+ci <= *r.Eq6Bound
			return fmt.Sprintf("d = 10: ρ* = %.6f, eq. 6 at ρ = 0.5: %.4f; folded %d-cube ρ = %g: measured %.4f ± %.4f ≤ eq. 6 %.4f (Eq. 4.1's bound %.4f)",
				th, t, d, rho, r.MeanDelay, ci, *r.Eq6Bound, r.TheoremBound), ok, nil
		},
	})
}
