package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// The folded-cube tasks run as the issue writes them: TE on the folded
// 4-cube in 5 slots, the split MNB in 15 mini-slots = 3 (printed as 1/5
// mini-slots); bad keys exit 2 with one line.
func TestCollectiveFoldedCube(t *testing.T) {
	var out, errb bytes.Buffer
	if code := realMain([]string{"collective", "--task", "te", "--set", "topology.kind=folded-cube", "--set", "topology.d=4", "--format", "json"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var m map[string]any
	if err := json.Unmarshal(out.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	if m["slots"] != 5.0 || m["formula"] != 5.0 || m["lower_bound"] != 5.0 || m["delivered"] != true {
		t.Errorf("TE on the folded 4-cube: %v", m)
	}
	out.Reset()
	if code := realMain([]string{"collective", "--task", "mnb", "--set", "task.split=true", "--set", "topology.kind=folded-cube", "--set", "topology.d=4"}, &out, &errb); code != 0 || !strings.Contains(out.String(), "3 (15 mini-slots of 1/5)") {
		t.Fatalf("exit %d:\n%s%s", code, out.String(), errb.String())
	}
	for _, args := range [][]string{
		{"collective", "--task", "mnb", "--set", "task.split=sometimes", "--set", "topology.kind=folded-cube", "--set", "topology.d=4"},
		{"collective", "--task", "kl-exchange", "--set", "topology.kind=folded-cube", "--set", "topology.d=4"},
		{"collective", "--task", "permutation", "--set", "task.perm=shuffle", "--set", "topology.kind=enhanced-cube", "--set", "topology.d=4"},
	} {
		out.Reset()
		errb.Reset()
		if code := realMain(args, &out, &errb); code != 2 || strings.Count(strings.TrimSpace(errb.String()), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q: want 2 and one line", args, code, errb.String())
		}
	}
}
