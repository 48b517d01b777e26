package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

type distancesOut struct {
	Topology  string `json:"topology"`
	Routing   string `json:"routing"`
	Seed      uint64 `json:"seed"`
	Terminals int    `json:"terminals"`
	Graph     *struct {
		Diameter  int     `json:"diameter"`
		MeanAll   float64 `json:"mean_all"`
		Histogram []int64 `json:"histogram"`
	} `json:"graph"`
	Routes *struct {
		Diameter     int     `json:"diameter"`
		MeanAll      float64 `json:"mean_all"`
		MeanDistinct float64 `json:"mean_distinct"`
		Histogram    []int64 `json:"histogram"`
	} `json:"routes"`
	Notes []string `json:"notes"`
}

func distancesJSON(t *testing.T, args ...string) distancesOut {
	t.Helper()
	code, out, stderr := runMain(t, append(append([]string{"distances"}, args...), "--format", "json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r distancesOut
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// The folded cube's graph and routes: diameter ⌈d/2⌉, MID from the paper's
// formula (d = 5: 2.0625), histogram 1, 6, 15, 10 per node.
func TestDistancesFoldedCube(t *testing.T) {
	r := distancesJSON(t, "--set", "topology.kind=folded-cube", "--set", "topology.d=5")
	if r.Graph == nil || r.Routes == nil || r.Terminals != 32 || r.Routing != "shortest" {
		t.Fatalf("%+v", r)
	}
	for _, s := range []string{fmt.Sprint(r.Graph.Diameter, r.Graph.MeanAll, r.Graph.Histogram), fmt.Sprint(r.Routes.Diameter, r.Routes.MeanAll, r.Routes.Histogram)} {
		if s != "3 2.0625 [32 192 480 320]" {
			t.Errorf("got %s", s)
		}
	}
}

// --seed draws another member of a random class; a MIN has no graph part,
// and its self-pairs are not counted in the distinct mean.
func TestDistancesSeedAndMIN(t *testing.T) {
	a := distancesJSON(t, "--set", "topology.kind=pseudocube", "--set", "topology.d=6", "--seed", "2")
	b := distancesJSON(t, "--set", "topology.kind=pseudocube", "--set", "topology.d=6", "--seed", "3")
	if a.Seed != 2 || b.Seed != 3 || fmt.Sprint(a.Graph) == fmt.Sprint(b.Graph) {
		t.Errorf("seeds 2 and 3: %+v, %+v", a.Graph, b.Graph)
	}
	if a.Routes.Diameter != 6 || a.Routes.MeanAll != 3 || a.Graph.Diameter >= 6 {
		t.Errorf("pseudocube d=6: graph %+v routes %+v", a.Graph, a.Routes)
	}
	m := distancesJSON(t, "--set", "topology.kind=omega", "--set", "topology.k=2", "--set", "topology.n=3")
	if m.Graph != nil || len(m.Notes) != 1 || m.Routes.MeanDistinct != 2 || m.Routes.Diameter != 2 {
		t.Errorf("omega: %+v", m)
	}
	code, out, _ := runMain(t, "distances", "--set", "topology.kind=folded-cube", "--set", "topology.d=4")
	if code != 0 || !strings.Contains(out, "routes pairs at 0, 1, … links") || !strings.Contains(out, "16, 80, 160") {
		t.Errorf("table: exit %d\n%s", code, out)
	}
}

func TestDistancesBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--set", "topology.kind=hypercube", "--set", "topology.d=15"}, "topology: 32768 terminals is not allowed (allowed: at most 16384 terminals"},
		{[]string{"--set", "topology.kind=folded-cube", "--set", "topology.d=1"}, "topology.d: 1 is not allowed"},
		{[]string{"--format", "svg"}, "--format"},
		{[]string{"extra"}, "unexpected argument"},
	} {
		code, _, stderr := runMain(t, append([]string{"distances"}, c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v: exit %d, %q", c.args, code, stderr)
		}
	}
}
