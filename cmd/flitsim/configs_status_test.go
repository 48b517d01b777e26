package main

import (
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/configs"
)

// statusLine is the one line by which a shipped config states how its run
// ends, e.g. "# status: ok (exit 0)" or "# status: ok (exit 0), warning:
// near saturation" (the kinds of warning, a warning's text up to its first
// ": ", comma-separated in the order the run gives them).
var statusLine = regexp.MustCompile(`(?m)^# status: ([a-z]+) \(exit ([0-9]+)\)(?:, warning: (.+))?$`)

// shippedExperiments lists every experiment file shipped: the *.yaml files
// under configs/ (testdata left out).
func shippedExperiments(t *testing.T) []string {
	t.Helper()
	files, err := configs.Shipped("../../configs")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 30 {
		t.Fatalf("only %d shipped configs found: %q", len(files), files)
	}
	return files
}

// TestShippedConfigStatus runs every shipped config as a user would
// (flitsim run -c FILE, in full: each takes at most a few seconds) and
// checks the status, exit status and warnings its status line states.
func TestShippedConfigStatus(t *testing.T) {
	for _, f := range shippedExperiments(t) {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m := statusLine.FindAllStringSubmatch(string(text), -1)
		if len(m) != 1 {
			t.Errorf("%s: %d lines %q, want one", f, len(m), "# status: STATUS (exit N)[, warning: KIND, ...]")
			continue
		}
		code, out, errOut := runMain(t, "run", "-c", f, "--format", "json")
		var r struct {
			Status   string   `json:"status"`
			Warnings []string `json:"warnings"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Errorf("%s: exit %d, no result (%v; stderr %q)", f, code, err, errOut)
			continue
		}
		var kinds []string
		for _, w := range r.Warnings {
			if k, _, _ := strings.Cut(w, ": "); !slices.Contains(kinds, k) {
				kinds = append(kinds, k)
			}
		}
		got := "# status: " + r.Status + " (exit " + strconv.Itoa(code) + ")"
		if len(kinds) > 0 {
			got += ", warning: " + strings.Join(kinds, ", ")
		}
		if got != m[0][0] {
			t.Errorf("%s says %q; its run ends %q (warnings %q)", f, m[0][0], got, r.Warnings)
		}
	}
}

// TestMeshCompleteLoads checks what mesh_complete.yaml's comment says of
// higher loads: at 0.3 ok but near saturation (latency p99 past 10× the
// zero-load latency), at ring_deadlock.yaml's 0.8 saturated (exit 4).
func TestMeshCompleteLoads(t *testing.T) {
	const f = "../../configs/mesh_complete.yaml"
	code, _, errOut := runMain(t, "run", "-c", f, "--set", "traffic.load=0.3")
	if code != exitOK || !strings.Contains(errOut, "flitsim: warning: near saturation: latency p99") {
		t.Errorf("load 0.3: exit %d, stderr %q", code, errOut)
	}
	code, _, errOut = runMain(t, "run", "-c", f, "--set", "traffic.load=0.8")
	if code != exitSaturated || !strings.HasPrefix(errOut, "flitsim: saturated") {
		t.Errorf("load 0.8: exit %d, stderr %q", code, errOut)
	}
}
