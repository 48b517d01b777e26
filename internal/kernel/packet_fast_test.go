package kernel_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network"
)

// fastCase is a packet-router configuration the fast step takes.
type fastCase struct {
	topo    network.TopologyConfig
	routing string
	valiant string
	pattern string
	h       int     // batch: packets per node (0: open loop at load)
	load    float64 // open loop
	order   string  // queue.arrival_order
}

var fastCases = []fastCase{
	{network.TopologyConfig{Kind: "hypercube", D: 5}, "random-order", "separate", "identity", 1, 0, ""},
	{network.TopologyConfig{Kind: "hypercube", D: 4}, "ecube", "", "random-permutation", 3, 0, ""},
	{network.TopologyConfig{Kind: "hypercube", D: 4}, "semi-strict", "separate", "complement", 2, 0, "scan"},
	{network.TopologyConfig{Kind: "dshuffle", D: 2, N: 4}, "standard", "separate", "random-permutation", 1, 0, ""},
	{network.TopologyConfig{Kind: "dshuffle", D: 3, N: 3}, "standard", "separate", "identity", 2, 0, "scan"},
	{network.TopologyConfig{Kind: "ccc", N: 3}, "", "separate", "random-permutation", 1, 0, ""},
	{network.TopologyConfig{Kind: "shuffle-exchange", N: 4}, "", "separate", "shift", 1, 0, ""},
	{network.TopologyConfig{Kind: "torus", K: 5, N: 2}, "random-order", "", "uniform", 0, 0.5, ""},
	{network.TopologyConfig{Kind: "mesh", K: 4, N: 2}, "dor", "separate", "random-permutation", 2, 0, ""},
	{network.TopologyConfig{Kind: "mesh", K: 4, N: 2}, "dor", "", "uniform", 0, 0.3, "scan"},
	{network.TopologyConfig{Kind: "torus", K: 80, N: 1}, "", "", "tornado", 1, 0, ""}, // (routes longer than a record holds)
}

// TestPacketFastEqualsGeneral: on a table of topologies, routes, Valiant's
// phases, traffic and seeds, the packet router's fast step gives the same
// result, byte for byte (a batch's repeated experiments included), as
// the general step, and the fast step did run.
func TestPacketFastEqualsGeneral(t *testing.T) {
	for _, tc := range fastCases {
		for _, seed := range []uint64{1, 7} {
			c := packetConfig(tc.topo, network.QueueConfig{ArrivalOrder: tc.order}, tc.load)
			c.Routing, c.Valiant, c.Traffic.Pattern, c.Run.Seed = tc.routing, tc.valiant, tc.pattern, seed
			if tc.h > 0 {
				c.Traffic.Mode, c.Traffic.H, c.Run.Experiments = "batch", tc.h, 3
			}
			name := fmt.Sprintf("%s/%s/%s/%d", tc.topo.Kind, tc.routing, tc.pattern, seed)
			fast, steps := packetRun(t, c, false)
			general, gsteps := packetRun(t, c, true)
			if steps == 0 || gsteps != 0 {
				t.Fatalf("%s: %d fast cycles, %d with the general step forced", name, steps, gsteps)
			}
			if fast != general {
				i := 0
				for i < min(len(fast), len(general)) && fast[i] == general[i] {
					i++
				}
				t.Fatalf("%s: the fast step's result differs from the general step's at byte %d:\n%.200s\n%.200s", name, i, fast[i:], general[i:])
			}
		}
	}
}

// packetRun runs c, with the general step forced or not, and returns the
// result's JSON and the number of fast cycles.
func packetRun(t *testing.T, c network.Config, general bool) (string, int64) {
	t.Helper()
	defer kernel.PacketGeneralOnly(kernel.PacketGeneralOnly(general))
	n, err := network.Build(c)
	if err != nil {
		t.Fatal(err)
	}
	r, err := n.RunPlain()
	if err != nil {
		t.Fatal(err)
	}
	if r.DeliveredPackets == 0 || r.Violations.Total() != 0 {
		t.Fatalf("delivered %d, violations %+v", r.DeliveredPackets, r.Violations)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b), kernel.Of(n).PacketFastSteps()
}
