package search

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/flitsim/flitsim/network"
)

func chiangBase(kind string, n int, worm, enc, arb string) network.Config {
	c := network.Default()
	c.Topology = network.TopologyConfig{Kind: kind, K: 2, N: n}
	c.Buffers = network.BufferConfig{Input: 0, Output: 1}
	c.Arbiter = arb
	c.Multicast = network.MulticastConfig{Worm: worm, Encoding: enc}
	return c
}

func spec(c network.Config, scenarios, worms int) Spec {
	return Spec{Base: c, Scenarios: scenarios, Seed: 1, Multicasts: worms, Unicasts: 1,
		MaxOffset: 6, MinFlits: 4, MaxFlits: 24, MinDests: 2, MaxDests: 8}
}

// Asynchronous multi-head worms deadlock quickly (Chiang §4.1).
func TestAsyncWormsDeadlockQuickly(t *testing.T) {
	o, err := Run(spec(chiangBase("cube", 4, "async", "single", "upper-first"), 2000, 3))
	if err != nil {
		t.Fatal(err)
	}
	if !o.Found {
		t.Fatalf("no deadlock in %d scenarios", o.Run)
	}
	t.Logf("async: deadlock in scenario %d: %v", o.Scenario, o.Packets)
	// The replay config reproduces it.
	y, err := ReplayYAML(o)
	if err != nil {
		t.Fatal(err)
	}
	_ = y
}

// Synchronous worms with plain all-destination headers and three worms
// deadlock (Lemma 4).
func TestSyncAllDestinationDeadlocks(t *testing.T) {
	s := spec(chiangBase("cube", 5, "sync", "ad", "clock"), 20000, 3)
	s.Unicasts = 0
	o, err := Run(s)
	if err != nil {
		t.Fatal(err)
	}
	if !o.Found {
		t.Fatalf("no deadlock in %d scenarios", o.Run)
	}
	t.Logf("sync+ad: deadlock in scenario %d: %v", o.Scenario, o.Packets)
}

// Synchronous worms with pseudo all-destination headers and a proper
// priority never deadlock (Lemmas 1, 5). The full 100 000-scenario search
// is `flitsim deadlock-search` (see docs/multicast.md); the test runs a slice.
func TestSyncPseudoNoDeadlock(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	for _, arb := range []string{"upper-first", "clock"} {
		o, err := Run(spec(chiangBase("cube", 4, "sync", "pseudo-ad", arb), n, 3))
		if err != nil {
			t.Fatal(err)
		}
		if o.Found {
			t.Fatalf("%s: deadlock in scenario %d: %v\n%v", arb, o.Scenario, o.Packets, o.Deadlock.Resources)
		}
		if o.Stalled > 0 {
			t.Fatalf("%s: %d scenarios stalled without a deadlock", arb, o.Stalled)
		}
	}
}

// Random multicast scenarios on every buffer arrangement, worm type and a
// few topologies keep the simulator's invariants, and end either complete
// or in a reported deadlock (never stalled without one).
func TestRandomMulticastInvariants(t *testing.T) {
	topos := []network.TopologyConfig{
		{Kind: "cube", K: 2, N: 4},
		{Kind: "mesh", K: 4, N: 2},
		{Kind: "hypercube", D: 4},
		{Kind: "omega", K: 4, N: 2},
	}
	bufs := []network.BufferConfig{{Input: 0, Output: 1}, {Input: 2, Output: 0}, {Input: 2, Output: 1}}
	for _, tc := range topos {
		for _, b := range bufs {
			for _, worm := range []string{"async", "sync", "path"} {
				c := network.Default()
				c.Topology = tc
				c.Buffers = b
				c.Arbiter = "clock"
				c.Multicast = network.MulticastConfig{Worm: worm, Encoding: "single"}
				if worm == "sync" {
					c.Multicast.Encoding = "pseudo-ad"
				}
				s := spec(c, 60, 3)
				s.Seed = 11
				s.MaxDests = 6
				for seed := uint64(0); seed < 3; seed++ {
					s.Seed = 11 + seed
					o, err := Run(s)
					if err != nil {
						t.Fatal(err)
					}
					if o.Violations != 0 || o.Stalled != 0 {
						t.Fatalf("%s %+v %s: %d violations, %d stalled in %d scenarios", tc.Kind, b, worm, o.Violations, o.Stalled, o.Run)
					}
				}
			}
		}
	}
}

// TestStop: a search interrupted after some scenarios reports those, marked
// Interrupted, without counting the one it cut short.
func TestStop(t *testing.T) {
	var stop atomic.Bool
	s := spec(chiangBase("cube", 4, "sync", "pseudo-ad", "upper-first"), 1000, 3)
	s.Stop = &stop
	s.Progress = func(done int) {
		if done == 7 {
			stop.Store(true)
		}
	}
	o, err := Run(s)
	if err != nil || !o.Interrupted || o.Run != 7 || o.Found {
		t.Fatalf("%v %+v", err, o)
	}
	// Set before the search starts: no scenario is counted.
	n := 0
	s.Progress = func(int) { n++ }
	if o, err := Run(s); err != nil || !o.Interrupted || o.Run != 0 || n != 0 {
		t.Fatalf("stopped at once: %v %+v", err, o)
	}
}

// TestCheckWholePacket: packets longer than store-and-forward buffers are
// refused up front, naming --flits, not reported as deadlocks.
func TestCheckWholePacket(t *testing.T) {
	c := chiangBase("cube", 4, "async", "single", "upper-first")
	c.Switching, c.Buffers = "saf", network.BufferConfig{Input: 8}
	_, err := Run(spec(c, 10, 2))
	if err == nil || !strings.Contains(err.Error(), "--flits 4-24: buffers.input: 8 is not allowed (allowed: ≥ 24: saf buffers") {
		t.Fatalf("%v", err)
	}
}
