package network

import (
	"math"
	"slices"
	"testing"
)

// detailRun is a 4×4 mesh at a moderate uniform load with every breakdown on.
func detailRun(t *testing.T) *Result {
	t.Helper()
	c := Default()
	c.Topology = TopologyConfig{Kind: "mesh", K: 4, N: 2}
	c.Traffic.Load = 0.3
	c.Run.Warmup, c.Run.Measure = 200, 1500
	c.Run.PerNode, c.Run.PerPair, c.Run.Histogram, c.Run.RouterActivity = true, true, true, true
	r, err := Run(c)
	if err != nil {
		t.Fatal(err)
	}
	if r.MeasuredDelivered < 500 {
		t.Fatalf("only %d measured packets delivered", r.MeasuredDelivered)
	}
	return r
}

func closeTo(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// TestPerNodeSumsToTotals: the per-terminal counts add up to the run's
// totals, their flit rates average to its offered load and throughput, and
// the latencies as destination, weighted by packets, to its mean latency.
func TestPerNodeSumsToTotals(t *testing.T) {
	r := detailRun(t)
	if len(r.PerNode) != r.Terminals {
		t.Fatalf("%d nodes listed, want %d", len(r.PerNode), r.Terminals)
	}
	var sent, recv int64
	var off, thr, lat float64
	for i, s := range r.PerNode {
		if s.Node != i {
			t.Errorf("row %d is node %d", i, s.Node)
		}
		sent += s.Sent
		recv += s.Received
		off += s.Offered
		thr += s.Throughput
		lat += float64(s.Received) * s.DstLatencyMean
		if s.SrcLatencyP99 < s.SrcLatencyMean*0.5 || s.DstLatencyP99 > r.Latency.Max {
			t.Errorf("node %d: implausible p99s %+v (max %v)", i, s, r.Latency.Max)
		}
	}
	nt := float64(r.Terminals)
	if sent != r.MeasuredPackets || recv != r.MeasuredDelivered {
		t.Errorf("sent %d received %d, want %d and %d", sent, recv, r.MeasuredPackets, r.MeasuredDelivered)
	}
	if !closeTo(off/nt, r.Offered) || !closeTo(thr/nt, r.Throughput) {
		t.Errorf("mean offered %v throughput %v, want %v and %v", off/nt, thr/nt, r.Offered, r.Throughput)
	}
	if !closeTo(lat/float64(recv), r.Latency.Mean) {
		t.Errorf("weighted destination latency %v, want %v", lat/float64(recv), r.Latency.Mean)
	}
}

// TestPerPairAveragesToMean: the pairs' packets add up to the measured
// packets delivered and their latencies, weighted, to the mean latency.
func TestPerPairAveragesToMean(t *testing.T) {
	r := detailRun(t)
	var n int64
	var sum float64
	prev := -1
	for _, p := range r.PerPair {
		if p.Packets <= 0 || p.Src*r.Terminals+p.Dst <= prev {
			t.Fatalf("pair %+v: empty or out of order", p)
		}
		prev = p.Src*r.Terminals + p.Dst
		n += p.Packets
		sum += float64(p.Packets) * p.LatencyMean
	}
	if n != r.MeasuredDelivered || !closeTo(sum/float64(n), r.Latency.Mean) {
		t.Errorf("pairs: %d packets, mean %v; want %d and %v", n, sum/float64(n), r.MeasuredDelivered, r.Latency.Mean)
	}
}

// TestHistogramAgreesWithSummary: the histogram's counts add up to the
// measured packets and its nearest-rank percentiles and maximum are the
// reported ones.
func TestHistogramAgreesWithSummary(t *testing.T) {
	r := detailRun(t)
	h := r.LatencyHistogram
	var n int64
	var sum float64
	for i, b := range h {
		if b.Count <= 0 || (i > 0 && b.Latency <= h[i-1].Latency) {
			t.Fatalf("bin %d %+v: empty or out of order", i, b)
		}
		n += b.Count
		sum += float64(b.Count) * float64(b.Latency)
	}
	if n != r.Latency.Count || !closeTo(sum/float64(n), r.Latency.Mean) || float64(h[len(h)-1].Latency) != r.Latency.Max {
		t.Fatalf("histogram: %d packets, mean %v; want %d and %v", n, sum/float64(n), r.Latency.Count, r.Latency.Mean)
	}
	quantile := func(q float64) float64 {
		rank := int64(math.Ceil(q * float64(n)))
		var cum int64
		for _, b := range h {
			if cum += b.Count; cum >= rank {
				return float64(b.Latency)
			}
		}
		return math.NaN()
	}
	for _, c := range []struct{ q, want float64 }{{0.5, r.Latency.P50}, {0.95, r.Latency.P95}, {0.99, r.Latency.P99}} {
		if got := quantile(c.q); got != c.want {
			t.Errorf("histogram p%g = %v, reported %v", c.q*100, got, c.want)
		}
	}
}

// TestRouterFlitsAreFlitHops: on a trace run (whose channels count the whole
// run) every flit leaves one output port of each switch it crosses, so the
// routers' flits switched add up to packets × length × hops; the 8-node
// line's middle routers are blocked now and then.
func TestRouterFlitsAreFlitHops(t *testing.T) {
	c := Default()
	c.Topology = TopologyConfig{Kind: "mesh", K: 8, N: 1}
	c.Traffic.Packets = []string{"0,0,7,4", "0,1,6,4", "1,2,5,4", "2,7,0,4", "3,6,1,4", "3,5,2,4", "4,3,4,4"}
	c.Run.RouterActivity = true
	r, err := Run(c)
	if err != nil {
		t.Fatal(err)
	}
	var flits uint64
	var blocked int64
	for _, a := range r.Routers {
		flits += a.FlitsSwitched
		blocked += a.BlockedCycles
	}
	want := r.Hops * float64(r.MeasuredDelivered) * 4
	if r.MeasuredDelivered != 7 || float64(flits) != want {
		t.Errorf("%d flits switched, want %v (%d packets, %v hops)", flits, want, r.MeasuredDelivered, r.Hops)
	}
	if blocked == 0 {
		t.Errorf("no router blocked although packets share links: %+v", r.Routers)
	}
	c.Run.RouterActivity = false
	if r, _ := Run(c); r.Routers != nil || r.PerNode != nil || r.PerPair != nil || r.LatencyHistogram != nil {
		t.Errorf("statistics listed without their keys")
	}
}

// TestPerNodeOnTwoThreads: the breakdowns and router activity see every packet when the kernel
// runs as two halves (whose lanes deliver tails apart from the worm
// records), as on one.
func TestPerNodeOnTwoThreads(t *testing.T) {
	c := Default()
	c.Topology = TopologyConfig{Kind: "mesh", K: 8, N: 2}
	c.Traffic.Load = 0.2
	c.Run.Warmup, c.Run.Measure = 100, 600
	c.Run.PerNode, c.Run.PerPair, c.Run.RouterActivity = true, true, true
	var rs []*Result
	for _, w := range []int{1, 2} {
		c.Run.Workers = w
		r, err := Run(c)
		if err != nil {
			t.Fatal(err)
		}
		var recv, pairs int64
		for _, s := range r.PerNode {
			recv += s.Received
		}
		for _, p := range r.PerPair {
			pairs += p.Packets
		}
		if recv != r.MeasuredDelivered || pairs != r.MeasuredDelivered || recv == 0 {
			t.Errorf("workers %d: received %d, pairs %d, want %d", w, recv, pairs, r.MeasuredDelivered)
		}
		rs = append(rs, r)
	}
	if !slices.Equal(rs[0].Routers, rs[1].Routers) || rs[0].Latency != rs[1].Latency {
		t.Errorf("router activity or latency differ between one and two threads")
	}
	if len(rs[0].PerPair) != len(rs[1].PerPair) || rs[0].PerNode[5] != rs[1].PerNode[5] {
		t.Errorf("one and two threads differ: %+v vs %+v", rs[0].PerNode[5], rs[1].PerNode[5])
	}
}
