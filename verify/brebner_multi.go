package verify

import (
	"fmt"
	"math"

	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network"
)

// Brebner 1983 §2.6 (digest §3.5, §4.8–4.9): multiple reads and writes on
// the packet router. The thesis publishes no table for them (they were
// never simulated); these rows compare runs with its analytic statements.
//
//   - Theorem 2.10's proof: for a multiple-read h-relation on the n-cube
//     with copies made in phase 2 along bit-fixing trees, every edge has
//     Σ_j P(read j's tree uses it) ≤ h/2. Measured: per edge, the mean
//     number of reads whose copies crossed it in phase 2.
//   - "Many useful multiple write permutations [are] fast, for example the
//     OR of N elements" (§2.6.2). Derived for the recommended combining
//     reading (kernel TestMultiWriteOrOfN): after the barrier every node
//     holds at most one packet for the location and sends it at once, so
//     phase 2 takes at most n steps and at most n+1 packets land.
const (
	multiEdgeD, multiEdgeH, multiEdgeFan, multiEdgeReps = 6, 2, 4, 200
	orD, orReps                                         = 10, 100
)

func init() {
	Register(Claim{
		ID: "brebner-ci-multi-thm2.10-edge-load", Tier: TierQuick, Source: "Brebner 1983 (thesis), Theorem 2.10, proof (digest §4.8)",
		Claim: fmt.Sprintf("%d-cube multiple-read %d-relation, %d destinations per read, copies split in phase 2 (valiant: separate): per edge, the mean number of reads using it",
			multiEdgeD, multiEdgeH, multiEdgeFan),
		Published: fmt.Sprintf("≤ h/2 = %g per edge", multiEdgeH/2.0),
		Tolerance: fmt.Sprintf("max over edges ≤ h/2 + 4 SE, %d experiments, every delivery right", multiEdgeReps),
		Measure:   multiEdgeLoad,
	})
	Register(Claim{
		ID: "brebner-ci-multi-or-of-n", Tier: TierQuick, Source: "Brebner 1983 (thesis), §2.6.2 (digest §4.9)",
		Claim:     fmt.Sprintf("OR of N = %d elements (every node writes to node 0; combining in queues, valiant: separate, e-cube): phase-2 time and packets landing", 1<<orD),
		Published: fmt.Sprintf("fast (no figure); derived: phase 2 ≤ n = %d, ≤ n+1 landings", orD),
		Tolerance: fmt.Sprintf("max over %d experiments within the derived bounds, every write counted once, OR right", orReps),
		Measure:   orOfN,
	})
}

func multiConfig(pattern string, d int) network.Config {
	c := network.Default()
	c.Topology = network.TopologyConfig{Kind: "hypercube", D: d}
	c.Switching, c.Routing, c.Valiant = "packet", "ecube", "separate"
	c.Traffic.Flits = network.FlitRange{Min: 1, Max: 1}
	c.Traffic.Mode, c.Traffic.Pattern = "batch", pattern
	return c
}

func multiEdgeLoad() (string, bool, error) {
	c := multiConfig("multi-read", multiEdgeD)
	c.Traffic.H, c.Traffic.Fanout = multiEdgeH, multiEdgeFan
	var sum []float64
	var net *network.Network
	for i := range multiEdgeReps {
		c.Run.Seed = uint64(i + 1)
		n, err := network.Build(c)
		if err != nil {
			return "", false, err
		}
		r, err := n.RunAkita()
		if err != nil {
			return "", false, err
		}
		if r.Status != network.StatusOK || r.Multi == nil || !r.Multi.OK {
			return "", false, fmt.Errorf("experiment %d: status %s, multi %+v: %w", i, r.Status, r.Multi, ErrShortfall)
		}
		use := kernel.Of(n).MultiEdgeUse()
		if sum == nil {
			sum = make([]float64, len(use))
		}
		for ch, u := range use {
			sum[ch] += float64(u)
		}
		net = n
	}
	worst, mean, edges := 0.0, 0.0, 0
	k := kernel.Of(net)
	for ch, s := range sum {
		if k.ChannelSwitch(int32(ch)) < 0 || k.ChannelTerminal(int32(ch)) >= 0 || !k.ChannelConnected(int32(ch)) {
			continue // (only switch-to-switch links are edges)
		}
		m := s / multiEdgeReps
		worst, mean, edges = max(worst, m), mean+m, edges+1
	}
	mean /= float64(edges)
	bound := multiEdgeH / 2.0
	se := math.Sqrt(bound / multiEdgeReps)
	return fmt.Sprintf("max %.3f, mean %.3f over %d edges", worst, mean, edges), worst <= bound+4*se, nil
}

func orOfN() (string, bool, error) {
	c := multiConfig("multi-write", orD)
	c.Traffic.Combine, c.Run.Experiments = "or", orReps
	r, err := network.Run(c)
	if err != nil {
		return "", false, err
	}
	e := r.Experiments
	if r.Status != network.StatusOK || e == nil || e.Multi == nil || e.Phase2 == nil || e.Incomplete > 0 {
		return "", false, fmt.Errorf("status %s: %w", r.Status, ErrShortfall)
	}
	x, p2 := e.Multi, e.Phase2.CompletionTime
	ok := x.Failed == 0 && p2.Max <= orD && x.Deliveries.Max <= orD+1
	return fmt.Sprintf("phase 2 mean %.2f max %d; landings mean %.2f max %d; %d failed checks", p2.Mean, p2.Max, x.Deliveries.Mean, x.Deliveries.Max, x.Failed), ok, nil
}
