package verify

import (
	"fmt"
	"math"
	"strings"

	"github.com/flitsim/flitsim/verify/compare"
)

// bHist is one row of a histogram table: the distribution of one measure
// over 500 experiments of one variation (dimension order, shortest-path
// d-shuffle routes, queue discipline, one shared queue, merged phases, the
// input permutation).
type bHist struct {
	table, label, caption string
	first                 int64
	counts                []int64
	mean, variance        float64 // NaN when not printed
	set                   bSetup
	phase, measure        string
}

func (h bHist) histogram() compare.Histogram {
	out := compare.Histogram{}
	for i, c := range h.counts {
		if c > 0 {
			out[h.first+int64(i)] = c
		}
	}
	return out
}

func (h bHist) id(prefix string) string {
	l := strings.NewReplacer(" ", "-", "(", "", ")", "", "+", "", ",", "", ":", "", ";", "").Replace(strings.ToLower(h.label))
	if i := strings.Index(l, "-ocr"); i >= 0 {
		l = l[:i]
	}
	return fmt.Sprintf("%s-%s-%s", prefix, h.table, l)
}

// histVerdict compares a histogram row with the simulation: chi-square
// homogeneity (pooled bins) and two-sample KS at α = 0.01, and the mean by
// z against the histogram's own mean and variance.
func histVerdict(h bHist, res bResult) (string, bool, error) {
	if res.err != nil {
		return "", false, res.err
	}
	sim, s, _, err := pooled(res, h.phase, h.measure)
	if err != nil {
		return "", false, err
	}
	pubH := h.histogram()
	mean, variance := pubH.Moments()
	z := compare.Z(s, compare.Sample{N: int(pubH.Total()), Mean: mean, Variance: variance})
	chi, df, p := compare.ChiSquare(sim, pubH)
	ks := compare.KS(sim, pubH)
	m := fmt.Sprintf("%.3f / %.3f (z %+.2f); chi-square %.1f, df %d, p %.3g; KS %.2f; %d runs: %s",
		s.Mean, s.Variance, z, chi, df, p, ks, s.N, histText(sim))
	return m, p >= compare.ChiSquareAlpha && ks <= compare.KSCritical && math.Abs(z) <= compare.EntryZ, nil
}

// histText lists a histogram from its lowest value: "7: 126, 8: 1899, …".
func histText(h compare.Histogram) string {
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for v := range h {
		lo, hi = min(lo, v), max(hi, v)
	}
	var b strings.Builder
	for v := lo; v <= hi; v++ {
		if b.Len() > 0 {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "%d:%d", v, h[v])
	}
	return b.String()
}

func (h bHist) published() string {
	s := fmt.Sprintf("from %d: %v", h.first, h.counts)
	if !math.IsNaN(h.mean) {
		s += fmt.Sprintf(" (%.2f / %.2f)", h.mean, h.variance)
	}
	return s
}

func init() {
	for _, h := range brebnerHistograms {
		set := h.set
		set.experiments = brebnerExperiments
		Register(Claim{
			ID: h.id("brebner"), Source: brebnerSource + h.table, Tier: TierFull,
			Claim:     fmt.Sprintf("%s: %s (phase %s)", h.caption, h.label, h.phase),
			Published: h.published(), Tolerance: "chi-square p ≥ 0.01 and KS ≤ 1.63 (α = 0.01); mean |z| ≤ 3.5",
			Measure: func() (string, bool, error) { return histVerdict(h, brebnerRun(set)) },
			Explain: func() string { return chanceRejection(h, brebnerRun(set)) },
		})
	}
}
