package topology_test

import (
	"encoding/json"
	"testing"

	"github.com/flitsim/flitsim/network"
)

// runJSON runs c and returns its result as JSON without the config (which
// names the kind).
func runJSON(t *testing.T, c network.Config) []byte {
	t.Helper()
	r, err := network.Run(c)
	if err != nil {
		t.Fatal(err)
	}
	if r.MeasuredDelivered == 0 || r.MeasuredDelivered != r.MeasuredPackets || r.Deadlock != nil || r.Violations.Total() != 0 {
		t.Fatalf("%s: delivered %d of %d, deadlock %v, violations %+v", c.Topology.Kind, r.MeasuredDelivered, r.MeasuredPackets, r.Deadlock, r.Violations)
	}
	r.Config = network.Config{}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFileRunsLikeTheBuiltin simulates the hand-written 2×2 mesh and the
// 5-node ring against the built-in mesh and torus: every measured figure
// (latencies, hops, throughput, channel loads and names, buffer
// occupancy) is the same, under uniform and transpose traffic.
func TestFileRunsLikeTheBuiltin(t *testing.T) {
	cases := []struct {
		file    string
		builtin network.TopologyConfig
		pattern string
	}{
		{"testdata/mesh2x2.topo", network.TopologyConfig{Kind: "mesh", K: 2, N: 2}, "uniform"},
		{"testdata/mesh2x2.topo", network.TopologyConfig{Kind: "mesh", K: 2, N: 2}, "transpose"},
		{"testdata/ring5.topo", network.TopologyConfig{Kind: "torus", K: 5, N: 1}, "uniform"},
	}
	for _, c := range cases {
		cfg := network.Default()
		cfg.Traffic.Pattern, cfg.Traffic.Load = c.pattern, 0.3
		cfg.Run.Warmup, cfg.Run.Measure, cfg.Run.Seed, cfg.Run.Channels = 200, 2000, 7, true
		cfg.Topology = c.builtin
		want := runJSON(t, cfg)
		cfg.Topology = network.TopologyConfig{Kind: "file", File: c.file}
		got := runJSON(t, cfg)
		if c.file == "testdata/ring5.topo" {
			// Its labels differ (n0.out[1], not r(0).out[x+]): compare the figures.
			got, want = stripNames(t, got), stripNames(t, want)
		}
		if string(got) != string(want) {
			t.Errorf("%s %s:\n got %s\nwant %s", c.file, c.pattern, got, want)
		}
	}
}

// stripNames removes the channel names from a result's JSON.
func stripNames(t *testing.T, b []byte) []byte {
	t.Helper()
	var r network.Result
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	r.BusiestChannel = ""
	for i := range r.Channels {
		r.Channels[i].Channel, r.Channels[i].To = "", ""
	}
	out, _ := json.Marshal(r)
	return out
}

// TestFileDirectedRuns: a Directed network from a file (ports with a link
// out but none in) delivers every packet on the kernel.
func TestFileDirectedRuns(t *testing.T) {
	cfg := network.Default()
	cfg.Topology = network.TopologyConfig{Kind: "file", File: "testdata/directed3.topo"}
	cfg.Traffic.Load = 0.1
	cfg.Run.Warmup, cfg.Run.Measure = 100, 2000
	runJSON(t, cfg)
}
