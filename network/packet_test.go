package network

import (
	"github.com/flitsim/flitsim/internal/kernel"
	"math"
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"github.com/flitsim/flitsim/flit"
)

// TestBatchPhasesSummary: a batch whose packets go through a random
// intermediate node with a barrier between the phases reports phase1,
// phase2 and total; the total time of every experiment is the sum of its
// phases (so the means add exactly, digest §5.5 item 7), and on the 2-cube
// phase 1's time has the exact distribution of the longest of four
// Binomial(2, ½) routes: mean 430/256 = 1.680, 1/80/175 of 256.
func TestBatchPhasesSummary(t *testing.T) {
	c := Default()
	c.Topology = TopologyConfig{Kind: "hypercube", D: 2}
	c.Switching, c.Routing = "packet", "ecube-random"
	c.Traffic.Flits = FlitRange{Min: 1, Max: 1}
	c.Traffic.Mode, c.Traffic.Pattern, c.Run.Experiments = "batch", "bit-complement", 3000
	n, err := buildWith(c, func(s *kernel.KernelSpec) {
		s.Packet.Barrier = true
		s.Packet.Via = func(_ *flit.Worm, rng *rand.Rand) int32 { return int32(rng.IntN(4)) }
	})
	if err != nil {
		t.Fatal(err)
	}
	r, err := n.RunPlain()
	if err != nil {
		t.Fatal(err)
	}
	e := r.Experiments
	if e == nil || e.Phase1 == nil || e.Phase2 == nil || e.Count != 3000 || e.Incomplete != 0 {
		t.Fatalf("experiments %+v", e)
	}
	p1, p2, tot := e.Phase1.CompletionTime, e.Phase2.CompletionTime, e.Total.CompletionTime
	if math.Abs(tot.Mean-(p1.Mean+p2.Mean)) > 1e-9 || tot.Max > p1.Max+p2.Max {
		t.Fatalf("total %+v, phases %+v and %+v", tot, p1, p2)
	}
	// Chi-square against 1/256, 80/256, 175/256 (2 degrees of freedom:
	// 13.8 is the 0.1 % point).
	chi := 0.0
	for v, p := range map[int64]float64{0: 1.0 / 256, 1: 80.0 / 256, 2: 175.0 / 256} {
		exp := p * 3000
		d := float64(p1.Histogram[v]) - exp
		chi += d * d / exp
	}
	if chi > 13.8 || len(p1.Histogram) > 3 || math.Abs(p1.Mean-430.0/256) > 4*math.Sqrt(0.226/3000) {
		t.Fatalf("phase-1 time %+v: chi-square %.1f against the exact distribution", p1, chi)
	}
	if e.Phase1.MaxQueue.Max > 1 {
		t.Fatalf("phase-1 queues %+v: the 2-cube's phase 1 has no contention", e.Phase1.MaxQueue)
	}
}

// TestBatchPacketHops: a batch's packet_hops counts the links crossed in
// all of its experiments: on the 4-cube under bit-complement with e-cube
// routes every packet crosses 4, so 7 experiments of h packets per node
// cross 7·16·h·4 (the first experiment runs on this network, the others
// on the workers' copies, restarted).
func TestBatchPacketHops(t *testing.T) {
	for _, h := range []int{1, 2} {
		c := Default()
		c.Topology = TopologyConfig{Kind: "hypercube", D: 4}
		c.Switching, c.Routing = "packet", "ecube"
		c.Traffic.Flits = FlitRange{Min: 1, Max: 1}
		c.Traffic.Mode, c.Traffic.Pattern, c.Traffic.H, c.Run.Experiments = "batch", "bit-complement", h, 7
		r, err := Run(c)
		if err != nil {
			t.Fatal(err)
		}
		if e := r.Experiments; e == nil || e.Count != 7 || e.PacketHops != int64(7*16*h*4) {
			t.Fatalf("h=%d: experiments %+v, want 7 with %d packet-hops", h, e, 7*16*h*4)
		}
	}
}

// TestBatchRates: a batch's offered and accepted rates are its packets per
// node over the cycles it took (all delivered: the two are equal), also
// when no packet arrives in cycle 0 (two phases).
func TestBatchRates(t *testing.T) {
	for _, valiant := range []string{"off", "separate"} {
		c := Default()
		c.Topology = TopologyConfig{Kind: "hypercube", D: 4}
		c.Switching, c.Routing, c.Valiant = "packet", "random-order", valiant
		c.Traffic.Flits = FlitRange{Min: 1, Max: 1}
		c.Traffic.Mode, c.Traffic.H = "batch", 3
		r, err := Run(c)
		if err != nil {
			t.Fatal(err)
		}
		want := 3 / float64(r.Cycles)
		if r.MeasuredDelivered != 48 || math.Abs(r.Throughput-want) > 1e-12 || math.Abs(r.Offered-want) > 1e-12 {
			t.Errorf("valiant %s: %d delivered in %d cycles, offered %v, throughput %v, want %v", valiant, r.MeasuredDelivered, r.Cycles, r.Offered, r.Throughput, want)
		}
	}
}

// TestBatchInterrupted: a stop request (StopOn) during a batch ends it:
// the experiments finished so far are summarised and the run's status is
// interrupted.
func TestBatchInterrupted(t *testing.T) {
	c := Default()
	c.Topology = TopologyConfig{Kind: "hypercube", D: 2}
	c.Switching, c.Traffic.Flits = "packet", FlitRange{Min: 1, Max: 1}
	c.Traffic.Mode, c.Traffic.Pattern, c.Run.Experiments = "batch", "bit-complement", 100000
	var stop atomic.Bool
	var placed atomic.Int64
	n, err := buildWith(c, func(s *kernel.KernelSpec) {
		s.Packet.Via = func(*flit.Worm, *rand.Rand) int32 {
			if placed.Add(1) == 4*50 { // (during the 50th experiment or so)
				stop.Store(true)
			}
			return -1
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	n.StopOn(&stop)
	r, err := n.RunPlain()
	if err != nil {
		t.Fatal(err)
	}
	if e := r.Experiments; e == nil || e.Count < 1 || e.Count >= 100000 || !r.Interrupted || r.Status != StatusInterrupted {
		t.Fatalf("experiments %+v, interrupted %v, status %s", e, r.Interrupted, r.Status)
	}
}
