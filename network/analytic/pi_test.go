package analytic

import (
	"math"
	"math/big"
	"testing"
)

// TestHypercubePi: eq. 5.47's π for d = 3 and 4 as the digest's fractions,
// for d = 8 to its 5 printed decimals, π_1 = 1/m̄ and Σ π_i = 1 exactly.
func TestHypercubePi(t *testing.T) {
	for _, tc := range []struct {
		d    int
		pi   []string
		mean string
	}{
		{3, []string{"7/12", "1/3", "1/12"}, "12/7"},
		{4, []string{"15/32", "11/32", "5/32", "1/32"}, "32/15"},
	} {
		pi, mean, err := HypercubePi(tc.d)
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range tc.pi {
			w, _ := new(big.Rat).SetString(want)
			if pi[i].Cmp(w) != 0 {
				t.Errorf("d %d: π_%d = %s, want %s", tc.d, i+1, pi[i].RatString(), want)
			}
		}
		if w, _ := new(big.Rat).SetString(tc.mean); mean.Cmp(w) != 0 {
			t.Errorf("d %d: m̄ = %s, want %s", tc.d, mean.RatString(), tc.mean)
		}
	}
	want8 := []float64{0.24902, 0.24121, 0.21387, 0.15918, 0.09082, 0.03613, 0.00879, 0.00098}
	for d := 1; d <= 16; d++ {
		pi, mean, _ := HypercubePi(d)
		sum := new(big.Rat)
		for _, p := range pi {
			sum.Add(sum, p)
		}
		if inv := new(big.Rat).Inv(mean); pi[0].Cmp(inv) != 0 || sum.Cmp(big.NewRat(1, 1)) != 0 {
			t.Errorf("d %d: π_1 = %s, 1/m̄ = %s, Σπ = %s", d, pi[0].RatString(), inv.RatString(), sum.RatString())
		}
		if d == 8 {
			for i, v := range Floats(pi) {
				if math.Abs(v-want8[i]) > 5e-6 {
					t.Errorf("d 8: π_%d = %.6f, want %.5f", i+1, v, want8[i])
				}
			}
			if m, _ := mean.Float64(); math.Abs(m-4.015686) > 5e-7 {
				t.Errorf("d 8: m̄ = %.6f, want 4.015686", m)
			}
		}
	}
	if _, _, err := HypercubePi(0); err == nil {
		t.Error("d 0: no error")
	}
}
