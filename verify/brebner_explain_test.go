package verify

import (
	"strings"
	"testing"

	"github.com/flitsim/flitsim/network"
)

// blocksOf splits a histogram of experiments (value → count, total a
// multiple of 500) into blocks of 500 in value order, as every measure of
// every phase of a batch (so that any entry reads it).
func blocksOf(h map[int64]int64) bResult {
	var vals []int64
	for v := int64(0); v < 100; v++ {
		for range h[v] {
			vals = append(vals, v)
		}
	}
	// interleave so every block sees the whole distribution
	var res bResult
	nb := len(vals) / 500
	for b := range nb {
		m := network.Measure{Histogram: map[int64]int64{}}
		for i := b; i < len(vals); i += nb {
			m.Histogram[vals[i]]++
			m.Max = max(m.Max, vals[i])
		}
		ps := network.PhaseStats{CompletionTime: m, MaxNodePopulation: m, MaxQueue: m, MaxQueuedPopulation: m}
		ex := &network.Experiments{Phase1: &ps, Phase2: &ps, Total: ps}
		res.blocks = append(res.blocks, ex)
	}
	return res
}

// TestOutlierMaxExplainsOnlyAFittingOutlier: a thesis maximum far above the
// simulated blocks is explained when mean and variance agree and one
// outlier at it fits the printed variance; not when the variance says
// otherwise, nor when the maximum passes, nor when the mean disagrees.
func TestOutlierMaxExplainsOnlyAFittingOutlier(t *testing.T) {
	// 2000 runs: 10 (1000), 11 (700), 9 (200), 12 (100): mean 10.35, var ≈ 0.53
	res := blocksOf(map[int64]int64{9: 200, 10: 1000, 11: 700, 12: 100})
	e := bEntry{table: "3-1", graph: "cube", phase: "1", measure: "time", n: 7, mean: 10.35, variance: 0.62, max: 17}
	why := outlierMax(e, res)
	if !strings.Contains(why, "only the maximum misses") {
		t.Fatalf("a fitting single outlier should be explained, got %q", why)
	}
	bad := e
	bad.variance = 1.2 // ±30 % fails on the variance itself
	if outlierMax(bad, res) != "" {
		t.Fatal("a variance outside tolerance must not be explained as a maximum outlier")
	}
	ok := e
	ok.max = 12 // the block rule passes: nothing to explain
	if outlierMax(ok, res) != "" {
		t.Fatal("a maximum that passes needs no explanation")
	}
	far := e
	far.mean = 11.5 // the mean disagrees
	if outlierMax(far, res) != "" {
		t.Fatal("a mean outside |z| 3.5 must not be explained")
	}
	low := e
	low.variance = 0.42 // 0.528 is within +30 % of it, 0.528 + the outlier's 0.088 = 0.616 is not
	if outlierMax(low, res) != "" {
		t.Fatal("an outlier that does not fit the printed variance must not be explained")
	}
}

// TestChanceRejectionOnlyWhenNotFamilyWise: a chi-square rejection with p
// just under 0.01 is chance over the histogram rows; one far below it is
// not, nor one KS also rejects.
func TestChanceRejectionOnlyWhenNotFamilyWise(t *testing.T) {
	res := blocksOf(map[int64]int64{2: 1031, 3: 958, 4: 11})
	h := bHist{table: "3-61", first: 2, counts: []int64{220, 275, 5}, phase: "1", measure: "time"}
	if why := chanceRejection(h, res); !strings.Contains(why, "Bonferroni") {
		t.Fatalf("p ≈ 0.0025 over %d rows should be chance, got %q", histRows, why)
	}
	h.counts = []int64{150, 340, 10} // far off: rejected family-wise (and by KS)
	if why := chanceRejection(h, res); why != "" {
		t.Fatalf("a strong rejection must not be explained, got %q", why)
	}
}

// TestVarianceChance: a variance outside ±30 % but within 3.5 standard
// errors of a sample variance is explained; one far outside is not, nor
// one whose mean disagrees.
func TestVarianceChance(t *testing.T) {
	// 2000 runs: mean 7.80, variance 0.80, kurtosis 3.1: printed 0.61 is +31 % but −3.3 SE
	res := blocksOf(map[int64]int64{5: 15, 6: 120, 7: 560, 8: 900, 9: 370, 10: 35})
	e := bEntry{table: "3-84", graph: "cube", phase: "1", measure: "time", n: 8, mean: 7.78, variance: 0.61, max: 10}
	if why := varianceChance(e, res); !strings.Contains(why, "standard errors") {
		t.Fatalf("a variance 3 SE off should be explained, got %q", why)
	}
	far := e
	far.variance = 0.45 // −6 SE
	if varianceChance(far, res) != "" {
		t.Fatal("a variance far outside must not be explained")
	}
	off := e
	off.mean = 8.2
	if varianceChance(off, res) != "" {
		t.Fatal("a mean outside |z| 3.5 must not be explained")
	}
}
