package network

import (
	"testing"
)

// A batch on a 3×5 mesh and a 4×6 torus (topology.k per dimension) on the
// packet router delivers every packet, with the mean hop count of uniform
// destinations within the grid's diameter.
func TestRectangularBatchDelivers(t *testing.T) {
	for _, c := range []struct {
		kind  string
		sides IntList
		diam  float64
	}{{"mesh", IntList{3, 5}, 2 + 4}, {"torus", IntList{4, 6}, 2 + 3}} {
		cfg := Default()
		cfg.Topology = TopologyConfig{Kind: c.kind, N: 2}
		cfg.Topology.SetSides(c.sides)
		cfg.Switching, cfg.Traffic.Mode, cfg.Traffic.H = "packet", "batch", 4
		cfg.Traffic.Flits = FlitRange{Min: 1, Max: 1}
		cfg.Run.Experiments = 3
		if err := Validate(&cfg); err != nil {
			t.Fatal(err)
		}
		n, err := Build(cfg)
		if err != nil {
			t.Fatal(err)
		}
		res, err := n.RunPlain()
		if err != nil {
			t.Fatal(err)
		}
		// The counts describe the first experiment; Experiments all three.
		want := int64(c.sides[0] * c.sides[1] * 4)
		if res.Status != "ok" || res.InjectedPackets != want || res.DeliveredPackets != want {
			t.Errorf("%s %v: status %s, injected %d delivered %d, want %d", c.kind, c.sides, res.Status, res.InjectedPackets, res.DeliveredPackets, want)
		}
		if e := res.Experiments; e == nil || e.Count != 3 || e.Incomplete != 0 || e.Violations.Total() != 0 {
			t.Errorf("%s %v: experiments %+v, want 3 complete without violations", c.kind, c.sides, e)
		}
		// Hops counts routers passed: links + 1.
		if res.Hops < 1 || res.Hops > c.diam+1 {
			t.Errorf("%s %v: mean %.3f routers passed, want 1 to %g", c.kind, c.sides, res.Hops, c.diam+1)
		}
	}
}
