package kernel_test

import (
	"github.com/flitsim/flitsim/internal/kernel"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/network"
)

func ringConfig(kind string) network.Config {
	c := network.Default()
	c.Topology = network.TopologyConfig{Kind: kind, K: 8, N: 1}
	c.Buffers = network.BufferConfig{Input: 2}
	c.Traffic.Load = 0.6
	c.Traffic.Flits = network.FlitRange{Min: 16, Max: 16}
	c.Run = network.RunConfig{Warmup: 0, Measure: 5000, Drain: 200000, Seed: 1, DeadlockCheck: 128}
	return c
}

// A ring under wormhole dimension-order routing, with long packets at high
// load, deadlocks: the detector must name the cycle of worms.
func TestRingDeadlockIsReported(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		c := ringConfig("torus")
		c.Run.Seed = seed
		_, r := randomRun(t, c)
		dl := r.Deadlock
		if dl == nil {
			t.Fatalf("seed %d: no deadlock reported on the ring", seed)
		}
		if len(dl.Worms) < 2 || len(dl.Resources) < 2 || len(dl.Switches) < 2 {
			t.Fatalf("seed %d: thin report %+v", seed, dl)
		}
		if dl.Since > dl.Cycle || dl.Cycle >= r.Cycles+1 {
			t.Fatalf("seed %d: cycle %d since %d (run %d cycles)", seed, dl.Cycle, dl.Since, r.Cycles)
		}
		for _, s := range dl.Resources {
			if !strings.Contains(s, "waits for") {
				t.Fatalf("resource line %q", s)
			}
		}
		// Everything the report names is really stuck: running on changes
		// nothing for the worms in the cycle.
	}
}

// The same traffic on a linear array (a mesh) completes.
func TestMeshWithSameTrafficCompletes(t *testing.T) {
	c := ringConfig("mesh")
	c.Traffic.Load = 0.15 // below the line's saturation, so the window drains
	_, r := randomRun(t, c)
	if r.Deadlock != nil {
		t.Fatalf("mesh reported a deadlock: %+v", r.Deadlock)
	}
	if r.MeasuredDelivered != r.MeasuredPackets || r.MeasuredPackets == 0 {
		t.Fatalf("mesh delivered %d of %d", r.MeasuredDelivered, r.MeasuredPackets)
	}
	// And at the ring's deadlocking load too, given time.
	c.Traffic.Load = 0.6
	c.Run.Measure = 1000
	_, r = randomRun(t, c)
	if r.Deadlock != nil {
		t.Fatalf("mesh at load 0.6 reported a deadlock: %+v", r.Deadlock)
	}
}

// A deadlock found is a real one: after the report, stepping the kernel
// further never moves any worm of the cycle.
func TestReportedDeadlockIsPermanent(t *testing.T) {
	c := ringConfig("torus")
	n, err := network.Build(c)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := n.RunPlain(); err != nil {
		t.Fatal(err)
	}
	dl := kernel.Of(n).Deadlock
	if dl == nil {
		t.Fatal("no deadlock")
	}
	ids := map[uint64]bool{}
	for _, w := range dl.Worms {
		ids[w.ID] = true
	}
	before := map[uint64]int32{}
	for i := range kernel.Of(n).Pool.Worms {
		w := &kernel.Of(n).Pool.Worms[i]
		if ids[w.ID] {
			before[w.ID] = w.Recvd
		}
	}
	for i := 0; i < 2000; i++ {
		kernel.Of(n).Step()
	}
	for i := range kernel.Of(n).Pool.Worms {
		w := &kernel.Of(n).Pool.Worms[i]
		if ids[w.ID] && before[w.ID] != w.Recvd {
			t.Fatalf("worm %d moved after the deadlock report", w.ID)
		}
	}
}

// DebugState lists every non-empty buffer with its flits and binding.
func TestDebugStateNamesBuffers(t *testing.T) {
	n, err := network.Build(ringConfig("torus"))
	if err != nil {
		t.Fatal(err)
	}
	kernel.Of(n).Enqueue(0, 3, 4)
	kernel.Of(n).Step()
	kernel.Of(n).Step()
	s := kernel.Of(n).DebugState()
	if !strings.Contains(s, "r(") || !strings.Contains(s, "w1.") {
		t.Fatalf("debug state %q", s)
	}
}
