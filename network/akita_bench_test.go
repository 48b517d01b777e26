package network

import (
	"testing"

	"github.com/sarchlab/akita/v3/sim"
)

// benchConfig is the benchmarks' experiment (as in the kernel package's
// benchmarks): one seed, a window without end.
func benchConfig(t TopologyConfig, load float64) Config {
	c := Default()
	c.Topology = t
	c.Traffic.Load = load
	c.Traffic.Flits = FlitRange{4, 4}
	c.Run = RunConfig{Warmup: 0, Measure: 1 << 40, Drain: 0, Seed: 1, DeadlockCheck: 256}
	return c
}

// BenchmarkMesh8x8Akita runs the reference point under Akita's engine, one
// tick per cycle, to show the engine's share.
func BenchmarkMesh8x8Akita(b *testing.B) {
	c := benchConfig(TopologyConfig{Kind: "mesh", K: 8, N: 2}, 0.3)
	n, err := Build(c)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 2000; i++ {
		n.Cycle()
	}
	hops0 := n.k.FlitHops
	stop := n.k.Now() + int64(b.N)
	n.stopAt = stop
	engine := sim.NewSerialEngine()
	h := NewComponent("Network", engine, n)
	b.ReportAllocs()
	b.ResetTimer()
	h.TickNow(sim.VTimeInSec(float64(n.k.Now()) / 1e9))
	if err := engine.Run(); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(b.N)/sec, "cycles/s")
	b.ReportMetric(float64(n.k.FlitHops-hops0)/sec, "flit-hops/s")
	if n.k.Deadlock != nil || n.k.Violations.Total() != 0 {
		b.Fatalf("deadlock %v violations %+v", n.k.Deadlock, n.k.Violations)
	}
}
