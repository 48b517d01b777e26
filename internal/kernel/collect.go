package kernel

import (
	"encoding/json"
	"math"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/network/stats"
)

// Batches is the number of time batches for the batch-means intervals.
const Batches = 20

const batches = Batches

// Stats gathers a run's statistics. Packets generated in the measurement
// window [start, end) are "measured": their latencies are recorded when they
// are delivered, whenever that is.
type Stats struct {
	start, end int64 // (read by the lanes' sinks; the counts below change with every packet)
	_          [64]byte

	lat, net     stats.Histogram
	latBM, netBM *stats.BatchMeans
	hops, hopN   int64 // switches crossed by measured packets, and their number

	// perMessage: latency is measured per software multicast message (see
	// network/swmcast.go), not per packet; the measured counts are messages.
	perMessage bool
	// onDelivered sees every delivered packet before the statistics do
	// (the software multicast driver).
	onDelivered func(w *flit.Worm, arrive int64)

	// keep lists the first maxDeliveries packets delivered (trace and
	// inline-packet runs, where each packet matters).
	keep       bool
	deliveries []Delivery

	// countOnly: delivered packets are counted, their latencies and hops
	// not recorded (RestartIdle: a batch experiment's outcome reads counts)
	countOnly bool

	detail *Detail // per terminal and pair (run.per_node, run.per_pair), or nil
	// slow: keep, onDelivered or detail needs the worm's record of every
	// delivered packet (deliverSunk reads only the lane's copy otherwise).
	slow bool

	genPk, genFl  int64
	genOff        int64 // flits offered over the whole run (a multicast's once per destination)
	delPk, delFl  int64
	measured      int64
	measuredDone  int64
	dropPk        int64 // packets dropped (queue.full: drop), measured or not
	measuredDrop  int64 // measured packets dropped
	winGen, winEj int64 // (delFl and winEj are added up from the lanes' counts in settle)
}

func newStats(start, end int64) *Stats {
	return &Stats{
		start: start, end: end,
		latBM: stats.NewBatchMeans(start, end, batches),
		netBM: stats.NewBatchMeans(start, end, batches),
	}
}

// CollectStats starts the run's statistics: packets generated in cycles
// [start, end) are measured; with keep, the first deliveries are listed.
func (k *Kernel) CollectStats(start, end int64, keep bool) *Stats {
	k.stats = newStats(start, end)
	k.stats.keep, k.stats.slow = keep, keep
	return k.stats
}

// Stats is the run's statistics (nil before CollectStats).
func (k *Kernel) Stats() *Stats { return k.stats }

// Counts are a run's packet and flit totals.
type Counts struct {
	GeneratedPackets, GeneratedFlits int64
	// Offered counts the flits generated over the whole run, a
	// multicast's once per destination.
	Offered                          int64
	DeliveredPackets, DeliveredFlits int64
	// Measured packets (or software multicast messages) were generated in
	// the window; MeasuredDone of them are delivered.
	Measured, MeasuredDone int64
	// WindowOffered counts the flits generated in the window (once per
	// destination), WindowEjected those ejected in it.
	WindowOffered, WindowEjected int64
	// Hops is the switches crossed by measured packets, HopCount their number.
	Hops, HopCount int64
	// Dropped packets (queue.full: drop), MeasuredDropped of them measured.
	Dropped, MeasuredDropped int64
}

// Counts returns the totals so far.
func (c *Stats) Counts() Counts {
	return Counts{c.genPk, c.genFl, c.genOff, c.delPk, c.delFl, c.measured, c.measuredDone, c.winGen, c.winEj, c.hops, c.hopN, c.dropPk, c.measuredDrop}
}

// Window is the flits offered and ejected in the measurement window so far
// (Counts' WindowOffered and WindowEjected, read every cycle).
func (c *Stats) Window() (offered, ejected int64) { return c.winGen, c.winEj }

// Latency summarises the measured latencies: from generation, and from
// injection (network latency).
func (c *Stats) Latency() (total, network Summary) {
	return summary(&c.lat, c.latBM), summary(&c.net, c.netBM)
}

// Histogram is the exact histogram of the measured latencies (from
// generation); read it, do not change it.
func (c *Stats) Histogram() *stats.Histogram { return &c.lat }

// Deliveries lists the first deliveries (with keep).
func (c *Stats) Deliveries() []Delivery { return c.deliveries }

// PerMessage measures latency per software multicast message rather than
// per packet (Message, MessageDone); onDelivered sees every delivered
// packet first.
func (c *Stats) PerMessage(onDelivered func(w *flit.Worm, arrive int64)) {
	c.perMessage, c.onDelivered = true, onDelivered
	c.slow = c.slow || onDelivered != nil
}

// OnDelivered lets f see every delivered packet before the statistics do
// (a task workload waiting for its multicasts).
func (c *Stats) OnDelivered(f func(w *flit.Worm, arrive int64)) {
	c.onDelivered = f
	c.slow = true
}

func (c *Stats) inWindow(t int64) bool { return t >= c.start && t < c.end }

// generated counts a packet queued at its source. Offered flits count once
// per destination (a multicast worm's flits reach every destination), like
// the ejected flits they are compared with and like Chiang's system load.
func (c *Stats) generated(w *flit.Worm, now int64) {
	c.genPk++
	c.genFl += int64(w.Len)
	off := int64(w.Len) * int64(max(w.Dests, 1))
	c.genOff += off
	if c.inWindow(now) {
		c.winGen += off
		if !c.perMessage {
			w.Measured = true
			c.measured++
			if c.detail != nil {
				c.detail.sent(w, off)
			}
		}
	}
}

// generatedMeasured is generated for a packet measured whatever the cycle
// (Kernel.EnqueueMeasured).
func (c *Stats) generatedMeasured(w *flit.Worm, now int64) {
	c.generated(w, now)
	if !w.Measured {
		w.Measured = true
		c.measured++
	}
}

// delivered counts a packet whose tail reached its last destination.
func (c *Stats) delivered(w *flit.Worm, arrive int64) {
	c.delPk++
	if c.onDelivered != nil {
		c.onDelivered(w, arrive)
	}
	if w.Measured {
		c.done(w.GenCycle, w.InjCycle, int64(w.Hops), arrive)
		if c.detail != nil {
			c.detail.done(w, arrive-w.GenCycle)
		}
	}
}

// done records a measured packet generated at gen, injected at inj, that
// crossed hops switches and was delivered at arrive.
func (c *Stats) done(gen, inj, hops, arrive int64) {
	c.measuredDone++
	if c.countOnly {
		return
	}
	c.record(gen, inj, arrive)
	c.hops += hops
	c.hopN++
}

// maxDeliveries bounds the deliveries a result lists.
const maxDeliveries = 100

func (c *Stats) keepDelivery(w *flit.Worm, dests []int32, arrive int64) {
	if len(c.deliveries) < maxDeliveries {
		c.deliveries = append(c.deliveries, Delivery{ID: w.ID, Src: w.Src, Dst: dests,
			Generated: w.GenCycle, Delivered: arrive, Latency: arrive - w.GenCycle})
	}
}

// record adds one measured latency: generated at gen, first flit injected
// at inj, done at end.
func (c *Stats) record(gen, inj, end int64) {
	l := end - gen
	n := end - inj
	c.lat.Add(l)
	c.net.Add(n)
	c.latBM.Add(gen, float64(l))
	c.netBM.Add(gen, float64(n))
}

// Message counts a software multicast message created at cycle now and
// reports whether it is measured.
func (c *Stats) Message(now int64) bool {
	if !c.inWindow(now) {
		return false
	}
	c.measured++
	return true
}

// MessageDone records a measured message: generated at gen, its first
// unicast injected at inj, its last destination done at end; hops and n are
// the switches its unicasts crossed and their number.
func (c *Stats) MessageDone(gen, inj, end, hops, n int64) {
	c.measuredDone++
	c.record(gen, inj, end)
	c.hops += hops
	c.hopN += n
}

func summary(h *stats.Histogram, bm *stats.BatchMeans) Summary {
	why := stats.TooFewBatches(bm.Batches(), bm.Of())
	if h.Count() == 0 {
		return Summary{CI95: math.NaN(), CI95Note: why}
	}
	return Summary{
		Count:    h.Count(),
		Mean:     h.Mean(),
		P50:      h.Quantile(0.50),
		P95:      h.Quantile(0.95),
		P99:      h.Quantile(0.99),
		Max:      float64(h.Max()),
		CI95:     bm.CI95(),
		CI95Note: why,
	}
}

// Summary describes a latency distribution in cycles.
type Summary struct {
	Count int64   `json:"count"`
	Mean  float64 `json:"mean"`
	P50   float64 `json:"p50"`
	P95   float64 `json:"p95"`
	P99   float64 `json:"p99"`
	Max   float64 `json:"max"`
	// CI95 is the half-width of the 95 % confidence interval of the mean, by
	// batch means over 20 batches of the measurement window; NaN (null in
	// JSON) when fewer than stats.MinBatches of them measured a packet,
	// and then CI95Note says so (e.g. "2 of 20 batches measured, at least
	// 10 needed").
	CI95     float64 `json:"ci95"`
	CI95Note string  `json:"ci95_note,omitempty"`
}

// summaryJSON is Summary as JSON writes it, in the same field order: CI95
// a pointer, so that no interval is null (JSON has no NaN).
type summaryJSON struct {
	Count    int64    `json:"count"`
	Mean     float64  `json:"mean"`
	P50      float64  `json:"p50"`
	P95      float64  `json:"p95"`
	P99      float64  `json:"p99"`
	Max      float64  `json:"max"`
	CI95     *float64 `json:"ci95"`
	CI95Note string   `json:"ci95_note,omitempty"`
}

// MarshalJSON writes CI95 as null when there is no interval.
func (s Summary) MarshalJSON() ([]byte, error) {
	v := summaryJSON{s.Count, s.Mean, s.P50, s.P95, s.P99, s.Max, nil, s.CI95Note}
	if !math.IsNaN(s.CI95) && !math.IsInf(s.CI95, 0) {
		v.CI95 = &s.CI95
	}
	return json.Marshal(v)
}

// UnmarshalJSON reads what MarshalJSON writes: a null CI95 as NaN.
func (s *Summary) UnmarshalJSON(b []byte) error {
	var v summaryJSON
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*s = Summary{v.Count, v.Mean, v.P50, v.P95, v.P99, v.Max, math.NaN(), v.CI95Note}
	if v.CI95 != nil {
		s.CI95 = *v.CI95
	}
	return nil
}

// Delivery is one packet delivered: from Src to Dst (a multicast's set),
// generated and delivered (its tail at the last destination) in the cycles
// given.
type Delivery struct {
	ID        uint64  `json:"id"`
	Src       int32   `json:"src"`
	Dst       []int32 `json:"dst"`
	Generated int64   `json:"generated"`
	Delivered int64   `json:"delivered"`
	Latency   int64   `json:"latency"`
}
