package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// The mesh and torus run dynamic broadcasting as issue 16 writes it: the
// table names p and d, the JSON carries k, and the 4×4 torus's ρ* is
// §7.4's 0.45455.
func TestCollectiveDynamicMesh(t *testing.T) {
	base := []string{"collective", "--task", "dynamic", "--set", "topology.kind=torus", "--set", "topology.k=4", "--set", "topology.n=2", "--set", "task.periods=400"}
	var out, errb bytes.Buffer
	if code := realMain(append(base, "--set", "task.rho=0.3"), &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"torus, p = 4, d = 2, N = 16", "ρ* = 1/(1 + V/(NX)) = 0.45455", "measured inside the bound: true", "delivered true", "split PMNB of Theorem 6"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if code := realMain(append(base, "--set", "task.rho=0.3", "-f", "json"), &out, &errb); code != 0 {
		t.Fatalf("json: exit %d: %s", code, errb.String())
	}
	var r map[string]any
	if err := json.Unmarshal(out.Bytes(), &r); err != nil || r["k"] != 4.0 || r["d"] != 2.0 || r["v"] != 4.5 {
		t.Errorf("JSON: %v: k %v d %v v %v", err, r["k"], r["d"], r["v"])
	}
	errb.Reset()
	if code := realMain([]string{"collective", "--task", "dynamic", "--set", "topology.kind=torus", "--set", "topology.k=2", "--set", "topology.n=2"}, &out, &errb); code == 0 || !strings.Contains(errb.String(), "topology.k") {
		t.Errorf("torus k = 2: exit %d, %q", code, errb.String())
	}
}
