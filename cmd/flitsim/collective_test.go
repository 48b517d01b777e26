package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// flitsim collective prints the JSON fields; TE on the 5-cube
// takes N/2 = 16 slots with every link busy.
func TestCollectiveJSON(t *testing.T) {
	var out, errb bytes.Buffer
	code := realMain([]string{"collective", "--task", "te", "--set", "topology.kind=hypercube", "--set", "topology.d=5", "--format", "json"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var m map[string]any
	if err := json.Unmarshal(out.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"task", "slots", "formula", "lower_bound", "packets", "link_utilisation", "delivered", "per_slot"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	if m["slots"] != 16.0 || m["formula"] != 16.0 || m["delivered"] != true || m["link_utilisation"] != 1.0 {
		t.Errorf("TE on the 5-cube: %v", m)
	}
}

func TestCollectiveTableAndBadInput(t *testing.T) {
	var out, errb bytes.Buffer
	if code := realMain([]string{"collective", "--task", "kl-exchange", "--set", "task.k=2", "--set", "task.l=4", "--set", "topology.kind=hypercube", "--set", "topology.d=4"}, &out, &errb); code != 0 || !strings.Contains(out.String(), "slots             7") {
		t.Fatalf("exit %d:\n%s%s", code, out.String(), errb.String())
	}
	for _, args := range [][]string{
		{"collective", "--task", "nope", "--set", "topology.kind=hypercube", "--set", "topology.d=3"},
		{"collective", "--task", "kl-exchange", "--set", "task.k=3", "--set", "task.l=2", "--set", "topology.kind=hypercube", "--set", "topology.d=3"},
		{"collective", "--task", "te", "--set", "task.q=1", "--set", "topology.kind=hypercube", "--set", "topology.d=3"},
		{"collective", "--task", "te"},
	} {
		out.Reset()
		errb.Reset()
		if code := realMain(args, &out, &errb); code != 2 || strings.Count(strings.TrimSpace(errb.String()), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q: want 2 and one line", args, code, errb.String())
		}
	}
}
