package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// The mesh and torus tasks run as the synopsis writes them: the ring MNB
// with halves in (p−1)/2 = 3 slots (6 mini-slots of 1/2), the array's
// Theorem 2 broadcast of 2,0,1,0,3 packets in 6 (the leftward stream: 3
// packets from node 4 plus 3 more hops), and one-line input errors.
func TestCollectiveMeshCLI(t *testing.T) {
	var out, errb bytes.Buffer
	code := realMain([]string{"collective", "--task", "mnb", "--set", "topology.kind=torus", "--set", "topology.k=7", "--set", "topology.n=1", "--set", "task.algorithm=halves", "--format", "json"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var m map[string]any
	if err := json.Unmarshal(out.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	if m["slots"] != 3.0 || m["mini_slots"] != 6.0 || m["formula"] != 3.0 || m["delivered"] != true {
		t.Errorf("ring MNB with halves, p = 7: %v", m)
	}
	out.Reset()
	if code := realMain([]string{"collective", "--task", "bcast", "--set", "topology.kind=mesh", "--set", "topology.k=5", "--set", "topology.n=1", "--set", "task.packets=2,0,1,0,3"}, &out, &errb); code != 0 || !strings.Contains(out.String(), "slots             6") || !strings.Contains(out.String(), "K + p − 1") {
		t.Fatalf("bcast: exit %d:\n%s%s", code, out.String(), errb.String())
	}
	out.Reset()
	if code := realMain([]string{"collective", "--task", "pmnb", "--set", "topology.kind=torus", "--set", "topology.k=5", "--set", "topology.n=2", "--set", "task.algorithm=split"}, &out, &errb); code != 0 || !strings.Contains(out.String(), "mini-slots of 1/4") {
		t.Fatalf("pmnb split: exit %d:\n%s%s", code, out.String(), errb.String())
	}
	for _, args := range [][]string{
		{"collective", "--task", "bcast", "--set", "topology.kind=mesh", "--set", "topology.k=4", "--set", "topology.n=2"},
		{"collective", "--task", "pe", "--set", "topology.kind=torus", "--set", "topology.k=4", "--set", "topology.n=2"},
		{"collective", "--task", "pmnb", "--set", "topology.kind=mesh", "--set", "topology.k=4", "--set", "topology.n=2", "--set", "task.algorithm=ii"},
		{"collective", "--task", "packing", "--set", "topology.kind=mesh", "--set", "topology.k=4", "--set", "topology.n=2", "--set", "task.sources=3,99"},
	} {
		out.Reset()
		errb.Reset()
		if code := realMain(args, &out, &errb); code != 2 || strings.Count(strings.TrimSpace(errb.String()), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q: want 2 and one line", args, code, errb.String())
		}
	}
}
