package kernel_test

import (
	"encoding/json"
	"fmt"
	"github.com/flitsim/flitsim/internal/kernel"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/network"
)

// topoCase is a small instance of every topology kind.
type topoCase struct {
	name string
	t    network.TopologyConfig
}

func smallTopologies() []topoCase {
	return []topoCase{
		{"mesh4x4", network.TopologyConfig{Kind: "mesh", K: 4, N: 2}},
		{"mesh3x3x2", network.TopologyConfig{Kind: "mesh", K: 3, N: 3}},
		{"torus5x5", network.TopologyConfig{Kind: "torus", K: 5, N: 2}},
		{"ring6", network.TopologyConfig{Kind: "torus", K: 6, N: 1}},
		{"mesh3x5", network.TopologyConfig{Kind: "mesh", Sides: network.IntList{3, 5}, N: 2}},
		{"torus4x6", network.TopologyConfig{Kind: "torus", Sides: network.IntList{4, 6}, N: 2}},
		{"hypercube4", network.TopologyConfig{Kind: "hypercube", D: 4}},
		{"omega2^4", network.TopologyConfig{Kind: "omega", K: 2, N: 4}},
		{"baseline4^2", network.TopologyConfig{Kind: "baseline", K: 4, N: 2}},
		{"butterfly2^3", network.TopologyConfig{Kind: "butterfly", K: 2, N: 3}},
		{"cube2^4", network.TopologyConfig{Kind: "cube", K: 2, N: 4}},
		{"esmin8:5", network.TopologyConfig{Kind: "esmin", Dims: network.IntList{1, 2, 1, 2, 0}}},
		{"ccc3", network.TopologyConfig{Kind: "ccc", N: 3}},
		{"folded-cube3", network.TopologyConfig{Kind: "folded-cube", D: 3}},
		{"enhanced-cube3", network.TopologyConfig{Kind: "enhanced-cube", D: 3}},
	}
}

type bufCase struct {
	name    string
	in, out int
}

var bufCases = []bufCase{{"in", 4, 0}, {"out", 0, 1}, {"inout", 2, 1}}

func zeroLoadConfig(t network.TopologyConfig, mode string, b bufCase, lat, delay, flits int) network.Config {
	c := network.Default()
	c.Topology = t
	c.Switching = mode
	c.Buffers = network.BufferConfig{Input: b.in, Output: b.out}
	// Full pipelining over a link of latency L needs L slots (the credit
	// round trip); see ZeroLoadLatency.
	if b.out > 0 {
		c.Buffers.Output = max(b.out, lat)
	}
	if b.in > 0 {
		c.Buffers.Input = max(b.in, lat)
	}
	if mode != "wormhole" { // whole packets must fit
		if b.in > 0 {
			c.Buffers.Input = max(c.Buffers.Input, flits)
		}
		if b.out > 0 {
			c.Buffers.Output = max(c.Buffers.Output, flits)
		}
	}
	c.Link.Latency = lat
	c.Switch.Delay = delay
	c.Traffic.Load = 0
	c.Traffic.Flits = network.FlitRange{Min: flits, Max: flits}
	return c
}

// lone sends one packet through an otherwise empty network and returns its
// latency and the number of switches it crossed.
func lone(t *testing.T, n *network.Network, src, dst, flits int) (int64, int32) {
	t.Helper()
	k := kernel.Of(n)
	lat, hops := int64(-1), int32(-1)
	k.Hooks.Delivered = func(w *flit.Worm, cycle int64) {
		lat, hops = cycle-w.GenCycle, w.Hops
	}
	k.Enqueue(src, dst, flits)
	for i := 0; i < 10000 && lat < 0; i++ {
		k.Step()
	}
	if lat < 0 {
		t.Fatalf("packet %d→%d never delivered", src, dst)
	}
	if v := k.Violations.Total(); v != 0 {
		t.Fatalf("invariant violations: %+v", k.Violations)
	}
	return lat, hops
}

// TestZeroLoadLatencyMatchesClosedForm checks every topology × switching
// mode × buffer arrangement against ZeroLoadLatency.
func TestZeroLoadLatencyMatchesClosedForm(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, tc := range smallTopologies() {
		for _, mode := range []string{"wormhole", "vct", "saf"} {
			for _, b := range bufCases {
				for _, p := range []struct{ lat, delay, flits int }{{1, 0, 1}, {1, 0, 4}, {2, 0, 5}, {1, 1, 3}, {3, 2, 2}} {
					name := fmt.Sprintf("%s/%s/%s/L%d-D%d-F%d", tc.name, mode, b.name, p.lat, p.delay, p.flits)
					t.Run(name, func(t *testing.T) {
						c := zeroLoadConfig(tc.t, mode, b, p.lat, p.delay, p.flits)
						n, err := network.Build(c)
						if err != nil {
							t.Fatal(err)
						}
						nt := kernel.Of(n).Topo.Terminals()
						for i := 0; i < 6; i++ {
							s, d := rng.IntN(nt), rng.IntN(nt)
							got, hops := lone(t, n, s, d, p.flits)
							want := network.ZeroLoadLatency(c, int(hops), p.flits)
							if got != want {
								t.Fatalf("%d→%d (%d switches): latency %d, closed form %d", s, d, hops, got, want)
							}
						}
					})
				}
			}
		}
	}
}

// TestWormholePipelining: one more cycle per extra flit, whatever the hops.
func TestWormholePipelining(t *testing.T) {
	c := zeroLoadConfig(network.TopologyConfig{Kind: "mesh", K: 8, N: 2}, "wormhole", bufCases[0], 1, 0, 1)
	for _, pair := range [][2]int{{0, 1}, {0, 63}, {9, 54}} {
		var prev int64
		for f := 1; f <= 8; f++ {
			n, err := network.Build(c)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := lone(t, n, pair[0], pair[1], f)
			if f > 1 && got != prev+1 {
				t.Fatalf("%v: %d flits took %d, %d flits took %d", pair, f-1, prev, f, got)
			}
			prev = got
		}
	}
}

// TestHopCounts: switches crossed = distance + 1 on direct networks and n on
// a MIN.
func TestHopCounts(t *testing.T) {
	cases := []struct {
		t    network.TopologyConfig
		dist func(s, d int) int
	}{
		{network.TopologyConfig{Kind: "hypercube", D: 5}, func(s, d int) int { return bits.OnesCount(uint(s^d)) + 1 }},
		{network.TopologyConfig{Kind: "mesh", K: 5, N: 2}, func(s, d int) int { return abs(s%5-d%5) + abs(s/5-d/5) + 1 }},
		{network.TopologyConfig{Kind: "torus", K: 6, N: 2}, func(s, d int) int { return ring(s%6, d%6, 6) + ring(s/6, d/6, 6) + 1 }},
		{network.TopologyConfig{Kind: "butterfly", K: 4, N: 3}, func(s, d int) int { return 3 }},
	}
	for _, tc := range cases {
		c := zeroLoadConfig(tc.t, "wormhole", bufCases[0], 1, 0, 2)
		n, err := network.Build(c)
		if err != nil {
			t.Fatal(err)
		}
		nt := kernel.Of(n).Topo.Terminals()
		for s := 0; s < nt; s += 3 {
			for d := 0; d < nt; d += 5 {
				_, hops := lone(t, n, s, d, 2)
				if int(hops) != tc.dist(s, d) {
					t.Fatalf("%s %d→%d: %d switches, want %d", tc.t.Kind, s, d, hops, tc.dist(s, d))
				}
			}
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func ring(a, b, k int) int {
	d := abs(a - b)
	return min(d, k-d)
}

// randomRun runs a loaded network with invariant accounting.
func randomRun(t *testing.T, c network.Config) (*network.Network, *network.Result) {
	t.Helper()
	n, err := network.Build(c)
	if err != nil {
		t.Fatal(err)
	}
	r, err := n.RunPlain()
	if err != nil {
		t.Fatal(err)
	}
	k := kernel.Of(n)
	if v := k.Violations; v.Total() != 0 {
		t.Fatalf("invariant violations: %+v", v)
	}
	// Conservation: every generated flit is delivered, in a buffer, or still
	// waiting at its source.
	if got := r.DeliveredFlits + int64(k.InFlight()) + k.Backlog(); got != r.InjectedFlits {
		t.Fatalf("flits not conserved: injected %d, delivered %d + in flight %d + backlog %d",
			r.InjectedFlits, r.DeliveredFlits, k.InFlight(), k.Backlog())
	}
	return n, r
}

// TestInvariantsOnRandomRuns: conservation, in-order whole delivery, no
// duplicates or misdelivery, buffer depth and one flit per channel per
// cycle, on every topology and mode.
func TestInvariantsOnRandomRuns(t *testing.T) {
	for _, tc := range smallTopologies() {
		for _, mode := range []string{"wormhole", "vct", "saf"} {
			for _, b := range bufCases {
				t.Run(tc.name+"/"+mode+"/"+b.name, func(t *testing.T) {
					c := zeroLoadConfig(tc.t, mode, b, 1, 0, 4)
					c.Traffic.Flits = network.FlitRange{Min: 1, Max: 6}
					if mode != "wormhole" {
						c.Buffers.Input = max(c.Buffers.Input, 6) * sign(c.Buffers.Input)
						c.Buffers.Output = max(c.Buffers.Output, 6) * sign(c.Buffers.Output)
					}
					c.Traffic.Load = 0.3
					c.Run = network.RunConfig{Warmup: 200, Measure: 1500, Drain: 20000, Seed: 3, DeadlockCheck: 64}
					n, r := randomRun(t, c)
					if r.Deadlock == nil && r.MeasuredDelivered != r.MeasuredPackets {
						t.Fatalf("measured %d, delivered %d, no deadlock", r.MeasuredPackets, r.MeasuredDelivered)
					}
					depth := max(c.Buffers.Input, c.Buffers.Output)
					if r.MaxBufferOccupancy > depth {
						t.Fatalf("buffer held %d flits, depth %d", r.MaxBufferOccupancy, depth)
					}
					_ = n
				})
			}
		}
	}
}

func sign(x int) int {
	if x > 0 {
		return 1
	}
	return 0
}

// TestDeterminism: the same config and seed give identical JSON.
func TestDeterminism(t *testing.T) {
	c := network.Default()
	c.Run.Measure = 2000
	c.Traffic.Load = 0.35
	out := func(c network.Config) string {
		r, err := network.Run(c)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(r)
		return string(b)
	}
	a, b := out(c), out(c)
	if a != b {
		t.Fatalf("two runs with seed %d differ", c.Run.Seed)
	}
	c.Run.Seed = 2
	if out(c) == a {
		t.Fatal("a different seed gave an identical run")
	}
}
