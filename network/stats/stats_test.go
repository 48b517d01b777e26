package stats

import (
	"fmt"
	"math"
	"testing"
)

func TestHistogramExact(t *testing.T) {
	h := NewHistogram()
	if h.Count() != 0 || h.Mean() != 0 || h.Max() != 0 || h.Quantile(0.5) != 0 {
		t.Fatal("empty histogram not all zero")
	}
	for _, v := range []int64{5, 1, 3, 3, 10, 7, 3, 2, 9, 8} { // sorted: 1 2 3 3 3 5 7 8 9 10
		h.Add(v)
	}
	if h.Count() != 10 || h.Mean() != 5.1 || h.Max() != 10 {
		t.Fatalf("count %d mean %v max %d", h.Count(), h.Mean(), h.Max())
	}
	for _, c := range []struct{ q, want float64 }{
		{0, 1}, {0.05, 1}, {0.1, 1}, {0.11, 2}, {0.2, 2}, {0.3, 3}, {0.5, 3}, {0.51, 5},
		{0.6, 5}, {0.7, 7}, {0.9, 9}, {0.95, 10}, {0.99, 10}, {1, 10}, {2, 10}, {-1, 1},
	} {
		if got := h.Quantile(c.q); got != c.want {
			t.Errorf("Quantile(%v) = %v, want %v", c.q, got, c.want)
		}
	}
	// Float noise: 0.07·100 = 7.000000000000001 must still be rank 7.
	h.Reset()
	for v := int64(1); v <= 100; v++ {
		h.Add(v)
	}
	for _, c := range []struct{ q, want float64 }{{0.07, 7}, {0.29, 29}, {0.57, 57}, {0.99, 99}, {0.991, 100}, {0.5, 50}} {
		if got := h.Quantile(c.q); got != c.want {
			t.Errorf("1..100 Quantile(%v) = %v, want %v", c.q, got, c.want)
		}
	}
	h.Reset()
	if h.Count() != 0 || h.Max() != 0 || h.Mean() != 0 {
		t.Fatal("Reset left samples")
	}
	h.Add(0)
	if h.Quantile(0.5) != 0 || h.Count() != 1 {
		t.Fatal("after Reset")
	}
}

func TestHistogramGrowthAndOverflow(t *testing.T) {
	var h Histogram // zero value works
	vals := []int64{0, 1023, 1024, 5000, 1 << 20, 1<<40 + 3, 1 << 40, 7}
	for _, v := range vals {
		h.Add(v)
	}
	if h.Count() != 8 || h.Max() != 1<<40+3 {
		t.Fatalf("count %d max %d", h.Count(), h.Max())
	}
	sum := 0.0
	for _, v := range vals {
		sum += float64(v)
	}
	if math.Abs(h.Mean()-sum/8) > 1e-6*sum/8 {
		t.Errorf("mean %v want %v", h.Mean(), sum/8)
	}
	// sorted: 0 7 1023 1024 5000 2^20 2^40 2^40+3
	want := []float64{0, 7, 1023, 1024, 5000, 1 << 20, 1 << 40, 1<<40 + 3}
	for i, w := range want {
		if got := h.Quantile(float64(i+1) / 8); got != w {
			t.Errorf("Quantile(%d/8) = %v, want %v", i+1, got, w)
		}
	}
	if len(h.bins) > denseLimit {
		t.Errorf("%d dense bins", len(h.bins))
	}
}

func TestHistogramAddNoAlloc(t *testing.T) {
	h := NewHistogram()
	h.Add(3000) // grow once
	v := int64(0)
	if a := testing.AllocsPerRun(10000, func() { h.Add(v % 3000); v += 7 }); a != 0 {
		t.Errorf("Add allocates %v", a)
	}
}

func TestTQuantile975(t *testing.T) {
	for _, c := range []struct {
		df   int
		want float64
		tol  float64
	}{
		{1, 12.706, 5e-4}, {2, 4.303, 5e-4}, {5, 2.571, 5e-4}, {10, 2.228, 5e-4}, {19, 2.093, 5e-4}, {30, 2.042, 5e-4},
		// Numerically integrated reference values beyond the table.
		{31, 2.0395134, 2e-6}, {40, 2.0210754, 2e-6}, {60, 2.0002978, 2e-6}, {120, 1.9799304, 2e-6}, {1000, 1.9623391, 2e-6},
	} {
		if got := TQuantile975(c.df); math.Abs(got-c.want) > c.tol {
			t.Errorf("TQuantile975(%d) = %.7f, want %.7f", c.df, got, c.want)
		}
	}
	for df := 2; df < 500; df++ {
		if TQuantile975(df) >= TQuantile975(df-1) {
			t.Errorf("not decreasing at df %d", df)
		}
	}
	if TQuantile975(1<<30) < 1.959963 || !math.IsNaN(TQuantile975(0)) {
		t.Error("limits")
	}
}

func TestBatchMeans(t *testing.T) {
	b := NewBatchMeans(100, 200, 10) // batches [100,110) [110,120) ... [190,200)
	b.Add(99, 1000)                  // ignored
	b.Add(200, 1000)                 // ignored
	b.Add(100, 1)
	b.Add(109, 3) // batch 0 mean 2
	for i := int64(1); i < 10; i++ {
		b.Add(100+10*i, float64(2+2*i)) // batch i mean 2+2i
	}
	if b.Count() != 11 || b.Mean() != 112.0/11 || b.Batches() != 10 || b.Of() != 10 {
		t.Fatalf("count %d mean %v batches %d of %d", b.Count(), b.Mean(), b.Batches(), b.Of())
	}
	// means 2,4,...,20: m = 11, s² = 4·Σ(i−4.5)²/9 = 4·82.5/9, ci = t(9)·s/√10.
	want := 2.2621572 * math.Sqrt(4*82.5/9) / math.Sqrt(10)
	if got := b.CI95(); math.Abs(got-want) > 1e-12 {
		t.Errorf("CI95 = %v, want %v", got, want)
	}
	if TooFewBatches(b.Batches(), b.Of()) != "" {
		t.Error("10 batches: a reason given for no interval")
	}

	// Empty batches are skipped: 10 of 20 batches, means 10..19.
	b = NewBatchMeans(0, 20, 20)
	for i := int64(0); i < 10; i++ {
		b.Add(2*i, float64(10+i))
	}
	xs := []float64{10, 11, 12, 13, 14, 15, 16, 17, 18, 19}
	if got, want := b.CI95(), MeanCI95(xs); b.Batches() != 10 || math.Abs(got-want) > 1e-12 || !(got > 0) {
		t.Errorf("CI95 with empty batches = %v (%d batches), want %v", got, b.Batches(), want)
	}
	// Too few non-empty batches: no interval (NaN, not 0), and why.
	b = NewBatchMeans(0, 10, 5)
	b.Add(3, 1)
	b.Add(2, 5)
	if !math.IsNaN(b.CI95()) || b.Mean() != 3 {
		t.Errorf("single batch: CI95 %v mean %v", b.CI95(), b.Mean())
	}
	if got, want := TooFewBatches(b.Batches(), b.Of()), "1 of 5 batches measured, at least 10 needed"; got != want {
		t.Errorf("TooFewBatches = %q, want %q", got, want)
	}
	for k := range MinBatches {
		if !math.IsNaN(MeanCI95(make([]float64, k))) {
			t.Errorf("MeanCI95 of %d means is a number", k)
		}
	}
	// Uneven split: 10 cycles in 3 batches → [0,4) [4,7) [7,10).
	b = NewBatchMeans(0, 10, 3)
	for c := int64(0); c < 10; c++ {
		b.Add(c, float64(c))
	}
	if b.n[0] != 4 || b.n[1] != 3 || b.n[2] != 3 {
		t.Errorf("uneven split %v", b.n)
	}
	// Huge window: no overflow in the batch index.
	b = NewBatchMeans(math.MinInt64/2, math.MaxInt64/2, 1000)
	b.Add(math.MaxInt64/2-1, 1)
	if b.n[999] != 1 {
		t.Error("huge window")
	}
	if !math.IsNaN(NewBatchMeans(5, 5, 3).CI95()) || NewBatchMeans(0, 10, 0).Mean() != 0 {
		t.Error("degenerate windows")
	}
}

// TestHistogramBins: Bins lists the values with samples in ascending order,
// dense and overflow alike, with their counts.
func TestHistogramBins(t *testing.T) {
	var h Histogram
	for _, v := range []int64{5, 3, 5, 1 << 21, 0, 1 << 20, 1 << 21} {
		h.Add(v)
	}
	var got [][2]int64
	h.Bins(func(v, c int64) { got = append(got, [2]int64{v, c}) })
	want := [][2]int64{{0, 1}, {3, 1}, {5, 2}, {1 << 20, 1}, {1 << 21, 2}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("bins %v, want %v", got, want)
	}
}
