package kernel_test

import (
	"fmt"
	"github.com/flitsim/flitsim/internal/kernel"
	"testing"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/network"
)

func benchConfig(t network.TopologyConfig, load float64) network.Config {
	c := network.Default()
	c.Topology = t
	c.Traffic.Load = load
	c.Traffic.Flits = network.FlitRange{Min: 4, Max: 4}
	c.Run = network.RunConfig{Warmup: 0, Measure: 1 << 40, Drain: 0, Seed: 1, DeadlockCheck: 256}
	return c
}

// benchCycles warms the network up, then times b.N cycles and reports
// simulated cycles/s and flit-hops/s (flits crossing a switch).
func benchCycles(b *testing.B, c network.Config) {
	n, err := network.Build(c)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 2000; i++ {
		n.Cycle()
	}
	hops0 := kernel.Of(n).FlitHops
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n.Cycle()
	}
	reportRates(b, kernel.Of(n), hops0)
}

// reportRates stops the timer and reports simulated cycles/s and
// flit-hops/s since hops0, failing on a deadlock or a broken invariant.
func reportRates(b *testing.B, k *kernel.Kernel, hops0 int64) {
	b.StopTimer()
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(b.N)/sec, "cycles/s")
	b.ReportMetric(float64(k.FlitHops-hops0)/sec, "flit-hops/s")
	if k.Deadlock != nil || k.Violations.Total() != 0 {
		b.Fatalf("deadlock %v violations %+v", k.Deadlock, k.Violations)
	}
}

// BenchmarkMesh8x8 is the reference point: 8×8 mesh, wormhole, DOR,
// uniform traffic, 4-flit packets, load 0.3.
func BenchmarkMesh8x8(b *testing.B) {
	benchCycles(b, benchConfig(network.TopologyConfig{Kind: "mesh", K: 8, N: 2}, 0.3))
}

// The larger networks run on one thread and on two (run.workers).
func BenchmarkMesh16x16(b *testing.B) {
	benchWorkers(b, benchConfig(network.TopologyConfig{Kind: "mesh", K: 16, N: 2}, 0.1))
}

func BenchmarkHypercube10(b *testing.B) {
	benchWorkers(b, benchConfig(network.TopologyConfig{Kind: "hypercube", D: 10}, 0.3))
}

func benchWorkers(b *testing.B, c network.Config) {
	for _, w := range []int{1, 2} {
		c.Run.Workers = w
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) { benchCycles(b, c) })
	}
}

// BenchmarkMIN4096 is a 4096-terminal cube MIN of 2×2 switches with Chiang's
// one-flit output buffers, below its saturation load (about 0.17).
func BenchmarkMIN4096(b *testing.B) {
	c := benchConfig(network.TopologyConfig{Kind: "cube", K: 2, N: 12}, 0.1)
	c.Buffers = network.BufferConfig{Output: 1}
	benchWorkers(b, c)
}

// The kernel allocates nothing per cycle in steady state.
func TestNoAllocationsPerCycle(t *testing.T) {
	twoLanes := benchConfig(network.TopologyConfig{Kind: "mesh", K: 8, N: 2}, 0.3)
	twoLanes.Run.Workers = 2
	for _, c := range []network.Config{
		benchConfig(network.TopologyConfig{Kind: "mesh", K: 8, N: 2}, 0.3),
		benchConfig(network.TopologyConfig{Kind: "hypercube", D: 6}, 0.3),
		twoLanes,
	} {
		n, err := network.Build(c)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 20000; i++ {
			n.Cycle()
		}
		if a := testing.AllocsPerRun(2000, n.Cycle); a != 0 {
			t.Errorf("%s: %v allocations per cycle", c.Topology.Kind, a)
		}
	}
}

// BenchmarkMulticastMIN is a multicast-heavy workload: a 64-node cube MIN of
// 2×2 switches with Chiang's one-flit output buffers, where every node
// multicasts 16-flit packets to the other 7 members of its 8-node base cube
// (asynchronous worms). flit-hops count every replicated copy.
func BenchmarkMulticastMIN(b *testing.B) {
	c := network.Default()
	c.Topology = network.TopologyConfig{Kind: "cube", K: 2, N: 6}
	c.Buffers = network.BufferConfig{Output: 1}
	c.Traffic.Load = 0
	c.Run = network.RunConfig{Warmup: 0, Measure: 1 << 40, Seed: 1, DeadlockCheck: 256}
	n, err := network.Build(c)
	if err != nil {
		b.Fatal(err)
	}
	k := kernel.Of(n)
	rng := k.Rand()
	dests := make([][]int, 64)
	for s := range dests {
		base := s &^ 7
		for d := base; d < base+8; d++ {
			if d != s {
				dests[s] = append(dests[s], d)
			}
		}
	}
	// Each node starts a multicast with probability p per cycle: 7 copies of
	// 16 flits, so p = 0.005 offers 0.56 flits per output port per cycle.
	const p = 0.005
	step := func() {
		for s := 0; s < 64; s++ {
			if rng.Float64() < p {
				if _, err := k.EnqueueMulticast(s, dests[s], 16, flit.Tree, network.SingleFlit); err != nil {
					b.Fatal(err)
				}
			}
		}
		k.Step()
	}
	for i := 0; i < 5000; i++ {
		step()
	}
	hops0 := k.FlitHops
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		step()
	}
	reportRates(b, k, hops0)
}
