package compare

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestZ(t *testing.T) {
	// Thesis 8.15/0.32 over 500 against 8.20/0.30 over 2000: SE = √(0.32/500
	// + 0.30/2000) = 0.0281, z = 1.78.
	if z := Z(Sample{2000, 8.20, 0.30}, Sample{500, 8.15, 0.32}); math.Abs(z-1.779) > 0.005 {
		t.Errorf("z = %.4f, want 1.779", z)
	}
	if z := Z(Sample{2000, 7.90, 0.30}, Sample{500, 8.15, 0.32}); z > -EntryZ {
		t.Errorf("a mean 0.25 below (9 SE) gave z %.2f", z)
	}
	if Z(Sample{10, 1, 0}, Sample{500, 1, 0}) != 0 || !math.IsInf(Z(Sample{10, 2, 0}, Sample{500, 1, 0}), 1) || !math.IsInf(Z(Sample{10, 0, 0}, Sample{500, 1, 0}), -1) {
		t.Error("degenerate samples")
	}
}

func TestVarianceOK(t *testing.T) {
	for _, c := range []struct {
		sim, pub    float64
		ok, skipped bool
	}{{0.30, 0.32, true, false}, {0.42, 0.32, false, false}, {0.20, 0.32, false, false}, {0.4, 0.31, true, false}, {0.9, 0.05, true, true}, {0, 0, true, true}} {
		if ok, sk := VarianceOK(c.sim, c.pub); ok != c.ok || sk != c.skipped {
			t.Errorf("VarianceOK(%g, %g) = %v, %v", c.sim, c.pub, ok, sk)
		}
	}
}

func TestMaxOK(t *testing.T) {
	for _, c := range []struct {
		blocks []int64
		pub    int64
		ok     bool
	}{
		{[]int64{10, 10, 11, 10}, 11, true},       // occurs
		{[]int64{10, 10, 10, 10}, 11, true},       // median ± 1
		{[]int64{10, 10, 10, 10}, 12, false},      // neither
		{[]int64{9, 9, 10, 10, 10, 11}, 8, false}, // median 10
		{nil, 3, false},
	} {
		if MaxOK(c.blocks, c.pub) != c.ok {
			t.Errorf("MaxOK(%v, %d) != %v", c.blocks, c.pub, c.ok)
		}
	}
	// 1 % of the blocks: two hits in 200 count, one does not (the median is
	// 3 away).
	bs := make([]int64, 200)
	for i := range bs {
		bs[i] = 10
	}
	if MaxOK(bs, 13) {
		t.Error("13 never a block maximum, median 10")
	}
	bs[7] = 13
	if MaxOK(bs, 13) {
		t.Error("13 a block maximum in 1 of 200 blocks (0.5 %) passed")
	}
	bs[8] = 13
	if !MaxOK(bs, 13) {
		t.Error("13 a block maximum in 2 of 200 blocks (1 %) failed")
	}
}

// draw histograms of m experiments from a discrete distribution p over
// values base, base+1, ….
func draw(rng *rand.Rand, m int, base int64, p []float64) Histogram {
	h := Histogram{}
	for range m {
		u, v := rng.Float64(), 0
		for v < len(p)-1 && u >= p[v] {
			u -= p[v]
			v++
		}
		h[base+int64(v)]++
	}
	return h
}

func TestHistogramTests(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	same := []float64{0.04, 0.63, 0.29, 0.03, 0.01}
	shifted := []float64{0.01, 0.40, 0.45, 0.12, 0.02}
	falseKS, falseChi := 0, 0
	for range 100 {
		a, b := draw(rng, 500, 7, same), draw(rng, 2000, 7, same)
		if KS(a, b) > KSCritical {
			falseKS++
		}
		if _, _, p := ChiSquare(a, b); p < ChiSquareAlpha {
			falseChi++
		}
	}
	// α = 0.01: about 1 in 100; 6 or more is p < 0.001.
	if falseKS > 5 || falseChi > 5 {
		t.Errorf("same distribution rejected %d (KS) and %d (chi-square) times in 100", falseKS, falseChi)
	}
	a, b := draw(rng, 500, 7, same), draw(rng, 2000, 7, shifted)
	if ks := KS(a, b); ks <= KSCritical {
		t.Errorf("KS %.2f did not reject a shifted distribution", ks)
	}
	if chi, df, p := ChiSquare(a, b); p >= ChiSquareAlpha || df < 2 {
		t.Errorf("chi-square %.1f (df %d, p %.3g) did not reject a shifted distribution", chi, df, p)
	}
	// Pooling: rare values join their neighbours, so no bin expects < 5.
	_, df, _ := ChiSquare(Histogram{7: 18, 8: 329, 9: 131, 10: 20, 11: 2}, Histogram{7: 17, 8: 314, 9: 157, 10: 12})
	if df != 3 {
		t.Errorf("Table 3-94 rows pooled to df %d, want 3 (10 and 11 together)", df)
	}
}

func TestChiSquareSurvival(t *testing.T) {
	for _, c := range []struct {
		x    float64
		df   int
		want float64
	}{{3.841, 1, 0.05}, {13.816, 2, 0.001}, {11.345, 3, 0.01}, {20.483, 10, 0.025}, {0.5, 4, 0.9735}} {
		if got := ChiSquareSurvival(c.x, c.df); math.Abs(got-c.want) > 1e-3*max(1, c.want*10) {
			t.Errorf("Q(%g; %d) = %.5f, want %.5f", c.x, c.df, got, c.want)
		}
	}
}

func TestFamily(t *testing.T) {
	mk := func(zs ...float64) []Entry {
		es := make([]Entry, len(zs))
		for i, z := range zs {
			es[i].Z = z
		}
		return es
	}
	ok := mk(0.1, -1.2, 2.1, 0.5, 1.9, -0.3, 0.8, 1.1, -1.7, 0.2) // 1 of 10 over 2
	if r := Family(ok); !r.OK || r.OverTwo != 1 || r.Worst != 2.1 {
		t.Errorf("%+v", r)
	}
	tooMany := mk(0.1, -2.2, 2.1, 0.5, 1.9, -0.3, 0.8, 1.1, -1.7, 0.2) // 2 of 10
	if Family(tooMany).OK {
		t.Error("20 % over 2 passed")
	}
	worst := append(mk(make([]float64, 40)...), Entry{Z: -4.2})
	if Family(worst).OK {
		t.Error("an entry at 4.2 passed")
	}
	worst[40].Excluded = true
	if r := Family(worst); !r.OK || r.Excluded != 1 || r.Entries != 40 {
		t.Errorf("the excluded entry counted: %+v", r)
	}
	if Family(nil).OK {
		t.Error("an empty family passed")
	}
}

func TestBlockMax(t *testing.T) {
	// Values 0..9 equally likely: a block of 500 has maximum 9 with
	// probability 1 − 0.9^500 ≈ 1, 8 with 0.9^500 ≈ 1.3·10⁻²³.
	h := Histogram{}
	for v := range int64(10) {
		h[v] = 100
	}
	if p, med := BlockMax(h, 500, 9); math.Abs(p-1) > 1e-9 || med != 9 {
		t.Errorf("p %.3g median %d", p, med)
	}
	if !MaxOKHistogram(h, 9) || !MaxOKHistogram(h, 8) || MaxOKHistogram(h, 7) || MaxOKHistogram(h, 11) {
		t.Error("block rule on a uniform 0..9")
	}
	// A rare tail: 12 has P 0.002 a run, so a block of 500 reaches 12 or
	// more with probability 1 − 0.998^500 = 0.63; the published 14 (never
	// seen) is within 1 of no median and never a block maximum here.
	h = Histogram{10: 900, 11: 98, 12: 2}
	if p, med := BlockMax(h, 500, 12); math.Abs(p-(1-math.Pow(0.998, 500))) > 1e-9 || med != 12 {
		t.Errorf("p %.3f median %d", p, med)
	}
	if !MaxOKHistogram(h, 11) || MaxOKHistogram(h, 14) {
		t.Error("block rule on a tail")
	}
}
