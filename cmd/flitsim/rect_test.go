package main

import (
	"strings"
	"testing"
)

// Rectangular grids from the command line (topology.k per dimension): the
// distances command measures the Manhattan / torus mean on the built
// network and its DOR routes. For a line of k nodes Σ_{i,j}|i−j| =
// k(k²−1)/3, for a ring k·Σ_d min(d, k−d); a 2-D grid sums each line's
// total times the other side squared.
func TestRectangularDistances(t *testing.T) {
	for _, c := range []struct {
		args       []string
		n, diam    int
		meanAll    float64
		routesDiam int
	}{
		{[]string{"--set", "topology.k=3,5"}, 15, 6, (25*8 + 9*40) / 225.0, 6},
		{[]string{"--set", "topology.kind=torus", "--set", "topology.k=4,6"}, 24, 5, (36*16 + 16*54) / 576.0, 5},
	} {
		r := distancesJSON(t, c.args...)
		if r.Terminals != c.n || r.Graph == nil || r.Routes == nil {
			t.Fatalf("%v: %+v", c.args, r)
		}
		if r.Graph.Diameter != c.diam || r.Routes.Diameter != c.routesDiam || !rectNear(r.Graph.MeanAll, c.meanAll) || !rectNear(r.Routes.MeanAll, c.meanAll) {
			t.Errorf("%v: graph %d / %.6f, routes %d / %.6f; want %d / %.6f", c.args, r.Graph.Diameter, r.Graph.MeanAll,
				r.Routes.Diameter, r.Routes.MeanAll, c.diam, c.meanAll)
		}
	}
}

func rectNear(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

func TestRectangularRunAndRefusals(t *testing.T) {
	code, out, stderr := runMain(t, "run", "--set", "topology.kind=torus", "--set", "topology.k=4,6", "--set", "run.measure=200")
	if code != 0 || !strings.Contains(out, "torus k=4,6 n=2") || !strings.Contains(out, "24") {
		t.Fatalf("exit %d: %s%s", code, out, stderr)
	}
	wantFail(t, 2, []string{"collective", "--task", "mnb", "--set", "topology.k=4,6"},
		"topology.k: 4,6 is not allowed", "a single integer for a collective")
	wantFail(t, 2, []string{"layout", "--set", "topology.kind=torus", "--set", "topology.k=4,6"},
		"topology.k: 4,6 is not allowed", "square k×k tori")
	wantFail(t, 2, []string{"run", "--set", "topology.kind=hypercube", "--set", "topology.d=3", "--set", "topology.k=2,4"},
		"--set topology.k: 2,4 is not allowed", "no value for hypercube")
	wantFail(t, 2, []string{"run", "--set", "topology.k=4,6", "--set", "traffic.pattern=transpose"},
		"traffic.pattern: transpose is not allowed")
}
