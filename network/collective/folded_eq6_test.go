package collective

import (
	"math"
	"testing"

	"github.com/flitsim/flitsim/network/topology"
)

// Eq. 6 in the theorem's X, V equals the paper's form in d and t_p, and
// gives the digest's worked value (d = 10, t_p = 0, ρ = 0.5: 95.70).
func TestEq6(t *testing.T) {
	paper := func(d, tp, rho float64) float64 {
		v := 2*d + 4*d*tp
		return (1+rho)*(rho/(d+1)+(3-rho)*v)/(2*(1-rho-rho*(d+1)*v/math.Pow(2, d))) + 1/(d+1)
	}
	for _, c := range [][3]float64{{10, 0, 0.5}, {8, 0, 0.3}, {12, 1, 0.2}, {6, 2, 0.05}} {
		d, tp, rho := c[0], c[1], c[2]
		e := Eq41{N: 1 << int(d), X: 1 / (d + 1), V: 2*d + 4*d*tp}
		if got, want := e.Eq6(rho), paper(d, tp, rho); math.Abs(got-want) > 1e-9*want {
			t.Errorf("d=%g t_p=%g ρ=%g: Eq6 %g, paper %g", d, tp, rho, got, want)
		}
	}
	e := Eq41{N: 1024, X: 1.0 / 11, V: 20}
	if got := e.Eq6(0.5); math.Abs(got-95.70) > 5e-3 {
		t.Errorf("d = 10, ρ = 0.5: %g, want 95.70", got)
	}
	if !math.IsInf(e.Eq6(0.83), 1) {
		t.Errorf("above ρ* = 0.823151: %g, want +Inf", e.Eq6(0.83))
	}
}

// The folded cube's dynamic result carries eq. 6 (and the measured delay
// under it); the hypercube's does not.
func TestDynamicEq6OnlyFolded(t *testing.T) {
	p := map[string]string{"task.rho": "0.3", "task.periods": "200"}
	r, err := RunDynamic(topology.Spec{Kind: "folded-cube", D: 6}, p, 1)
	if err != nil {
		t.Fatal(err)
	}
	if r.Eq6Bound == nil || *r.Eq6Bound != (Eq41{N: r.Nodes, X: r.X, V: r.V}).Eq6(0.3) || !*r.WithinEq6 || r.Eq6Line() == "" {
		t.Errorf("folded 6-cube: eq. 6 %v, within %v, mean delay %g", r.Eq6Bound, r.WithinEq6, r.MeanDelay)
	}
	h, err := RunDynamic(topology.Spec{Kind: "hypercube", D: 4}, p, 1)
	if err != nil {
		t.Fatal(err)
	}
	if h.Eq6Bound != nil {
		t.Errorf("hypercube: eq. 6 %g set", *h.Eq6Bound)
	}
}
