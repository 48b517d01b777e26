package collective

import (
	"math"
	"testing"
)

// The digest's §7.4 table (hypercube, Algorithm II: X = (N−1)/(dN),
// V = 2dt_p + 2) and §8 item 17.
func TestEq41Table(t *testing.T) {
	for _, c := range []struct {
		d                       int
		tp, rho                 float64
		thr, mbar, alo, tlo, ub float64
	}{
		{4, 0, 0.5, 0.65217, 8.533, 0.2363, 8.663, 9.659},
		{6, 0, 0.8, 0.84000, 48.762, 0.3732, 29.973, 33.972},
		{8, 1, 0.5, 0.63910, 144.565, 0.2804, 75.575, 84.575},
		{10, 0, 0.5, 0.98082, 20.020, 0.0093, 6.142, 7.738},
		{10, 1, 0.8, 0.82301, 880.860, 0.4296, 468.398, 512.398},
		{16, 1, 0.9, 0.99177, 4896.075, 0.0373, 524.064, 705.024},
	} {
		n := 1 << c.d
		e := Eq41{N: n, X: float64(n-1) / float64(c.d*n), V: 2*float64(c.d)*c.tp + 2}
		alo, _ := e.A(c.rho)
		tlo, _ := e.Range(c.rho)
		for _, g := range []struct {
			name      string
			got, want float64
			tol       float64
		}{
			{"ρ*", e.Threshold(), c.thr, 5e-6},
			{"M̄", e.Mbar(c.rho), c.mbar, 5e-4},
			{"a_lo", alo, c.alo, 5e-5},
			{"T(a_lo)", tlo, c.tlo, 5e-4},
			{"upper", e.Upper(c.rho), c.ub, 5e-4},
		} {
			if math.Abs(g.got-g.want) > g.tol {
				t.Errorf("d=%d t_p=%g ρ=%g: %s = %.6f, digest %.6f", c.d, c.tp, c.rho, g.name, g.got, g.want)
			}
		}
	}
	e := Eq41{N: 1024, X: 1023.0 / 10240, V: 2}
	if got := e.LightLoad(); math.Abs(got-3.0999) > 5e-5 {
		t.Errorf("light-load bound %.5f, digest 3.0999", got)
	}
	if !math.IsNaN(e.W(0.99, 0)) {
		t.Errorf("W above the threshold should be NaN")
	}
}
