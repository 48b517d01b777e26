package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// flitsim collective --task dynamic prints the mean delay, the theorem's
// bound and the verdict; a ρ list sweeps and --plot draws the sweep.
func TestCollectiveDynamic(t *testing.T) {
	base := []string{"collective", "--task", "dynamic", "--set", "topology.kind=hypercube", "--set", "topology.d=3", "--set", "task.periods=400"}
	var out, errb bytes.Buffer
	if code := realMain(append(base, "--set", "task.rho=0.3"), &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"mean delay", "theorem (Eq. 4.1)", "measured inside the bound: true", "ρ* = 1/(1 + V/(NX)) = 0.53846", "stability          stable", "delivered true"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	svg := filepath.Join(t.TempDir(), "d.svg")
	if code := realMain(append(base, "--set", "task.rho=0.2,0.4,0.7", "--set", "task.intervals=fixed,hardware", "--plot", svg, "-f", "json"), &out, &errb); code != 0 {
		t.Fatalf("sweep: exit %d: %s", code, errb.String())
	}
	var runs []map[string]any
	if err := json.Unmarshal(out.Bytes(), &runs); err != nil || len(runs) != 6 {
		t.Fatalf("sweep JSON: %v, %d runs", err, len(runs))
	}
	if runs[2]["verdict"] != "unstable" || runs[2]["theorem_bound"] != nil || runs[0]["within_bound"] != true || runs[5]["intervals"] != "hardware" {
		t.Errorf("sweep: %v\n%v", runs[2], runs[5])
	}
	if b, err := os.ReadFile(svg); err != nil || !strings.Contains(string(b), "Eq. 4.1 upper bound") {
		t.Errorf("plot: %v", err)
	}
	for _, args := range [][]string{
		append(base, "--set", "task.rho=2"),
		append(base, "--set", "task.rhos=0.5"),
		append(base, "--plot", "x.pdf"),
		{"collective", "--task", "te", "--plot", "x.svg", "--set", "topology.kind=hypercube", "--set", "topology.d=3"},
	} {
		out.Reset()
		errb.Reset()
		if code := realMain(args, &out, &errb); code != 2 || strings.Count(strings.TrimSpace(errb.String()), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q: want 2 and one line", args, code, errb.String())
		}
	}
}
