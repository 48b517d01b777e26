package stats

import (
	"fmt"
	"math"
	"math/bits"
)

// BatchMeans estimates a steady-state mean with a 95% confidence interval by
// the method of batch means: the measurement window [start, end) is split
// into equal time batches (batch i covers cycles from
// start + ⌈i·(end−start)/B⌉), each sample goes into the batch of its time,
// and the batch means are treated as independent, normally distributed
// observations.
type BatchMeans struct {
	start, end int64
	sum        []float64
	n          []int64
}

// NewBatchMeans splits [start, end) into batches equal time batches
// (batches < 1 counts as 1; an empty window takes no samples).
func NewBatchMeans(start, end int64, batches int) *BatchMeans {
	batches = max(batches, 1)
	return &BatchMeans{start: start, end: end, sum: make([]float64, batches), n: make([]int64, batches)}
}

// Add records sample v (e.g. a packet latency) taken at time t (e.g. its
// generation cycle). Samples with t outside [start, end) are ignored.
func (b *BatchMeans) Add(t int64, v float64) {
	if t < b.start || t >= b.end {
		return
	}
	// i = ⌊(t−start)·B/(end−start)⌋ without overflow; hi < end−start since
	// t−start < end−start.
	hi, lo := bits.Mul64(uint64(t-b.start), uint64(len(b.sum)))
	i, _ := bits.Div64(hi, lo, uint64(b.end-b.start))
	b.sum[i] += v
	b.n[i]++
}

// Count is the number of samples taken.
func (b *BatchMeans) Count() int64 {
	var n int64
	for _, c := range b.n {
		n += c
	}
	return n
}

// Mean is the mean of all samples taken (each sample weighted equally), 0 if
// there are none.
func (b *BatchMeans) Mean() float64 {
	var s float64
	var n int64
	for i, c := range b.n {
		s += b.sum[i]
		n += c
	}
	if n == 0 {
		return 0
	}
	return s / float64(n)
}

// Batches is the number of batches that took a sample.
func (b *BatchMeans) Batches() int {
	k := 0
	for _, c := range b.n {
		if c > 0 {
			k++
		}
	}
	return k
}

// Of is the number of batches the window is split into.
func (b *BatchMeans) Of() int { return len(b.n) }

// CI95 is the half-width of the 95% confidence interval of the mean,
// MeanCI95 of the means of the batches that took a sample: NaN when fewer
// than MinBatches did (TooFewBatches says why).
func (b *BatchMeans) CI95() float64 {
	var means []float64
	for i, c := range b.n {
		if c > 0 {
			means = append(means, b.sum[i]/float64(c))
		}
	}
	return MeanCI95(means)
}

// MinBatches is the fewest batch means a confidence interval is computed
// from. With fewer, the batches are too long for the window to show whether
// their means are independent and normal, and the interval's own width is
// too uncertain to mean anything (t_{0.975,1} = 12.7; batch-means practice,
// e.g. Law & Kelton, asks for 10 to 30 batches). A run stopped early, or a
// batch of packets all made at cycle 0, has fewer.
const MinBatches = 10

// MeanCI95 is the half-width t_{0.975, k−1} · s / √k of the 95% confidence
// interval of the mean of k batch means xs, s their sample standard
// deviation; NaN (no interval) when k < MinBatches. It is the one rule for
// every batch-means interval a run reports.
func MeanCI95(xs []float64) float64 {
	k := len(xs)
	if k < MinBatches {
		return math.NaN()
	}
	var m float64
	for _, x := range xs {
		m += x
	}
	m /= float64(k)
	var ss float64
	for _, x := range xs {
		ss += (x - m) * (x - m)
	}
	sd := math.Sqrt(ss / float64(k-1))
	return TQuantile975(k-1) * sd / math.Sqrt(float64(k))
}

// TooFewBatches says why there is no interval when only k of the window's
// of batches took a sample, e.g. "2 of 20 batches measured, at least 10
// needed"; "" when k ≥ MinBatches.
func TooFewBatches(k, of int) string {
	if k >= MinBatches {
		return ""
	}
	return fmt.Sprintf("%d of %d batches measured, at least %d needed", k, of, MinBatches)
}

// t975 is t_{0.975, df} for df = 1..30.
var t975 = [...]float64{
	12.7062047, 4.3026527, 3.1824463, 2.7764451, 2.5705818,
	2.4469119, 2.3646243, 2.3060041, 2.2621572, 2.2281389,
	2.2009852, 2.1788128, 2.1603687, 2.1447867, 2.1314495,
	2.1199053, 2.1098156, 2.1009220, 2.0930241, 2.0859634,
	2.0796138, 2.0738731, 2.0686576, 2.0638986, 2.0595386,
	2.0555294, 2.0518305, 2.0484071, 2.0452296, 2.0422725,
}

// TQuantile975 is the 0.975 quantile of Student's t distribution with df
// degrees of freedom (the two-sided 95% critical value): a table to 7
// decimals for df ≤ 30, and beyond that the Cornish–Fisher expansion about
// the normal quantile 1.959964, accurate to better than 1e-6 there
// (df = 60: 2.000298, df = 120: 1.979930). It is NaN for df < 1.
func TQuantile975(df int) float64 {
	if df < 1 {
		return math.NaN()
	}
	if df <= len(t975) {
		return t975[df-1]
	}
	const z = 1.959963984540054
	z2 := z * z
	v := float64(df)
	g1 := (z2 + 1) * z / 4
	g2 := ((5*z2+16)*z2 + 3) * z / 96
	g3 := (((3*z2+19)*z2+17)*z2 - 15) * z / 384
	g4 := ((((79*z2+776)*z2+1482)*z2-1920)*z2 - 945) * z / 92160
	return z + g1/v + g2/(v*v) + g3/(v*v*v) + g4/(v*v*v*v)
}
