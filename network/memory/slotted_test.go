package memory

import (
	"strings"
	"testing"

	"github.com/flitsim/flitsim/network"
)

// TestSlottedRouterEstimate: the slotted router's packets are counted as
// its link places, 2d·N × (2 + slotted.k) × 16 B, so a huge slotted.k is
// refused before anything is built.
func TestSlottedRouterEstimate(t *testing.T) {
	c := network.Default()
	c.Topology = network.TopologyConfig{Kind: "hypercube", D: 10}
	c.Switching, c.Slotted.K, c.Traffic.P0 = "slotted", "3", 0.5
	e, err := ForRun(&c)
	if err != nil {
		t.Fatal(err)
	}
	var got float64
	for _, term := range e.Terms {
		if strings.Contains(term.What, "slotted router") {
			got = term.Bytes
		}
	}
	if want := 2.0 * 10 * 1024 * 5 * SlottedPlace; got != want {
		t.Errorf("slotted router term %g bytes, want %g", got, want)
	}
	c.Topology.D, c.Slotted.K, c.Run.MaxMemory = 20, "1024", 1<<34
	if e, err = ForRun(&c); err != nil || e.Check() == nil {
		t.Errorf("d = 20, k = 1024 in 16 GiB: not refused (%v)", err)
	}
}

// TestSlottedLinksPerScheme: the slotted router's links are counted as its
// model has them — 2d·N for the descending-dimensions node, d·N for the
// deflecting crossbar node (its d hypercube links, no internal ones), and
// two per folded-butterfly node (d·2^d nodes: the same 2d·2^d).
func TestSlottedLinksPerScheme(t *testing.T) {
	for _, tc := range []struct {
		kind, scheme string
		links        float64
	}{
		{"hypercube", "simple", 2 * 10 * 1024},
		{"hypercube", "deflection-priority", 10 * 1024},
		{"hypercube", "deflection-simple", 10 * 1024},
		{"folded-butterfly", "priority", 2 * 10 * 1024},
	} {
		c := network.Default()
		c.Topology = network.TopologyConfig{Kind: tc.kind, D: 10}
		c.Switching, c.Slotted.Scheme, c.Traffic.P0 = "slotted", tc.scheme, 0.5
		e, err := ForRun(&c)
		if err != nil {
			t.Fatal(err)
		}
		var got float64
		for _, term := range e.Terms {
			if strings.Contains(term.What, "slotted router") {
				got = term.Bytes
			}
		}
		if want := tc.links * 3 * SlottedPlace; got != want { // (k = 0: 3 places)
			t.Errorf("%s %s: slotted router term %g bytes, want %g", tc.kind, tc.scheme, got, want)
		}
	}
}
