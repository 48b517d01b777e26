package verify

import (
	"math"
	"testing"
)

// hypercubePi, which the π rows compare the simulation with, gives the
// digest's exact values (000b §5.4, §6 item 19): d = 3 (7/12, 1/3, 1/12),
// d = 4 (15/32, 11/32, 5/32, 1/32), d = 8 to the 5 printed decimals; and
// π_1 = 1/m̄ with m̄ = d·N/(2(N − 1)), the mean distance to a destination
// other than the source.
func TestHypercubePiExact(t *testing.T) {
	for _, tc := range []struct {
		d    int
		want []float64
		tol  float64
	}{
		{3, []float64{7.0 / 12, 1.0 / 3, 1.0 / 12}, 1e-15},
		{4, []float64{15.0 / 32, 11.0 / 32, 5.0 / 32, 1.0 / 32}, 1e-15},
		{8, []float64{0.24902, 0.24121, 0.21387, 0.15918, 0.09082, 0.03613, 0.00879, 0.00098}, 5e-6},
	} {
		got := hypercubePi(tc.d)
		for i := range tc.want {
			if math.Abs(got[i]-tc.want[i]) > tc.tol {
				t.Errorf("d=%d: π_%d = %.6f, want %.6f", tc.d, i+1, got[i], tc.want[i])
			}
		}
		n := math.Ldexp(1, tc.d)
		if mbar := float64(tc.d) * n / (2 * (n - 1)); math.Abs(got[0]-1/mbar) > 1e-15 {
			t.Errorf("d=%d: π_1 = %g, 1/m̄ = %g", tc.d, got[0], 1/mbar)
		}
	}
}
