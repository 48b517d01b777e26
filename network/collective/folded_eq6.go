package collective

import (
	"fmt"
	"math"
)

// Eq6 is the folded-cube paper's delay bound for its dynamic broadcasting
// (paper B eq. 6, digest 000b §4.14(h)): T ≤ (1+ρ)[ρ/(d+1) + (3−ρ)(2d +
// 4d·t_p)] / [2(1 − ρ − ρ(d+1)(2d + 4d·t_p)/2^d)] + 1/(d+1). In the
// theorem's terms (X = 1/(d+1), V = 2d + 4d·t_p, N = 2^d, so λV =
// ρ(d+1)V/2^d) it is (1+ρ)(ρX + (3−ρ)V)/(2(1 − ρ − λV)) + X; +Inf at or
// above the threshold ρ* (paper eq. 5, Threshold), where the queues have
// no finite mean.
func (e Eq41) Eq6(rho float64) float64 {
	den := 2 * (1 - rho - e.Lambda(rho)*e.V)
	if den <= 0 {
		return math.Inf(1)
	}
	return (1+rho)*(rho*e.X+(3-rho)*e.V)/den + e.X
}

// eq6Text names the bound for the result.
const eq6Text = "(1+ρ)(ρX + (3−ρ)V)/(2(1 − ρ − λV)) + X with X = 1/(d+1), V = 2d + 4d·t_p (folded-cube paper eq. 6)"

// setEq6 puts eq. 6 beside Eq. 4.1 for the folded cube below ρ*.
func setEq6(res *DynResult, e Eq41, fam dynPMNB) {
	if _, ok := fam.(*foldedDyn); !ok || res.Rho >= res.Threshold {
		return
	}
	b := e.Eq6(res.Rho)
	in := res.MeanDelay <= b
	res.Eq6Bound, res.Eq6Text, res.WithinEq6 = &b, eq6Text, &in
}

// eq6Line is the table's line for eq. 6 (empty when not set).
func (r *DynResult) Eq6Line() string {
	if r.Eq6Bound == nil {
		return ""
	}
	return fmt.Sprintf("T ≤ %.4f = %s; measured inside: %v", *r.Eq6Bound, r.Eq6Text, *r.WithinEq6)
}
