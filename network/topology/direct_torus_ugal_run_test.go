package topology_test

import (
	"errors"
	"testing"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/network"
)

// UGAL on the 8×8 torus with four VCs (two dateline classes per leg) at
// load 0.9, tornado and bit-complement (and rlb, on the same legs, under
// tornado), 16-flit packets in 4-flit VCs: no
// deadlock, no stall, no broken invariant over 10⁵ cycles (10⁴ with
// -short), and some packets do go round (tornado's minimal route crosses
// 7 switches; the mean is more). With three VCs it is refused, naming
// routing.
func TestUGALTorus(t *testing.T) {
	cycles := int64(100_000)
	if testing.Short() {
		cycles = 10_000
	}
	for _, rp := range [][2]string{{"ugal", "tornado"}, {"ugal", "bit-complement"}, {"rlb", "tornado"}} {
		routing, pattern := rp[0], rp[1]
		c := turnMesh(routing, pattern, 4, 0.9)
		c.Topology = network.TopologyConfig{Kind: "torus", K: 8, N: 2}
		c.Buffers.Input, c.Traffic.Flits = 4, network.FlitRange{Min: 16, Max: 16}
		c.Run.Warmup, c.Run.Measure = 0, cycles
		r := run(t, c)
		if r.Deadlock != nil || r.Stall != nil || r.Violations.Total() != 0 || r.Throughput < 0.02 {
			t.Errorf("%s, %s: deadlock %v, stall %v, violations %+v, accepted %.3f", routing, pattern, r.Deadlock, r.Stall, r.Violations, r.Throughput)
		}
		if pattern == "tornado" && r.Hops <= 7.01 {
			t.Errorf("%s, tornado: %.2f switches a packet on average: no packet went round", routing, r.Hops)
		}
	}
	c := turnMesh("ugal", "tornado", 3, 0.1)
	c.Topology = network.TopologyConfig{Kind: "torus", K: 8, N: 2}
	_, err := network.Run(c)
	var ie *inputerr.Error
	if !errors.As(err, &ie) || ie.Key != "routing" {
		t.Errorf("ugal on 3 VCs: %v, want an input error naming routing", err)
	}
}
