// Package compare is the protocol by which simulated batch experiments are
// compared with a published table of repeated experiments (Brebner 1983,
// digest §5.5): means by a two-sample z, variances by a relative tolerance,
// maxima by the block rule, histograms by chi-square homogeneity or the
// two-sample Kolmogorov–Smirnov statistic, and a family rule over many
// entries. Only distributions are compared: the published runs cannot be
// replayed value for value.
package compare

import (
	"math"
	"slices"
	"sort"
)

// Sample summarises one side of a comparison: N experiments with their
// mean and (sample) variance.
type Sample struct {
	N        int
	Mean     float64
	Variance float64
}

// Z is the two-sample z of the means, (sim − pub) / √(v_pub/n_pub +
// v_sim/n_sim). With both variances 0 it is 0 for equal means and ±Inf
// otherwise.
func Z(sim, pub Sample) float64 {
	se := math.Sqrt(pub.Variance/float64(pub.N) + sim.Variance/float64(sim.N))
	d := sim.Mean - pub.Mean
	if se == 0 {
		switch {
		case math.Abs(d) < 1e-12:
			return 0
		case d > 0:
			return math.Inf(1)
		}
		return math.Inf(-1)
	}
	return d / se
}

// Thresholds of the protocol.
const (
	EntryZ         = 3.5  // per entry: |z| ≤ 3.5 (two-sided p ≈ 5·10⁻⁴)
	FamilyZ        = 2.0  // per family: at most FamilyShare of entries over it
	FamilyShare    = 0.12 // …
	FamilyWorst    = 4.0  // and none outside the exclusions over this
	VarianceTol    = 0.30 // variances within ±30 % …
	VarianceFloor  = 0.05 // … unless the published variance is at most this (near-degenerate)
	KSCritical     = 1.63 // D·√(nm/(n+m)) at α = 0.01
	ChiSquareAlpha = 0.01 // homogeneity rejected below this p-value
	BlockSize      = 500  // the published sample size: maxima are compared per block of it
)

// VarianceOK reports whether the simulated variance is within ±30 % of the
// published one; skipped is true (and ok true) when the published variance
// is at most 0.05, too degenerate to compare.
func VarianceOK(sim, pub float64) (ok, skipped bool) {
	if pub <= VarianceFloor {
		return true, true
	}
	return math.Abs(sim-pub) <= VarianceTol*pub, false
}

// MaxOK is the block rule for a published maximum: with the simulation run
// in blocks of the published sample size, the published maximum must occur
// as a block maximum in at least 1 % of the blocks, or lie within ±1 of the
// median block maximum.
func MaxOK(blockMax []int64, pub int64) bool {
	if len(blockMax) == 0 {
		return false
	}
	hits := 0
	for _, m := range blockMax {
		if m == pub {
			hits++
		}
	}
	if float64(hits) >= 0.01*float64(len(blockMax)) && hits > 0 {
		return true
	}
	s := slices.Clone(blockMax)
	slices.Sort(s)
	var med float64
	if n := len(s); n%2 == 1 {
		med = float64(s[n/2])
	} else {
		med = float64(s[n/2-1]+s[n/2]) / 2
	}
	return math.Abs(float64(pub)-med) <= 1
}

// Histogram counts experiments by observed value.
type Histogram map[int64]int64

// Total is the number of experiments counted.
func (h Histogram) Total() int64 {
	var n int64
	for _, c := range h {
		n += c
	}
	return n
}

// Moments are the histogram's mean and sample variance (n−1 divisor).
func (h Histogram) Moments() (mean, variance float64) {
	var n, sum, ss float64
	for v, c := range h {
		n += float64(c)
		sum += float64(v) * float64(c)
	}
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	mean = sum / n
	for v, c := range h {
		ss += (float64(v) - mean) * (float64(v) - mean) * float64(c)
	}
	if n < 2 {
		return mean, math.NaN()
	}
	return mean, ss / (n - 1)
}

func values(a, b Histogram) []int64 {
	var vs []int64
	for v := range a {
		vs = append(vs, v)
	}
	for v := range b {
		if _, ok := a[v]; !ok {
			vs = append(vs, v)
		}
	}
	sort.Slice(vs, func(i, j int) bool { return vs[i] < vs[j] })
	return vs
}

// KS is the two-sample Kolmogorov–Smirnov statistic D·√(nm/(n+m)) of two
// histograms (reject a common distribution above KSCritical).
func KS(a, b Histogram) float64 {
	na, nb := float64(a.Total()), float64(b.Total())
	if na == 0 || nb == 0 {
		return math.Inf(1)
	}
	var ca, cb, d float64
	for _, v := range values(a, b) {
		ca += float64(a[v])
		cb += float64(b[v])
		d = max(d, math.Abs(ca/na-cb/nb))
	}
	return d * math.Sqrt(na*nb/(na+nb))
}

// ChiSquare is the chi-square homogeneity test of two histograms, with
// adjacent values pooled (in value order) until every bin's expected count
// is at least 5 in both samples. It returns the statistic, the degrees of
// freedom (bins − 1) and the p-value; with one bin left there is nothing to
// test (df 0, p 1).
func ChiSquare(a, b Histogram) (chi2 float64, df int, p float64) {
	na, nb := float64(a.Total()), float64(b.Total())
	if na == 0 || nb == 0 {
		return math.Inf(1), 0, 0
	}
	n := na + nb
	type bin struct{ a, b float64 }
	var bins []bin
	var cur bin
	expOK := func(x bin) bool { t := x.a + x.b; return t*na/n >= 5 && t*nb/n >= 5 }
	for _, v := range values(a, b) {
		cur.a += float64(a[v])
		cur.b += float64(b[v])
		if expOK(cur) {
			bins, cur = append(bins, cur), bin{}
		}
	}
	if cur.a+cur.b > 0 { // (the tail joins the last full bin)
		if len(bins) == 0 {
			bins = append(bins, cur)
		} else {
			bins[len(bins)-1].a += cur.a
			bins[len(bins)-1].b += cur.b
		}
	}
	if len(bins) < 2 {
		return 0, 0, 1
	}
	for _, x := range bins {
		t := x.a + x.b
		ea, eb := t*na/n, t*nb/n
		chi2 += (x.a-ea)*(x.a-ea)/ea + (x.b-eb)*(x.b-eb)/eb
	}
	df = len(bins) - 1
	return chi2, df, ChiSquareSurvival(chi2, df)
}

// ChiSquareSurvival is P(X ≥ x) for X chi-square with df degrees of freedom
// (the regularised upper incomplete gamma Q(df/2, x/2)).
func ChiSquareSurvival(x float64, df int) float64 {
	if x <= 0 {
		return 1
	}
	return gammaQ(float64(df)/2, x/2)
}

// gammaQ is the regularised upper incomplete gamma function: a series for
// x < a+1, otherwise a continued fraction (Numerical Recipes §6.2).
func gammaQ(a, x float64) float64 {
	lg, _ := math.Lgamma(a)
	if x < a+1 {
		sum, del, ap := 1/a, 1/a, a
		for range 500 {
			ap++
			del *= x / ap
			sum += del
			if math.Abs(del) < math.Abs(sum)*1e-15 {
				break
			}
		}
		return 1 - sum*math.Exp(-x+a*math.Log(x)-lg)
	}
	const tiny = 1e-300
	b := x + 1 - a
	c, d := 1/tiny, 1/b
	h := d
	for i := 1; i < 500; i++ {
		an := -float64(i) * (float64(i) - a)
		b += 2
		d = an*d + b
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = b + an/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < 1e-15 {
			break
		}
	}
	return math.Exp(-x+a*math.Log(x)-lg) * h
}

// Entry is one compared table entry's z and whether the digest excludes it
// from pass/fail (§8.1).
type Entry struct {
	Z        float64
	Excluded bool
}

// FamilyResult is the family rule's verdict over a table family.
type FamilyResult struct {
	Entries  int     // entries counted (excluded ones left out)
	OverTwo  int     // of them with |z| > 2
	Share    float64 // OverTwo / Entries
	Worst    float64 // the largest |z| among them
	Excluded int     // entries left out
	OK       bool    // Share ≤ 12 % and Worst ≤ 4
}

// Family applies the family rule: at most 12 % of the entries over |z| 2
// and none over 4, the excluded entries left out of both.
func Family(es []Entry) FamilyResult {
	var r FamilyResult
	for _, e := range es {
		if e.Excluded {
			r.Excluded++
			continue
		}
		r.Entries++
		a := math.Abs(e.Z)
		if a > FamilyZ {
			r.OverTwo++
		}
		r.Worst = max(r.Worst, a)
	}
	if r.Entries > 0 {
		r.Share = float64(r.OverTwo) / float64(r.Entries)
	}
	r.OK = r.Entries > 0 && r.Share <= FamilyShare && r.Worst <= FamilyWorst
	return r
}

// BlockMax is the distribution of the maximum of a block of size draws
// from the histogram's distribution (P(max ≤ v) = F(v)^size): the block
// rule with every possible block, not only the few a run makes. It
// returns the probability that the block maximum is exactly v and the
// median block maximum.
func BlockMax(h Histogram, size int, v int64) (pAt float64, median int64) {
	n := float64(h.Total())
	vs := values(h, nil)
	if n == 0 || len(vs) == 0 {
		return 0, 0
	}
	var cum, prev float64
	median = vs[len(vs)-1]
	found := false
	for _, x := range vs {
		cum += float64(h[x])
		p := math.Pow(min(cum/n, 1), float64(size))
		if x == v {
			pAt = p - prev
		}
		if !found && p >= 0.5 {
			median, found = x, true
		}
		prev = p
	}
	return pAt, median
}

// MaxOKHistogram is the block rule (MaxOK) on the block-maximum
// distribution of the simulated histogram: the published maximum is a
// block maximum with probability ≥ 1 %, or within ±1 of the median block
// maximum.
func MaxOKHistogram(h Histogram, pub int64) bool { return MaxOKBlocks(h, BlockSize, pub) }

// MaxOKBlocks is the block rule for a maximum over size experiments (a
// reference run's trials, say, rather than the published 500).
func MaxOKBlocks(h Histogram, size int, pub int64) bool {
	p, med := BlockMax(h, size, pub)
	return p >= 0.01 || math.Abs(float64(pub-med)) <= 1
}
