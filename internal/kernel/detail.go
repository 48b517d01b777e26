package kernel

import (
	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/network/stats"
)

// Detail breaks a run's measured packets down by terminal (run.per_node)
// and by source–destination pair (run.per_pair). It is nil unless asked for,
// so the default run does one nil check per packet and no more. Its slices
// are sized when it is made: recording a packet does not allocate (a
// histogram grows its bins, by doubling, only for a latency above any seen).
type Detail struct {
	// Sent and Offered are per source: measured packets generated and
	// their flits (once per destination).
	Sent, Offered []int64
	// Received is per destination: measured unicast packets delivered.
	Received []int64
	// BySrc and ByDst are the latencies (generation to tail ejected) of the
	// measured packets delivered, by source and (unicast only) by
	// destination.
	BySrc, ByDst []stats.Histogram
	// PairN and PairSum, with per-pair detail, are indexed src·n+dst: the
	// measured unicast packets delivered and the sum of their latencies.
	PairN, PairSum []int64
	n              int
}

// CollectDetail keeps per-terminal statistics for n terminals, and with
// pairs per source–destination pair too (n² counters). Call it after
// CollectStats.
func (c *Stats) CollectDetail(n int, pairs bool) *Detail {
	d := &Detail{n: n, Sent: make([]int64, n), Offered: make([]int64, n), Received: make([]int64, n),
		BySrc: make([]stats.Histogram, n), ByDst: make([]stats.Histogram, n)}
	if pairs {
		d.PairN, d.PairSum = make([]int64, n*n), make([]int64, n*n)
	}
	c.detail, c.slow = d, true
	return d
}

// Detail is the per-terminal breakdown (nil unless CollectDetail was called).
func (c *Stats) Detail() *Detail { return c.detail }

// sent counts a measured packet generated at its source.
func (d *Detail) sent(w *flit.Worm, off int64) {
	d.Sent[w.Src]++
	d.Offered[w.Src] += off
}

// done records a measured packet delivered with latency lat. A multicast
// packet counts at its source only: it has no single destination.
func (d *Detail) done(w *flit.Worm, lat int64) {
	d.BySrc[w.Src].Add(lat)
	if w.Dests > 1 {
		return
	}
	d.Received[w.Dst]++
	d.ByDst[w.Dst].Add(lat)
	if d.PairN != nil {
		i := int(w.Src)*d.n + int(w.Dst)
		d.PairN[i]++
		d.PairSum[i] += lat
	}
}
