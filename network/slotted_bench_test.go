package network

import (
	"syscall"
	"testing"
	"time"
)

// BenchmarkSlotted: the slotted router on the 10-cube (1024 nodes, 20480
// links) at p0 = 0.5, one slot per iteration after 200 slots of warm-up,
// per scheme and buffer size (csr: csr.retry 1, csr.k 0), and the simple
// scheme on the folded butterfly of 10 stages (its greedy routing); packet is the packet-switched router on the
// same cube (uniform traffic, one-flit packets, load 0.5 per node per
// cycle), for the packet-hop rates side by side.
func BenchmarkSlotted(b *testing.B) {
	for _, v := range []struct{ name, scheme, k string }{
		{"simple-k0", "simple", "0"}, {"priority-k0", "priority", "0"},
		{"simple-k1", "simple", "1"}, {"priority-k4", "priority", "4"},
		{"deflection-simple", "deflection-simple", "0"}, {"deflection-priority", "deflection-priority", "0"},
		{"csr", "csr", "0"},
	} {
		b.Run(v.name, func(b *testing.B) {
			benchSlots(b, slottedConfig(10, v.scheme, v.k, 0.5, 1<<40), func(n *Network) int64 { return n.k.SlottedHops() })
		})
	}
	b.Run("folded-butterfly-simple-k0", func(b *testing.B) { // (the same stepper on the butterfly's links)
		c := slottedConfig(10, "simple", "0", 0.5, 1<<40)
		c.Topology.Kind = "folded-butterfly"
		benchSlots(b, c, func(n *Network) int64 { return n.k.SlottedHops() })
	})
	b.Run("packet", func(b *testing.B) {
		c := Default()
		c.Topology = TopologyConfig{Kind: "hypercube", D: 10}
		c.Switching, c.Routing = "packet", "ecube-random"
		c.Traffic.Flits, c.Traffic.Load = FlitRange{Min: 1, Max: 1}, 0.5
		c.Run.Warmup, c.Run.Measure, c.Run.MaxBacklog = 0, 1<<40, 0
		benchSlots(b, c, func(n *Network) int64 { return n.k.FlitHops })
	})
}

// benchSlots steps c's network b.N cycles after a warm-up and reports
// slots/s and packet-hops/s (hops counts the run's packet-hops), and
// packet-hops per CPU-second of the process (user + system): on a busy
// shared machine the wall clock also counts the time others held the
// core, so the schemes are compared by the last.
func benchSlots(b *testing.B, c Config, hops func(*Network) int64) {
	n, err := Build(c)
	if err != nil {
		b.Fatal(err)
	}
	for range 200 {
		n.Cycle()
	}
	h0 := hops(n)
	b.ResetTimer()
	start, cpu0 := time.Now(), cpuSeconds(b)
	for range b.N {
		n.Cycle()
	}
	s, cpu := time.Since(start).Seconds(), cpuSeconds(b)-cpu0
	b.ReportMetric(float64(b.N)/s, "slots/s")
	b.ReportMetric(float64(hops(n)-h0)/s, "packet-hops/s")
	b.ReportMetric(float64(hops(n)-h0)/cpu, "packet-hops/cpu-s")
	b.ReportMetric(0, "ns/op")
}

// cpuSeconds is the CPU time the process has used so far.
func cpuSeconds(b *testing.B) float64 {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		b.Fatal(err)
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano()).Seconds()
}
