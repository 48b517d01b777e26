package network

import (
	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/network/stats"
)

// batches is the number of time batches for the batch-means interval.
const batches = 20

// collector gathers a run's statistics. Packets generated in the measurement
// window [start, end) are "measured": their latencies are recorded when they
// are delivered, whenever that is.
type collector struct {
	start, end int64

	lat, net     stats.Histogram
	latBM, netBM *stats.BatchMeans
	hops         int64

	genPk, genFl  int64
	delPk, delFl  int64
	measured      int64
	measuredDone  int64
	winGen, winEj int64
}

func newCollector(start, end int64) *collector {
	return &collector{
		start: start, end: end,
		latBM: stats.NewBatchMeans(start, end, batches),
		netBM: stats.NewBatchMeans(start, end, batches),
	}
}

func (c *collector) inWindow(t int64) bool { return t >= c.start && t < c.end }

func (c *collector) generated(w *flit.Worm, now int64) {
	c.genPk++
	c.genFl += int64(w.Len)
	if c.inWindow(now) {
		w.Measured = true
		c.measured++
		c.winGen += int64(w.Len)
	}
}

// ejected counts a flit that crossed the ejection link in cycle arrive-1.
func (c *collector) ejected(arrive int64) {
	c.delFl++
	if c.inWindow(arrive - 1) {
		c.winEj++
	}
}

func (c *collector) delivered(w *flit.Worm, arrive int64) {
	c.delPk++
	if !w.Measured {
		return
	}
	c.measuredDone++
	l := arrive - w.GenCycle
	n := arrive - w.InjCycle
	c.lat.Add(l)
	c.net.Add(n)
	c.latBM.Add(w.GenCycle, float64(l))
	c.netBM.Add(w.GenCycle, float64(n))
	c.hops += int64(w.Hops)
}

func summary(h *stats.Histogram, bm *stats.BatchMeans) Summary {
	if h.Count() == 0 {
		return Summary{}
	}
	return Summary{
		Count: h.Count(),
		Mean:  h.Mean(),
		P50:   h.Quantile(0.50),
		P95:   h.Quantile(0.95),
		P99:   h.Quantile(0.99),
		Max:   float64(h.Max()),
		CI95:  bm.CI95(),
	}
}
