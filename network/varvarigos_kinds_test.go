package network

import (
	"fmt"
	"math"
	"testing"

	"github.com/flitsim/flitsim/network/topology"
)

// TestVarvarigosKindsDeliverAllPairs runs, on the flit kernel, one 4-flit
// packet between every ordered pair of terminals (self-pairs included),
// all injected at cycle 0, on each hypercube-like kind of Varvarigos 1992
// ch. 7 with each of its routings, under wormhole switching (with input,
// output and both buffers) and store-and-forward. Every packet must be
// delivered with no deadlock or broken invariant, and the mean number of
// switches crossed must be the traced routes' mean plus one.
func TestVarvarigosKindsDeliverAllPairs(t *testing.T) {
	for _, tc := range []struct {
		topo    TopologyConfig
		routing string
	}{
		{TopologyConfig{Kind: "folded-cube", D: 4}, ""},
		{TopologyConfig{Kind: "folded-cube", D: 5}, ""},
		{TopologyConfig{Kind: "pseudocube", D: 4}, ""},
		{TopologyConfig{Kind: "permutation-cube", D: 4}, ""},
		{TopologyConfig{Kind: "permutation-cube", D: 4, Symmetric: true}, ""},
		{TopologyConfig{Kind: "enhanced-cube", D: 4}, "greedy"},
		{TopologyConfig{Kind: "enhanced-cube", D: 4}, "valiant"},
	} {
		spec := tc.topo
		spec.Routing, spec.Seed = tc.routing, 1
		topo, err := topology.Build(spec)
		if err != nil {
			t.Fatal(err)
		}
		routes, err := topology.RouteDistances(topo, nil)
		if err != nil {
			t.Fatal(err)
		}
		n := topo.Terminals()
		for _, sw := range []struct {
			mode    string
			in, out int
		}{{"wormhole", 4, 0}, {"wormhole", 0, 1}, {"wormhole", 2, 1}, {"saf", 4, 0}} {
			name := fmt.Sprintf("%s d=%d sym=%v %s %s in=%d out=%d", tc.topo.Kind, tc.topo.D, tc.topo.Symmetric, topo.Router.Name(), sw.mode, sw.in, sw.out)
			c := Default()
			c.Topology = tc.topo
			c.Routing = tc.routing
			c.Switching = sw.mode
			c.Buffers = BufferConfig{Input: sw.in, Output: sw.out}
			c.Run.Seed = 1
			c.Run.Workers = 1
			c.Traffic.Packets = nil
			for src := range n {
				for dst := range n {
					c.Traffic.Packets = append(c.Traffic.Packets, fmt.Sprintf("0,%d,%d,4", src, dst))
				}
			}
			net, err := Build(c)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			r, err := net.RunPlain()
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if r.Deadlock != nil || r.Stall != nil || r.Violations.Total() != 0 || r.DeliveredPackets != int64(n*n) {
				t.Fatalf("%s: delivered %d of %d, deadlock %v, stall %v, violations %+v", name, r.DeliveredPackets, n*n, r.Deadlock, r.Stall, r.Violations)
			}
			if want := routes.MeanAll() + 1; math.Abs(r.Hops-want) > 1e-9 {
				t.Errorf("%s: %v switches per packet, the routes cross %v", name, r.Hops, want)
			}
		}
	}
}

// An enhanced cube may draw an extra link from a node to itself, and give
// a router several extra in-links (ports above the terminal's): a member
// with both routes and delivers every pair, greedy and valiant, wormhole.
func TestEnhancedCubeSelfLoopAndExtraPorts(t *testing.T) {
	const d = 3
	seed := uint64(0)
	for s := uint64(1); s < 200 && seed == 0; s++ {
		topo, err := topology.Build(topology.Spec{Kind: "enhanced-cube", D: d, Seed: s})
		if err != nil {
			t.Fatal(err)
		}
		loop, wide := false, false
		for v, sw := range topo.Switches {
			loop = loop || sw.Out[d].Switch == int32(v)
			wide = wide || len(sw.Out) > d+3
		}
		if loop && wide {
			seed = s
		}
	}
	if seed == 0 {
		t.Fatal("no seed below 200 draws a self-loop and a router with two extra in-links")
	}
	for _, routing := range []string{"greedy", "valiant"} {
		c := Default()
		c.Topology = TopologyConfig{Kind: "enhanced-cube", D: d}
		c.Routing = routing
		c.Run.Seed = seed
		c.Run.Workers = 1
		c.Traffic.Packets = nil
		for src := range 1 << d {
			for dst := range 1 << d {
				c.Traffic.Packets = append(c.Traffic.Packets, fmt.Sprintf("0,%d,%d,6", src, dst))
			}
		}
		net, err := Build(c)
		if err != nil {
			t.Fatal(err)
		}
		r, err := net.RunPlain()
		if err != nil {
			t.Fatal(err)
		}
		if r.Deadlock != nil || r.Stall != nil || r.Violations.Total() != 0 || r.DeliveredPackets != 64 {
			t.Fatalf("%s seed %d: delivered %d of 64, deadlock %v, violations %+v", routing, seed, r.DeliveredPackets, r.Deadlock, r.Violations)
		}
	}
}
