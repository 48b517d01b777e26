package network

import "github.com/flitsim/flitsim/internal/kernel"

// NodeStats is one terminal's traffic over the measurement window
// (run.per_node). Multicast packets count at their source only; software
// multicast messages are not broken down.
type NodeStats struct {
	Node int `json:"node"`
	// Sent is the measured packets the node generated, Received the
	// measured unicast packets delivered to it.
	Sent     int64 `json:"sent"`
	Received int64 `json:"received"`
	// Offered and Throughput are flits per cycle of the window: generated
	// at the node (once per destination), and ejected into it (accepted).
	Offered    float64 `json:"offered"`
	Throughput float64 `json:"throughput"`
	// Latency of the measured packets delivered, as source and as
	// destination (generation to tail ejected), in cycles; 0 with none.
	SrcLatencyMean float64 `json:"src_latency_mean"`
	SrcLatencyP99  float64 `json:"src_latency_p99"`
	DstLatencyMean float64 `json:"dst_latency_mean"`
	DstLatencyP99  float64 `json:"dst_latency_p99"`
}

// PairStats is one source–destination pair's measured unicast packets
// delivered (run.per_pair): their number and mean latency.
type PairStats struct {
	Src         int     `json:"src"`
	Dst         int     `json:"dst"`
	Packets     int64   `json:"packets"`
	LatencyMean float64 `json:"latency_mean"`
}

// HistogramBin is one latency value of the exact histogram (run.histogram)
// and the number of measured packets with it.
type HistogramBin struct {
	Latency int64 `json:"latency"`
	Count   int64 `json:"count"`
}

// RouterActivity is one switch's work over the measurement window (a
// trace's: the whole run), run.router_activity.
type RouterActivity struct {
	Router string `json:"router"`
	// FlitsSwitched is the flits that left its output ports (to switches
	// and terminals); BlockedCycles the cycles in which the front flit of
	// at least one of its buffers could not move for want of a port, a
	// buffer slot, an arbitration win or its tail (a flit still on its
	// link is not blocked).
	FlitsSwitched uint64 `json:"flits_switched"`
	BlockedCycles int64  `json:"blocked_cycles"`
}

// perNode lists every terminal's figures over a window of win cycles.
func (n *Network) perNode(d *kernel.Detail, win int64) []NodeStats {
	k := n.k
	nt := k.Topo.Terminals()
	eject := make([]uint64, nt)
	for ch := range int32(len(k.Links)) {
		if t := k.ChannelTerminal(ch); t >= 0 {
			eject[t] += n.utilOf(ch)
		}
	}
	rate := func(f float64) float64 {
		if win <= 0 {
			return 0
		}
		return f / float64(win)
	}
	ns := make([]NodeStats, nt)
	for t := range ns {
		s, r := &d.BySrc[t], &d.ByDst[t]
		ns[t] = NodeStats{Node: t, Sent: d.Sent[t], Received: d.Received[t],
			Offered: rate(float64(d.Offered[t])), Throughput: rate(float64(eject[t])),
			SrcLatencyMean: s.Mean(), SrcLatencyP99: s.Quantile(0.99),
			DstLatencyMean: r.Mean(), DstLatencyP99: r.Quantile(0.99)}
	}
	return ns
}

// perPair lists the pairs that delivered a measured unicast packet, by
// source then destination.
func perPair(d *kernel.Detail, nt int) []PairStats {
	var ps []PairStats
	for i, c := range d.PairN {
		if c > 0 {
			ps = append(ps, PairStats{Src: i / nt, Dst: i % nt, Packets: c,
				LatencyMean: float64(d.PairSum[i]) / float64(c)})
		}
	}
	return ps
}

// latencyHistogram lists the measured latencies that occurred with their
// counts, ascending.
func (n *Network) latencyHistogram() []HistogramBin {
	var bs []HistogramBin
	n.k.Stats().Histogram().Bins(func(v, c int64) { bs = append(bs, HistogramBin{v, c}) })
	return bs
}

// routers lists every switch's activity in switch order.
func (n *Network) routers() []RouterActivity {
	k := n.k
	rs := make([]RouterActivity, len(k.Topo.Switches))
	for s := range rs {
		rs[s].Router = k.Topo.Switches[s].Label
	}
	for ch := range int32(len(k.Links)) {
		if k.ChannelConnected(ch) {
			rs[k.ChannelSwitch(ch)].FlitsSwitched += n.utilOf(ch)
		}
	}
	if a := n.activity; a != nil {
		for s := range rs {
			rs[s].BlockedCycles = a.blocked[s]
		}
	}
	return rs
}

// fillDetail adds the statistics run.per_node, per_pair, histogram and
// router_activity ask for; win is the channels' window in cycles.
func (n *Network) fillDetail(r *Result, win int64) {
	run := &n.Cfg.Run
	if d := n.k.Stats().Detail(); d != nil {
		if run.PerNode {
			r.PerNode = n.perNode(d, win)
		}
		if run.PerPair {
			r.PerPair = perPair(d, n.k.Topo.Terminals())
		}
	}
	if run.Histogram {
		r.LatencyHistogram = n.latencyHistogram()
	}
	if run.RouterActivity {
		r.Routers = n.routers()
	}
}

// utilOf is channel ch's flits in the window (0 before the window closed).
func (n *Network) utilOf(ch int32) uint64 {
	if int(ch) < len(n.util) {
		return n.util[ch]
	}
	return 0
}
