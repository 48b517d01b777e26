package network

import (
	"fmt"
	"math"
	"testing"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/network/topology"
)

// TestBrebnerTopologiesDeliverEveryPair runs, in the flit kernel, one
// packet for every (source, destination) pair of each of Brebner's
// networks and routes (issue 15 item 2), spaced so that they do not meet,
// and checks that all arrive and that the mean number of routers crossed
// is the traced routes' mean (src = dst included: the d-shuffle's standard
// route then goes n times round a self-loop).
func TestBrebnerTopologiesDeliverEveryPair(t *testing.T) {
	cases := []struct {
		spec    TopologyConfig
		routing string
	}{
		{TopologyConfig{Kind: "dshuffle", D: 2, N: 4}, "standard"},
		{TopologyConfig{Kind: "dshuffle", D: 3, N: 2}, "standard"},
		{TopologyConfig{Kind: "dshuffle", D: 2, N: 4}, "shortest"},
		{TopologyConfig{Kind: "ccc", N: 3}, "standard"},
		{TopologyConfig{Kind: "ccc", N: 2, Tie: "random"}, "standard"},
		{TopologyConfig{Kind: "ccc-plus", N: 3}, "upfal"},
		{TopologyConfig{Kind: "shuffle-exchange", N: 4}, "standard"},
		{TopologyConfig{Kind: "hypercube", D: 4}, "random-order"},
		{TopologyConfig{Kind: "hypercube", D: 4}, "semi-strict"},
		{TopologyConfig{Kind: "mesh", K: 5, N: 2}, "random-order"},
		{TopologyConfig{Kind: "torus", K: 5, N: 2}, "random-order"},
		{TopologyConfig{Kind: "torus", K: 4, N: 2, Tie: "random", Order: topology.IntList{1, 0}}, "dor"},
	}
	for _, tc := range cases {
		spec := tc.spec
		spec.Routing = tc.routing
		topo, err := topology.Build(spec)
		if err != nil {
			t.Fatal(err)
		}
		n := topo.Terminals()
		c := Default()
		c.Topology = tc.spec
		c.Routing = tc.routing
		// A worm crossing a self-loop re-enters the buffer it is leaving:
		// room for all its 4 flits and one more.
		c.Buffers = BufferConfig{Input: 8}
		c.Run.Workers = 1
		c.Traffic.Packets = nil
		hops := 0
		for s := range n {
			for d := range n {
				c.Traffic.Packets = append(c.Traffic.Packets, fmt.Sprintf("%d,%d,%d,4", 40*(s*n+d), s, d))
				h, err := topology.Trace(topo, &flit.Worm{Src: int32(s), Dst: int32(d)})
				if err != nil {
					t.Fatal(err)
				}
				hops += len(h)
			}
		}
		res, err := Run(c)
		if err != nil {
			t.Fatalf("%s/%s: %v", tc.spec.Kind, tc.routing, err)
		}
		want := float64(hops) / float64(n*n)
		if res.DeliveredPackets != int64(n*n) || res.Deadlock != nil || res.Violations.Total() != 0 ||
			math.Abs(res.Hops-want) > 1e-9 {
			t.Errorf("%s/%s: delivered %d of %d, hops %.4f (traced %.4f), deadlock %v, violations %+v",
				tc.spec.Kind, tc.routing, res.DeliveredPackets, n*n, res.Hops, want, res.Deadlock, res.Violations)
		}
	}
}
