package verify

import (
	"fmt"
	"math"

	"github.com/flitsim/flitsim/verify/compare"
)

// Reasons, computed from the measurements, why an entry outside the
// protocol's tolerance is a deviation and not a fault of the router.

// outlierMax explains an entry that misses on its maximum alone: the mean
// agrees (|z| within the entry limit), the variance agrees, and the
// thesis's maximum lies above what the simulation's blocks of 500 reach.
// The maximum of 500 is not a stable statistic (digest §5.5); if one of
// the thesis's 500 experiments sat at its printed maximum, it adds
// (max − mean)²/500 to the thesis's variance, and the simulation's variance
// plus that must still agree with the printed one — the outlier story must
// fit the printed variance too, or no reason is given.
func outlierMax(e bEntry, res bResult) string {
	if res.err != nil {
		return ""
	}
	hist, sim, maxima, err := pooled(res, e.phase, e.measure)
	if err != nil {
		return ""
	}
	a := agree(hist, sim, thesisTarget(e)) // (maxOK when the block rule does not apply)
	z, med := a.z, a.medMax
	if math.Abs(z) > entryZLimit(e) || !a.varOK || a.maxOK {
		return ""
	}
	if e.max <= med {
		return ""
	}
	lift := (float64(e.max) - e.mean) * (float64(e.max) - e.mean) / compare.BlockSize
	if ok, _ := compare.VarianceOK(sim.Variance+lift, e.variance); !ok {
		return ""
	}
	return fmt.Sprintf("only the maximum misses: the thesis's %d is %.1f standard deviations above its mean, above the median block maximum %d of the simulation (blocks %v) while the mean (z %+.2f) and variance agree; "+
		"one experiment at %d among the thesis's 500 adds %.3f to its variance, and %.3f + %.3f = %.3f against the printed %.2f — a single outlying experiment, and the maximum of 500 is not a stable statistic (digest §5.5)",
		e.max, (float64(e.max)-e.mean)/math.Sqrt(e.variance), med, maxima, z, e.max, lift, sim.Variance, lift, sim.Variance+lift, e.variance)
}

// histRows is the number of histogram rows, for the family-wise view of
// their chi-square tests.
var histRows = len(brebnerHistograms)

// chanceRejection explains a histogram row that the chi-square test alone
// rejects at α = 0.01 while KS accepts and the mean agrees: over histRows
// tests about histRows·α such rejections come by chance, so it is a
// deviation when the rejection does not survive the family-wise
// (Bonferroni) correction, p·histRows ≥ α.
func chanceRejection(h bHist, res bResult) string {
	if res.err != nil {
		return ""
	}
	sim, s, _, err := pooled(res, h.phase, h.measure)
	if err != nil {
		return ""
	}
	pubH := h.histogram()
	mean, variance := pubH.Moments()
	z := compare.Z(s, compare.Sample{N: int(pubH.Total()), Mean: mean, Variance: variance})
	_, _, p := compare.ChiSquare(sim, pubH)
	if compare.KS(sim, pubH) > compare.KSCritical || math.Abs(z) > compare.EntryZ || p >= compare.ChiSquareAlpha {
		return ""
	}
	if adj := p * float64(histRows); adj < compare.ChiSquareAlpha {
		return ""
	}
	return fmt.Sprintf("only the chi-square test rejects (p %.3g < %.2f) while KS accepts and the mean agrees (z %+.2f); over the %d histogram rows about %.1f such rejections come by chance, and corrected for them (Bonferroni, p·%d = %.2f) it is not significant",
		p, compare.ChiSquareAlpha, z, histRows, float64(histRows)*compare.ChiSquareAlpha, histRows, p*float64(histRows))
}

// varianceChance explains an entry that misses on its variance alone
// (outside ±30 %, the digest's stand-in for about 3–4 standard errors)
// when the variances differ by at most entryZLimit standard errors of a
// sample variance — computed from the simulated distribution's kurtosis,
// for the thesis's 500 and the simulation's runs — with the mean and the
// maximum agreeing: the same |z| rule the means are held to.
func varianceChance(e bEntry, res bResult) string {
	if res.err != nil {
		return ""
	}
	hist, sim, _, err := pooled(res, e.phase, e.measure)
	if err != nil || sim.Variance <= 0 {
		return ""
	}
	a := agree(hist, sim, thesisTarget(e))
	z := a.z
	if a.varOK || a.varSkipped || !a.maxOK || math.Abs(z) > entryZLimit(e) {
		return ""
	}
	var m4 float64
	for v, c := range hist {
		d := float64(v) - sim.Mean
		m4 += d * d * d * d * float64(c)
	}
	kurt := m4 / float64(sim.N) / (sim.Variance * sim.Variance)
	rel := func(n float64) float64 { return (kurt - (n-3)/(n-1)) / n } // Var(s²)/σ⁴
	se := sim.Variance * math.Sqrt(rel(compare.BlockSize)+rel(float64(sim.N)))
	zv := (e.variance - sim.Variance) / se
	if math.Abs(zv) > entryZLimit(e) {
		return ""
	}
	return fmt.Sprintf("only the variance misses the flat ±30 %%: %.2f against the simulation's %.3f is %+.2f standard errors of a sample variance (kurtosis %.2f, 500 and %d runs), within the |z| ≤ %.1f the means are held to; mean (z %+.2f) and maximum agree",
		e.variance, sim.Variance, zv, kurt, sim.N, entryZLimit(e), z)
}

// explainEntry is the first reason that applies, or "".
func explainEntry(e bEntry, res bResult) string {
	for _, why := range []func(bEntry, bResult) string{agreesWithReference, outlierMax, varianceChance} {
		if r := why(e, res); r != "" {
			return r
		}
	}
	return ""
}
