package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// multiRun is a multi-read batch on the 4-cube: 4 destinations per read,
// two phases, three experiments.
var multiRun = []string{"run", "--format", "json", "--set", "switching=packet", "--set", "traffic.flits=1",
	"--set", "topology.kind=hypercube", "--set", "topology.d=4", "--set", "traffic.mode=batch",
	"--set", "valiant=separate", "--set", "traffic.pattern=multi-read", "--set", "traffic.fanout=4", "--set", "run.experiments=3"}

// TestMultiRunJSON: the keys as the user writes them, the JSON member
// multi and experiments.multi, and the table's rows.
func TestMultiRunJSON(t *testing.T) {
	for _, extra := range [][]string{nil, {"--set", "traffic.pattern=multi-write", "--set", "traffic.combine=lowest-writer", "--set", "traffic.locations=2"}} {
		code, out, errOut := runMain(t, append(append([]string(nil), multiRun...), extra...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var r struct {
			Status string `json:"status"`
			Multi  struct {
				Reads, Writes  int
				Copies, Merges int64
				Deliveries     int64
				CompletionTime int64 `json:"completion_time"`
				OK             bool  `json:"ok"`
			} `json:"multi"`
			Experiments struct {
				Multi struct {
					Failed int `json:"failed"`
					Copies struct {
						Mean float64 `json:"mean"`
					} `json:"copies"`
				} `json:"multi"`
			} `json:"experiments"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		m := r.Multi
		read := extra == nil
		if r.Status != "ok" || !m.OK || r.Experiments.Multi.Failed != 0 || m.CompletionTime < 1 ||
			read && (m.Reads == 0 || m.Copies != 3*int64(m.Reads) || m.Deliveries != 4*int64(m.Reads)) ||
			!read && (m.Writes != 16 || m.Deliveries+m.Merges != 16) {
			t.Fatalf("result %s", out[strings.Index(out, `"multi"`):])
		}
	}
	code, out, _ := runMain(t, append(append([]string(nil), multiRun[:len(multiRun)-2]...), "--format", "table")...)
	if code != 0 || !strings.Contains(out, "multi copies / merges") || !strings.Contains(out, "multi check") {
		t.Fatalf("table lacks the multi rows:\n%s", out)
	}
}

// TestMultiListedAndBadInput: flitsim list shows the patterns and keys;
// a bad value is one line naming the key.
func TestMultiListedAndBadInput(t *testing.T) {
	code, out, _ := runMain(t, "list")
	for _, want := range []string{"multi-read", "multi-write", "traffic.fanout", "traffic.locations", "traffic.combine"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("list lacks %q", want)
		}
	}
	for _, c := range []struct{ set, want string }{
		{"traffic.combine=xor", "traffic.combine: xor is not allowed (allowed: or, and, sum, lowest, random"},
		{"traffic.fanout=5", "traffic.fanout: 5 is not allowed (allowed: a power of 2 from 1 to 16"},
		{"topology.kind=torus", "topology.kind: torus is not allowed (allowed: hypercube, dshuffle with traffic.pattern: multi-read"},
	} {
		code, _, errOut := runMain(t, append(append([]string(nil), multiRun...), "--set", c.set)...)
		if code == 0 || !strings.Contains(errOut, c.want) || strings.Count(strings.TrimSpace(errOut), "\n") > 1 {
			t.Errorf("--set %s: exit %d, %q", c.set, code, errOut)
		}
	}
}
