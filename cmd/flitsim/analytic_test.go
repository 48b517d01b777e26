package main

import (
	"encoding/json"
	"math"
	"testing"
)

// slottedFields are the fields flitsim analytic and a slotted run share.
type slottedFields struct {
	ThroughputPerNode float64   `json:"throughput_per_node"`
	PType             []float64 `json:"p_type"`
}

func slottedJSON(t *testing.T, args ...string) slottedFields {
	t.Helper()
	code, out, stderr := runMain(t, append(args, "--format", "json")...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, stderr)
	}
	var f slottedFields
	if err := json.Unmarshal([]byte(out), &f); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestAnalyticLinesUpWithRun: flitsim analytic's throughput_per_node and
// p_type are the run's fields of the same names, and agree with a
// simulation at the same keys field by field (within 2 % where the
// thesis's independence approximations are good: k = 0 at Table 5.1's
// peak, the priority scheme at p0 = 1 with k = 0 and k = 1).
func TestAnalyticLinesUpWithRun(t *testing.T) {
	for _, tc := range []struct{ kind, scheme, k, p0 string }{{"hypercube", "simple", "0", "0.3642"}, {"hypercube", "priority", "0", "1"},
		{"hypercube", "priority", "1", "1"}, {"folded-butterfly", "simple", "0", "0.3642"}} {
		scheme := tc.kind + " " + tc.scheme + " k=" + tc.k
		keys := []string{"--set", "topology.kind=" + tc.kind, "--set", "topology.d=8", "--set", "traffic.p0=" + tc.p0,
			"--set", "slotted.scheme=" + tc.scheme, "--set", "slotted.k=" + tc.k}
		an := slottedJSON(t, append([]string{"analytic"}, keys...)...)
		sim := slottedJSON(t, append([]string{"run", "--set", "switching=slotted",
			"--set", "run.warmup=100", "--set", "run.measure=600"}, keys...)...)
		if len(an.PType) != 8 || len(sim.PType) != 8 {
			t.Fatalf("%s: p_type of %d and %d entries, want 8", scheme, len(an.PType), len(sim.PType))
		}
		if math.Abs(an.ThroughputPerNode-sim.ThroughputPerNode) > 0.02*an.ThroughputPerNode {
			t.Errorf("%s: analysis %.4f, simulation %.4f", scheme, an.ThroughputPerNode, sim.ThroughputPerNode)
		}
		for i := range an.PType {
			if math.Abs(an.PType[i]-sim.PType[i]) > 0.02*an.PType[i]+0.001 {
				t.Errorf("%s: p_%d analysis %.4f, simulation %.4f", scheme, i+1, an.PType[i], sim.PType[i])
			}
		}
	}
}

// TestAnalyticBadInput: one line naming the key, exit 2.
func TestAnalyticBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--set", "topology.d=8", "--set", "traffic.p0=1.5"}, "traffic.p0: 1.5 is not allowed"},
		{[]string{"--set", "topology.d=8", "--set", "slotted.k=-1"}, "slotted.k: -1 is not allowed"},
		{[]string{"--set", "topology.d=8", "--scheme", "deflection-simple"}, "slotted.scheme: deflection-simple is not allowed"},
		{[]string{"--set", "topology.d=8", "--set", "topology.kind=mesh"}, "topology.kind: mesh is not allowed"},
		{[]string{"--set", "topology.d=7", "--set", "topology.kind=folded-butterfly", "--scheme", "csr"}, "topology.kind: folded-butterfly is not allowed"},
		{[]string{"--set", "topology.d=7", "--scheme", "csr", "--set", "csr.retry=0"}, "csr.retry: 0 is not allowed"},
		{[]string{"--set", "topology.d=7", "--scheme", "csr", "--set", "csr.retry=1.5"}, "csr.retry: 1.5 is not allowed"},
		{[]string{"--set", "topology.d=7", "--scheme", "csr", "--set", "csr.beta=-1"}, "csr.beta: -1 is not allowed"},
		{[]string{"--set", "topology.d=7", "--scheme", "csr", "--set", "csr.k=1"}, "csr.k: 1 is not allowed"},
		{[]string{"--set", "topology.d=7", "--scheme", "csr", "--set", "traffic.p0=-0.1"}, "traffic.p0: -0.1 is not allowed"},
		{[]string{"--set", "topology.d=7", "--scheme", "csr", "--set", "slotted.k=2"}, "slotted.k: 2 is not allowed"},
		{[]string{"--set", "topology.d=63"}, "topology.d: 63 is not allowed"},
		{[]string{"--set", "topology.d=1"}, "topology.d: 1 is not allowed"},
		{[]string{"--set", "topology.d=8", "--format", "svg"}, "--format"},
	} {
		wantFail(t, 2, append([]string{"analytic"}, tc.args...), tc.want)
	}
}
