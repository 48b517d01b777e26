package iq_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/switch/iq"
	"github.com/flitsim/flitsim/switch/model"
)

// bars is the BookSim runfiles' router (configs/booksim: 8×8 mesh, dor,
// 8-flit VC buffers, iSLIP with 2 iterations, credit delay 2, routing delay
// 0, VC and switch allocation delay 1, 4-flit packets; the 16-VC one waits
// for the tail's credit).
func bars(vcs int) network.Config {
	c := network.Default()
	one := 1
	two := 2
	c.Router = network.RouterConfig{Model: "iq", VCAllocDelay: &one, SWAllocDelay: &one, STFinalDelay: &one,
		CreditDelay: 2, VCAllocator: "islip", SWAllocator: "islip", AllocIters: &two}
	c.Buffers.Input, c.Buffers.VCs = 8, &vcs
	c.VC.Release = "tail"
	if vcs == 16 {
		c.VC.Release = "tail-credit"
	}
	c.Traffic.Flits = network.FlitRange{Min: 4, Max: 4}
	return c
}

func run(t *testing.T, c network.Config) *network.Result {
	t.Helper()
	r, err := network.Run(c)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The 8×8 mesh delivers every measured packet, breaks no invariant, and a
// seed fixes the run (the same JSON twice; another seed, other figures).
func TestMeshDeliversDeterministically(t *testing.T) {
	for _, vcs := range []int{1, 2, 16} {
		c := bars(vcs)
		c.Traffic.Load = 0.25
		c.Run.Warmup, c.Run.Measure = 300, 2000
		a, b := run(t, c), run(t, c)
		if a.Status != network.StatusOK || a.Deadlock != nil || a.Violations.Total() != 0 {
			t.Fatalf("%d VCs: status %s, deadlock %v, violations %+v", vcs, a.Status, a.Deadlock, a.Violations)
		}
		if a.MeasuredDelivered != a.MeasuredPackets || a.MeasuredPackets < 1000 {
			t.Errorf("%d VCs: %d of %d measured packets delivered", vcs, a.MeasuredDelivered, a.MeasuredPackets)
		}
		// (Flits of packets whose tail is still on its way count too.)
		if partial := a.DeliveredFlits - 4*a.DeliveredPackets; partial < 0 || partial > 3*(a.InjectedPackets-a.DeliveredPackets) {
			t.Errorf("%d VCs: %d flits in %d packets delivered, %d injected", vcs, a.DeliveredFlits, a.DeliveredPackets, a.InjectedPackets)
		}
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			t.Errorf("%d VCs: two runs with one seed differ", vcs)
		}
		c.Run.Seed = 2
		if d := run(t, c); d.Latency.Mean == a.Latency.Mean {
			t.Errorf("%d VCs: seeds 1 and 2 give the same mean latency %v", vcs, a.Latency.Mean)
		}
	}
}

// Every packet of a burst that fills the network (each terminal sends 30
// packets of 1 to 12 flits at once, to every other in turn) is delivered,
// flit for flit, with 1, 2 and 16 VCs, on the mesh and the dateline torus.
func TestBurstConservation(t *testing.T) {
	for _, vcs := range []int{1, 2, 16} {
		for _, kind := range []string{"mesh", "torus"} {
			c := bars(vcs)
			c.Topology = network.TopologyConfig{Kind: kind, K: 4, N: 2}
			if kind == "torus" {
				c.Routing = "dor-dateline"
				if vcs == 1 {
					continue
				}
			}
			flits := burst(&c)
			c.Run.Warmup, c.Run.Measure = 0, 10
			r := run(t, c)
			if r.Status != network.StatusOK || r.DeliveredPackets != 480 || r.InjectedFlits != flits || r.DeliveredFlits != flits || r.Violations.Total() != 0 {
				t.Errorf("%s, %d VCs: %s, %d of 480 packets and %d of %d flits delivered, violations %+v",
					kind, vcs, r.Status, r.DeliveredPackets, r.DeliveredFlits, flits, r.Violations)
			}
		}
	}
}

// A lone packet's latency is the pipeline's arithmetic: each router
// RD+VAD+SAD+STF cycles, each link (injection and ejection included) L,
// and the tail (P−1)·SAD after the head — for BookSim's runfile and for
// longer delays and links.
func TestZeroLoadLatency(t *testing.T) {
	type setting struct{ rd, vad, sad, stf, cd, lat int }
	for _, s := range []setting{{0, 1, 1, 1, 2, 1}, {1, 2, 1, 2, 0, 3}, {2, 1, 2, 1, 1, 2}} {
		c := bars(2)
		c.Router.RoutingDelay, c.Router.CreditDelay = s.rd, s.cd
		c.Router.VCAllocDelay, c.Router.SWAllocDelay, c.Router.STFinalDelay = &s.vad, &s.sad, &s.stf
		c.Link.Latency = s.lat
		// One packet at a time (each long gone before the next): hops
		// 0 (to itself), 1, 7, 14, with 1, 4 and 9 flits.
		pairs := []lone{{9, 9, 0, 4}, {0, 1, 1, 1}, {0, 7, 7, 4}, {0, 63, 14, 8}, {63, 0, 14, 4}, {27, 36, 2, 4}}
		spaced(&c, pairs)
		r := run(t, c)
		if len(r.Deliveries) != len(pairs) {
			t.Fatalf("%+v: %d deliveries, want %d", s, len(r.Deliveries), len(pairs))
		}
		p := model.Params{RoutingDelay: s.rd, VCAllocDelay: s.vad, SWAllocDelay: s.sad, STFinalDelay: s.stf, LinkLatency: s.lat}
		for i, d := range r.Deliveries {
			q := pairs[i]
			if want := iq.ZeroLoadLatency(p, q.hops, q.flits); d.Latency != want {
				t.Errorf("%+v: %d→%d (%d hops, %d flits): latency %d, the pipeline says %d", s, q.src, q.dst, q.hops, q.flits, d.Latency, want)
			}
		}
	}
}

// On the 8×8 torus at load 0.9 with 16-flit packets, dateline DOR on two
// VCs runs 10⁵ cycles without a deadlock (its two classes break the
// rings' cycles), while DOR on one VC deadlocks and is reported: a cycle
// of worms each waiting for a credit the next one holds.
func TestTorusDateline(t *testing.T) {
	torus := func(routing string, vcs int, cycles int64) network.Config {
		c := bars(vcs)
		c.Topology = network.TopologyConfig{Kind: "torus", K: 8, N: 2}
		c.Routing = routing
		c.Traffic.Load, c.Traffic.Flits = 0.9, network.FlitRange{Min: 16, Max: 16}
		c.Run.Warmup, c.Run.Measure, c.Run.Drain, c.Run.MaxBacklog = 0, cycles, 0, 0
		return c
	}
	n := int64(100_000)
	if testing.Short() {
		n = 20_000
	}
	r := run(t, torus("dor-dateline", 2, n))
	if r.Deadlock != nil || r.Stall != nil || r.Violations.Total() != 0 || r.Cycles < n {
		t.Fatalf("dor-dateline, 2 VCs: %d cycles, deadlock %v, stall %v, violations %+v", r.Cycles, r.Deadlock, r.Stall, r.Violations)
	}
	if r.Throughput < 0.2 {
		t.Errorf("dor-dateline, 2 VCs: accepted %.3f flits/node/cycle: the network hardly ran", r.Throughput)
	}
	r = run(t, torus("dor", 1, 20_000))
	if r.Deadlock == nil || r.Status != network.StatusDeadlock {
		t.Fatalf("dor, 1 VC: status %s, no deadlock reported", r.Status)
	}
	if len(r.Deadlock.Worms) < 2 || len(r.Deadlock.Resources) != len(r.Deadlock.Worms) {
		t.Errorf("dor, 1 VC: deadlock %+v: want a cycle of worms, one wait each", r.Deadlock)
	}
	t.Logf("dor, 1 VC: %s", r.Deadlock.Resources[0])
}

// Minimal adaptive routing with DOR on an escape VC (Duato) on the 8×8
// mesh: under transpose traffic it accepts at least 20 % more than DOR with
// the same VCs and buffers (measured: 0.412 against 0.282 with 4 VCs, 0.443
// with 8; with 2 only 0.319, its one adaptive VC given again only when the
// buffer beyond is empty), and at load 0.9 with 16-flit packets in 4-flit
// VCs it runs without a deadlock. So does adaptive routing on the torus
// (dateline DOR on two escape VCs) under bit-complement and tornado.
func TestAdaptiveMesh(t *testing.T) {
	mesh := func(routing, pattern string, vcs int, load float64) network.Config {
		c := bars(vcs)
		c.Routing, c.Traffic.Pattern, c.Traffic.Load = routing, pattern, load
		c.VC.Release = "" // (tail; tail-credit for adaptive routing)
		c.Run.Warmup, c.Run.Measure, c.Run.Drain, c.Run.MaxBacklog = 1000, 4000, 0, 0
		return c
	}
	for _, vcs := range []int{4, 8} {
		d, a := run(t, mesh("dor", "transpose", vcs, 0.6)), run(t, mesh("adaptive", "transpose", vcs, 0.6))
		if a.Deadlock != nil || d.Deadlock != nil || a.Violations.Total() != 0 {
			t.Fatalf("%d VCs: deadlock %v / %v, violations %+v", vcs, d.Deadlock, a.Deadlock, a.Violations)
		}
		if a.Throughput < 1.2*d.Throughput {
			t.Errorf("%d VCs, transpose: adaptive accepts %.3f, DOR %.3f: want at least 20 %% more", vcs, a.Throughput, d.Throughput)
		}
	}
	c := mesh("adaptive", "uniform", 2, 0.9)
	c.Buffers.Input, c.Traffic.Flits = 4, network.FlitRange{Min: 16, Max: 16}
	c.Run.Warmup, c.Run.Measure = 0, 30_000
	if testing.Short() {
		c.Run.Measure = 10_000
	}
	if r := run(t, c); r.Deadlock != nil || r.Stall != nil || r.Violations.Total() != 0 || r.Throughput < 0.2 {
		t.Errorf("adaptive, 2 VCs, load 0.9: deadlock %v, stall %v, violations %+v, accepted %.3f", r.Deadlock, r.Stall, r.Violations, r.Throughput)
	}
	for _, pattern := range []string{"bit-complement", "tornado"} {
		c := mesh("adaptive", pattern, 4, 0.8)
		c.Topology = network.TopologyConfig{Kind: "torus", K: 8, N: 2}
		if r := run(t, c); r.Deadlock != nil || r.Stall != nil || r.Violations.Total() != 0 {
			t.Errorf("torus, adaptive, %s: deadlock %v, stall %v, violations %+v", pattern, r.Deadlock, r.Stall, r.Violations)
		}
	}
}

// Bad settings are refused in one line naming the key.
func TestBadInput(t *testing.T) {
	for _, tc := range []struct {
		key string
		set func(c *network.Config)
	}{
		{"buffers.vcs", func(c *network.Config) { v := 0; c.Buffers.VCs = &v }},
		{"buffers.vcs", func(c *network.Config) { v := 65; c.Buffers.VCs = &v }},
		{"buffers.vcs", func(c *network.Config) { v := 2; c.Router.Model = ""; c.Buffers.VCs = &v }},
		{"routing", func(c *network.Config) {
			v := 1
			c.Buffers.VCs, c.Routing = &v, "dor-dateline"
			c.Topology = network.TopologyConfig{Kind: "torus", K: 4, N: 2}
		}},
		{"router.model", func(c *network.Config) { c.Router.Model = "oq-nonesuch" }},
		{"routing", func(c *network.Config) { v := 1; c.Buffers.VCs, c.Routing = &v, "adaptive" }},
		{"routing", func(c *network.Config) { c.Router.Model, c.Buffers.VCs, c.Routing = "", nil, "adaptive" }},
		{"router.vc_allocator", func(c *network.Config) { c.Router.VCAllocator = "lottery" }},
		{"router.sw_alloc_delay", func(c *network.Config) { v := 0; c.Router.SWAllocDelay = &v }},
		{"router.alloc_iters", func(c *network.Config) { v := 0; c.Router.AllocIters = &v }},
		{"vc.release", func(c *network.Config) { c.VC.Release = "head" }},
		{"vc.release", func(c *network.Config) { c.VC.Release, c.Routing = "tail", "adaptive" }},
		{"buffers.output", func(c *network.Config) { c.Buffers.Output = 4 }},
		{"router.input_speedup", func(c *network.Config) { v := 0; c.Router.InputSpeedup = &v }},
		{"router.input_speedup", func(c *network.Config) { v := 17; c.Router.InputSpeedup = &v }},
		{"router.output_speedup", func(c *network.Config) { v := -1; c.Router.OutputSpeedup = &v }},
		{"traffic.pattern", func(c *network.Config) { c.Traffic.Pattern = "cluster-multicast" }},
		{"traffic.packets", func(c *network.Config) { c.Traffic.Packets = []string{"0,0,4 5 6,4"} }},
		{"switching", func(c *network.Config) { c.Switching = "vct" }},
	} {
		c := bars(2)
		tc.set(&c)
		_, err := network.Run(c)
		e, ok := err.(*inputerr.Error)
		if !ok || e.Key != tc.key {
			t.Errorf("want an input error naming %s, got %v", tc.key, err)
		}
	}
}

// burst sets c's traffic to 480 packets of 1–12 flits, 30 from each of the
// 16 terminals of a 4×4 network, released in the first three cycles, and
// returns their flits.
func burst(c *network.Config) int64 {
	c.Traffic.Packets = nil
	flits := int64(0)
	for src := range 16 {
		for i := range 30 {
			n := 1 + (src+i)%12
			flits += int64(n)
			c.Traffic.Packets = append(c.Traffic.Packets, fmt.Sprintf("%d,%d,%d,%d", i%3, src, (src+1+i)%16, n))
		}
	}
	return flits
}

// lone is a packet sent when the network is empty: source, destination,
// the routers it passes, its flits.
type lone struct{ src, dst, hops, flits int }

// spaced sets c's traffic to the packets ps, 500 cycles apart (each long
// gone before the next), and its window to all of them.
func spaced(c *network.Config, ps []lone) {
	c.Traffic.Packets = nil
	for i, p := range ps {
		c.Traffic.Packets = append(c.Traffic.Packets, fmt.Sprintf("%d,%d,%d,%d", 500*i, p.src, p.dst, p.flits))
	}
	c.Run.Warmup, c.Run.Measure = 0, int64(500*len(ps))
}
