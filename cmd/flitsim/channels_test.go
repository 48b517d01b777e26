package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func channelsJSON(t *testing.T, args ...string) channelsReport {
	t.Helper()
	code, out, stderr := runMain(t, append(append([]string{"channels"}, args...), "--format", "json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r channelsReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return r
}

func min16(kind string) []string {
	return []string{"--set", "topology.kind=" + kind, "--set", "topology.k=2", "--set", "topology.n=4"}
}

// Fig 5.5(b): the baseline's clusters xxx0 and xxx1 share all 16 channels
// at C_2 and C_1, named as run names them; Fig 5.7(b): the modified
// baseline's share none.
func TestChannelsShared(t *testing.T) {
	r := channelsJSON(t, append(min16("baseline"), "--clusters", "xxx0,xxx1")...)
	if fmt.Sprint(r.Connections) != "[C_3 C_2 C_1 C_0]" || len(r.Clusters) != 2 || fmt.Sprint(r.Clusters[1].Nodes) != "[1 3 5 7 9 11 13 15]" {
		t.Fatalf("%+v", r)
	}
	if fmt.Sprint(r.Clusters[0].Channels, r.Clusters[1].Channels) != "[8 16 16 8] [8 16 16 8]" || len(r.Shared) != 2 {
		t.Fatalf("%+v", r)
	}
	s := r.Shared[0]
	if s.Clusters != [2]string{"xxx0", "xxx1"} || s.Connection != "C_2" || len(s.Channels) != 16 || s.Channels[0] != "s2,0.out[0]" || s.Channels[15] != "s2,7.out[1]" {
		t.Errorf("%+v", s)
	}
	m := channelsJSON(t, append(min16("modified-baseline"), "--clusters", "xxx0,xxx1")...)
	if fmt.Sprint(m.Clusters[0].Channels) != "[8 8 8 8]" || m.Shared == nil || len(m.Shared) != 0 {
		t.Errorf("%+v", m)
	}
	code, out, _ := runMain(t, append([]string{"channels"}, append(min16("modified-baseline"), "--clusters", "xxx0,xxx1")...)...)
	if code != 0 || !strings.Contains(out, "no channel shared by two clusters") {
		t.Errorf("exit %d\n%s", code, out)
	}
}

func TestChannelsBadInput(t *testing.T) {
	b := min16("baseline")
	for _, c := range []struct {
		args  []string
		parts []string
	}{
		{append(b, "--clusters", "x0x"), []string{"--clusters: x0x", "a mask of 4 characters"}},
		{append(b, "--clusters", "x0xx,01x2"), []string{"--clusters: 01x2", "'2' is none of them"}},
		{append(b, "--clusters", "x0xx,00xx"), []string{"--clusters: x0xx,00xx", "both hold terminal 0"}},
		{b, []string{"--clusters: (not given)"}},
		{[]string{"--set", "topology.kind=hypercube", "--set", "topology.d=4", "--clusters", "xxxx"}, []string{"topology.kind: hypercube", "modified-butterfly"}},
		{[]string{"--set", "topology.kind=cube", "--set", "topology.k=3", "--set", "topology.n=2", "--clusters", "xxx"}, []string{"--clusters", "9 terminals are not a power of two"}},
		{[]string{"--set", "topology.kind=cube", "--set", "topology.k=2", "--set", "topology.n=13", "--clusters", "x"}, []string{"8192 terminals", "at most 4096"}},
		{append(b, "--clusters", "xxxx", "--format", "csv"), []string{"--format"}},
	} {
		wantFail(t, 2, append([]string{"channels"}, c.args...), c.parts...)
	}
}
