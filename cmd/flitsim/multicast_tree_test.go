package main

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
)

// mtree runs flitsim multicast-tree on CU-ESMIN(dims) with --format json.
func mtree(t *testing.T, dims string, args ...string) mtreeJSON {
	t.Helper()
	a := append([]string{"multicast-tree", "--set", "topology.kind=esmin", "--set", "topology.dims=" + dims, "--format", "json"}, args...)
	code, out, errOut := runMain(t, a...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", a, code, errOut)
	}
	var o mtreeJSON
	if err := json.Unmarshal([]byte(out), &o); err != nil {
		t.Fatal(err)
	}
	return o
}

func TestMulticastTreeFigs(t *testing.T) {
	for _, c := range []struct {
		dims        string
		chans, omts int
	}{{"1,2,1,2,0", 9, 4}, {"1,1,2,2,0", 10, 8}} {
		o := mtree(t, c.dims, "--source", "0", "--dests", "1,3", "--algorithm", "omt")
		if len(o.Trees) != c.omts || o.Channels != c.chans {
			t.Errorf("%s: %d trees, %d channels; want %d of %d", c.dims, len(o.Trees), o.Channels, c.omts, c.chans)
		}
		for _, tr := range o.Trees {
			if tr.Channels != c.chans || len(tr.Paths) != 2 {
				t.Errorf("%s: tree %+v", c.dims, tr)
			}
		}
	}
	o := mtree(t, "1,2,1,2,0", "--dests", "1,3", "--algorithm", "lb")
	if !slices.Equal(o.PerStage, []int{1, 1, 2, 2, 2}) || o.Channels != 9 || o.Paths[1].Ports != "00101" {
		t.Errorf("LB: %+v", o)
	}
}

func TestMulticastTreeBlockingAndAll(t *testing.T) {
	o := mtree(t, "2,1,2,2,0", "--dests", "6,7", "--algorithm", "rb", "--trials", "4000", "--seed", "3")
	if b := o.Blocking; b == nil || b.Trials != 4000 || b.Blocked < 850 || b.Blocked > 1150 {
		t.Errorf("RB blocking %+v, want about 1 in 4 (Fig 6.7: 4 of 16 assignments)", o.Blocking)
	}
	o = mtree(t, "5,4,3,2,1,5,4,3,2,1,0", "--dests", "all", "--algorithm", "fb")
	if len(o.Destinations) != 64 || o.Channels != 287 || o.Blocking != nil {
		t.Errorf("FB broadcast on Table 6.1 pattern 1: %d destinations, %d channels", len(o.Destinations), o.Channels)
	}
}

func TestMulticastTreeBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		key  string
	}{
		{[]string{"--set", "topology.kind=esmin", "--set", "topology.dims=1,2,1,2,0", "--dests", "8"}, "--dests"},
		{[]string{"--set", "topology.kind=esmin", "--set", "topology.dims=1,2,1,2,0", "--dests", "1", "--source", "-1"}, "--source"},
		{[]string{"--set", "topology.kind=esmin", "--set", "topology.dims=1,2,1,2,0", "--dests", "1", "--algorithm", "xb"}, "--algorithm"},
		{[]string{"--set", "topology.kind=esmin", "--set", "topology.dims=2,1,0", "--dests", "1"}, "topology.dims"},
		{[]string{"--set", "topology.kind=cube", "--set", "topology.k=2", "--set", "topology.n=3", "--dests", "1"}, "topology.kind"},
		{[]string{"--set", "topology.kind=esmin", "--set", "topology.dims=1,1,2,2,0", "--dests", "1,3", "--algorithm", "omt", "--max-trees", "7"}, "--max-trees"},
	} {
		code, _, errOut := runMain(t, append([]string{"multicast-tree"}, c.args...)...)
		if code != 2 || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, c.key+":") {
			t.Errorf("%v: exit %d, %q; want exit 2 naming %s", c.args, code, errOut, c.key)
		}
	}
}

func TestMulticastTreeWarnsUnusedFlags(t *testing.T) {
	code, _, errOut := runMain(t, "multicast-tree", "--set", "topology.kind=esmin", "--set", "topology.dims=1,2,1,2,0",
		"--dests", "1,3", "--trials", "5", "--max-trees", "3")
	if code != 0 || !strings.Contains(errOut, "--trials: ignored") || !strings.Contains(errOut, "--max-trees: ignored") {
		t.Errorf("lb with --trials and --max-trees: exit %d, stderr %q; want warnings", code, errOut)
	}
}

// TestMulticastTreeStudy: a study over random sets of all 64 nodes is the
// broadcast (LB 132, FB 287 on Table 6.1 pattern 1, every set); RB's
// blocking rises with the destinations; a plot is written.
func TestMulticastTreeStudy(t *testing.T) {
	plot := t.TempDir() + "/b.svg"
	code, out, errOut := runMain(t, "multicast-tree", "-c", "../../configs/chiang/fig6_pattern1.yaml", "--dests", "random:63-64",
		"--algorithm", "lb,fb,rb", "--trials", "50", "--format", "json", "--plot", plot)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var o struct{ Study []mtreeStudy }
	if err := json.Unmarshal([]byte(out), &o); err != nil {
		t.Fatal(err)
	}
	if len(o.Study) != 3 || len(o.Study[0].Points) != 2 {
		t.Fatalf("%d curves: %+v", len(o.Study), o.Study)
	}
	lb, fb, rb := o.Study[0].Points[1], o.Study[1].Points[1], o.Study[2].Points[1]
	if lb.Dests != 64 || lb.Channels != 132 || lb.CI95 != 0 || fb.Channels != 287 || rb.Blocked != 50 || rb.Blocking != 1 {
		t.Errorf("broadcast: lb %+v fb %+v rb %+v", lb, fb, rb)
	}
	if st, err := os.Stat(plot); err != nil || st.Size() < 1000 {
		t.Errorf("plot: %v", err)
	}
	for _, c := range []struct{ dests, alg, key string }{
		{"random:0", "lb", "--dests"}, {"random:3-2", "lb", "--dests"}, {"random:65", "lb", "--dests"},
		{"random:4", "omt", "--algorithm"}, {"random:4", "lb,xx", "--algorithm"},
	} {
		code, _, errOut := runMain(t, "multicast-tree", "-c", "../../configs/chiang/fig6_pattern1.yaml", "--dests", c.dests, "--algorithm", c.alg)
		if code != 2 || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, c.key+":") {
			t.Errorf("%s %s: exit %d, %q; want exit 2 naming %s", c.dests, c.alg, code, errOut, c.key)
		}
	}
}
