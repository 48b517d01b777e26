package network

import (
	"runtime/debug"
	"testing"

	"github.com/flitsim/flitsim/network/topology"
)

// Builds that overlap share the collector's hold: it stays off until the
// last one ends, whatever order they end in, and the setting from before
// comes back.
func TestHoldGCOverlapping(t *testing.T) {
	old := debug.SetGCPercent(77)
	defer debug.SetGCPercent(old)
	a := holdGC()
	b := holdGC()
	if p := debug.SetGCPercent(-1); p != -1 {
		t.Fatalf("held by two builds: GC percent %d, want off (-1)", p)
	}
	a()
	if p := debug.SetGCPercent(-1); p != -1 {
		t.Fatalf("held by one build: GC percent %d, want off (-1)", p)
	}
	b()
	if p := debug.SetGCPercent(77); p != 77 {
		t.Fatalf("released: GC percent %d, want the 77 from before", p)
	}
}

// isLarge counts ports, not switches or terminals: the 16-cube (17 ports
// a switch, 1 114 112 in all) is large, the 15-cube (524 288) is not.
func TestIsLarge(t *testing.T) {
	for _, x := range []struct {
		d    int
		want bool
	}{{15, false}, {16, true}} {
		topo, err := topology.Build(topology.Spec{Kind: "hypercube", D: x.d, Routing: "ecube"})
		if err != nil {
			t.Fatal(err)
		}
		if got := isLarge(topo); got != x.want {
			t.Errorf("%d-cube: isLarge %v, want %v", x.d, got, x.want)
		}
	}
}
