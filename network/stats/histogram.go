// Package stats holds the simulator's measurement helpers: an exact latency
// histogram and batch-means confidence intervals.
package stats

import (
	"math"
	"slices"
)

// denseLimit is the number of dense bins beyond which values go to a sparse
// overflow map, so one huge sample cannot allocate a huge slice.
const denseLimit = 1 << 20

// Histogram counts non-negative int64 samples (latencies in cycles) exactly.
// The zero value is ready to use. Add does not allocate once the dense bins
// cover the largest value (1024 bins at first, doubled as needed up to 2^20;
// values from 2^20 up are kept exactly in a map).
type Histogram struct {
	bins  []int64 // bins[v] = count of v, v < len(bins)
	over  map[int64]int64
	count int64
	sum   int64   // of dense values
	osum  float64 // of overflow values
	max   int64
}

// NewHistogram returns an empty histogram.
func NewHistogram() *Histogram { return &Histogram{bins: make([]int64, 1024)} }

// Add records sample v. It panics if v < 0.
func (h *Histogram) Add(v int64) {
	if v < 0 {
		panic("stats: negative histogram sample")
	}
	if v >= int64(len(h.bins)) {
		h.grow(v)
	}
	if v < int64(len(h.bins)) {
		h.bins[v]++
		h.sum += v
	} else {
		if h.over == nil {
			h.over = make(map[int64]int64)
		}
		h.over[v]++
		h.osum += float64(v)
	}
	h.count++
	if v > h.max {
		h.max = v
	}
}

func (h *Histogram) grow(v int64) {
	if len(h.bins) >= denseLimit {
		return
	}
	n := max(len(h.bins), 1024)
	for int64(n) <= v && n < denseLimit {
		n *= 2
	}
	h.bins = append(h.bins, make([]int64, n-len(h.bins))...)
}

// Count is the number of samples.
func (h *Histogram) Count() int64 { return h.count }

// Mean is the mean sample, 0 if there are none.
func (h *Histogram) Mean() float64 {
	if h.count == 0 {
		return 0
	}
	return (float64(h.sum) + h.osum) / float64(h.count)
}

// Max is the largest sample, 0 if there are none.
func (h *Histogram) Max() int64 { return h.max }

// Quantile is the nearest-rank q-quantile: the smallest sample value v such
// that at least ⌈q·Count⌉ samples are ≤ v (q ≤ 0 gives the minimum, q ≥ 1
// the maximum). It is 0 if there are no samples.
func (h *Histogram) Quantile(q float64) float64 {
	if h.count == 0 {
		return 0
	}
	x := q * float64(h.count)
	// Ceil, forgiving float noise such as 0.07·100 = 7.000000000000001.
	rank := int64(math.Ceil(x - 1e-9*math.Max(1, x)))
	if !(q > 0) || rank < 1 { // also NaN
		rank = 1
	}
	if rank > h.count {
		rank = h.count
	}
	var cum int64
	top := min(h.max, int64(len(h.bins))-1)
	for v := int64(0); v <= top; v++ {
		cum += h.bins[v]
		if cum >= rank {
			return float64(v)
		}
	}
	keys := make([]int64, 0, len(h.over))
	for k := range h.over {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		cum += h.over[k]
		if cum >= rank {
			return float64(k)
		}
	}
	return float64(h.max)
}

// Reset empties the histogram, keeping its bins.
func (h *Histogram) Reset() {
	clear(h.bins[:min(int64(len(h.bins)), h.max+1)])
	h.over = nil
	h.count, h.sum, h.osum, h.max = 0, 0, 0, 0
}

// Bins calls f for every value with samples, in ascending order, with its
// count.
func (h *Histogram) Bins(f func(v, count int64)) {
	top := min(h.max, int64(len(h.bins))-1)
	for v := int64(0); v <= top; v++ {
		if h.bins[v] > 0 {
			f(v, h.bins[v])
		}
	}
	keys := make([]int64, 0, len(h.over))
	for k := range h.over {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		f(k, h.over[k])
	}
}
