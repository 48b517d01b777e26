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
	start, end int64 // (read by the lanes' sinks; the counts below change with every packet)
	_          [64]byte

	lat, net     stats.Histogram
	latBM, netBM *stats.BatchMeans
	hops, hopN   int64 // switches crossed by measured packets, and their number

	// perMessage: latency is measured per software multicast message (see
	// swmcast.go), not per packet; the measured counts are messages.
	perMessage bool
	// onDelivered sees every delivered packet before the statistics do
	// (the software multicast driver).
	onDelivered func(w *flit.Worm, arrive int64)

	// keep lists the first maxDeliveries packets delivered (trace and
	// inline-packet runs, where each packet matters).
	keep       bool
	deliveries []Delivery

	genPk, genFl  int64
	genOff        int64 // flits offered over the whole run (a multicast's once per destination)
	delPk, delFl  int64
	measured      int64
	measuredDone  int64
	winGen, winEj int64 // (delFl and winEj are added up from the lanes' counts in settle)
}

func newCollector(start, end int64) *collector {
	return &collector{
		start: start, end: end,
		latBM: stats.NewBatchMeans(start, end, batches),
		netBM: stats.NewBatchMeans(start, end, batches),
	}
}

func (c *collector) inWindow(t int64) bool { return t >= c.start && t < c.end }

// generated counts a packet queued at its source. Offered flits count once
// per destination (a multicast worm's flits reach every destination), like
// the ejected flits they are compared with and like Chiang's system load.
func (c *collector) generated(w *flit.Worm, now int64) {
	c.genPk++
	c.genFl += int64(w.Len)
	off := int64(w.Len) * int64(max(w.Dests, 1))
	c.genOff += off
	if c.inWindow(now) {
		c.winGen += off
		if !c.perMessage {
			w.Measured = true
			c.measured++
		}
	}
}

// delivered counts a packet whose tail reached its last destination.
func (c *collector) delivered(w *flit.Worm, arrive int64) {
	c.delPk++
	if c.onDelivered != nil {
		c.onDelivered(w, arrive)
	}
	if w.Measured {
		c.done(w.GenCycle, w.InjCycle, int64(w.Hops), arrive)
	}
}

// done records a measured packet generated at gen, injected at inj, that
// crossed hops switches and was delivered at arrive.
func (c *collector) done(gen, inj, hops, arrive int64) {
	c.measuredDone++
	c.record(gen, inj, arrive)
	c.hops += hops
	c.hopN++
}

// maxDeliveries bounds the deliveries a result lists.
const maxDeliveries = 100

func (c *collector) keepDelivery(w *flit.Worm, dests []int32, arrive int64) {
	if len(c.deliveries) < maxDeliveries {
		c.deliveries = append(c.deliveries, Delivery{ID: w.ID, Src: w.Src, Dst: dests,
			Generated: w.GenCycle, Delivered: arrive, Latency: arrive - w.GenCycle})
	}
}

// record adds one measured latency: generated at gen, first flit injected
// at inj, done at end.
func (c *collector) record(gen, inj, end int64) {
	l := end - gen
	n := end - inj
	c.lat.Add(l)
	c.net.Add(n)
	c.latBM.Add(gen, float64(l))
	c.netBM.Add(gen, float64(n))
}

// message counts a software multicast message created at cycle now and
// reports whether it is measured.
func (c *collector) message(now int64) bool {
	if !c.inWindow(now) {
		return false
	}
	c.measured++
	return true
}

// messageDone records a measured message: generated at gen, its first
// unicast injected at inj, its last destination done at end; hops and n are
// the switches its unicasts crossed and their number.
func (c *collector) messageDone(gen, inj, end, hops, n int64) {
	c.measuredDone++
	c.record(gen, inj, end)
	c.hops += hops
	c.hopN += n
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
