package main

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/flitsim/flitsim/internal/outfile"
	"github.com/flitsim/flitsim/network"
)

// inputsDir makes a folder, the working one for the test, holding a config
// with a trace (c.yaml reads t.csv), a config with a topology file (r.yaml
// reads ring.topo), a hypercube config for collectives (h.yaml) and links to
// c.yaml (sym.yaml, hard.yaml).
func inputsDir(t *testing.T) string {
	t.Helper()
	ring, err := os.ReadFile(filepath.Join("..", "..", "configs", "topologies", "ring6.topo"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	for name, text := range map[string]string{
		"c.yaml":    "topology:\n  kind: mesh\n  k: 4\n  n: 2\ntraffic:\n  trace: t.csv\n",
		"t.csv":     "0,0,5,4\n3,1,2,4\n",
		"r.yaml":    "topology:\n  kind: file\n  file: ring.topo\ntraffic:\n  load: 0.1\n  flits: 4\nrun:\n  warmup: 0\n  measure: 200\n",
		"ring.topo": string(ring),
		"h.yaml":    "topology:\n  kind: hypercube\n  d: 3\n",
		"q.gtkw":    "a save file the user keeps\n",
	} {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("c.yaml", "sym.yaml"); err != nil {
		t.Fatal(err)
	}
	if err := os.Link("c.yaml", "hard.yaml"); err != nil {
		t.Fatal(err)
	}
	return dir
}

// snapshot is every file in dir (recursively) by its path, with its bytes.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		files[p] = string(b)
		if errors.Is(err, os.ErrNotExist) { // (a dangling link)
			err = nil
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// sameFiles fails the test when dir's files differ from before.
func sameFiles(t *testing.T, args []string, before, after map[string]string) {
	t.Helper()
	if maps.Equal(before, after) {
		return
	}
	for _, p := range slices.Sorted(maps.Keys(after)) {
		if b, ok := before[p]; !ok {
			t.Errorf("%q made %s", args, p)
		} else if b != after[p] {
			t.Errorf("%q changed %s: %.60q, was %.60q", args, p, after[p], b)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			t.Errorf("%q removed %s", args, p)
		}
	}
}

// TestNeverDestroyAnInput: an output that is an input (the config, its
// trace or topology file, a merge's input), or another output (a trace's
// GTKWave save file too), is refused with exit 2 and one line naming both
// flags or keys and the path, before anything is written: every file is
// left byte for byte.
func TestNeverDestroyAnInput(t *testing.T) {
	dir := inputsDir(t)
	// Inputs named like outputs.
	os.Mkdir("out", 0o755)
	os.Mkdir("sub", 0o755)
	mesh := []byte("topology:\n  kind: mesh\n  k: 4\n  n: 2\n")
	os.WriteFile("out/results.json", mesh, 0o644)
	os.WriteFile("c.gtkw", mesh, 0o644)
	os.WriteFile("results-shard-1-of-2.csv", []byte("0,1,2,4\n"), 0o644)
	type tc struct {
		args []string
		want string
	}
	var cases []tc
	for _, f := range []string{"channels", "per-node", "per-pair", "histogram", "routers"} {
		cases = append(cases,
			tc{[]string{"run", "-c", "c.yaml", "--" + f, "t.csv"}, "--" + f + ": t.csv is the file traffic.trace reads"},
			tc{[]string{"run", "-c", "r.yaml", "--" + f, "ring.topo"}, "--" + f + ": ring.topo is the file topology.file reads"},
			tc{[]string{"run", "-c", "c.yaml", "--" + f, "c.yaml"}, "--" + f + ": c.yaml is the file -c reads"})
	}
	cases = append(cases,
		tc{[]string{"run", "-c", "c.yaml", "--trace-events", "t.csv"}, "--trace-events: t.csv is the file traffic.trace reads"},
		tc{[]string{"run", "--set", "topology.k=4", "--set", "traffic.trace=t.csv", "--trace-events", "./t.csv"}, "--trace-events: ./t.csv is the file traffic.trace reads"},
		tc{[]string{"run", "-c", "c.yaml", "--trace-vcd", "c.yaml"}, "--trace-vcd: c.yaml is the file -c reads"},
		tc{[]string{"run", "-c", "c.yaml", "--trace-perfetto", "c.yaml"}, "--trace-perfetto: c.yaml is the file -c reads"},
		tc{[]string{"run", "-c", "c.gtkw", "--trace-vcd", "c.vcd"}, "--trace-vcd (its GTKWave save file): c.gtkw is the file -c reads"},
		tc{[]string{"run", "-c", "c.yaml", "--trace-vcd", "q.vcd", "--channels", "q.gtkw"}, "--channels: q.gtkw is the GTKWave save file --trace-vcd writes too"},
		tc{[]string{"run", "-c", "c.yaml", "--channels", "q.gtkw", "--trace-vcd", "q.vcd"}, "--channels: q.gtkw is the GTKWave save file --trace-vcd writes too"},
		tc{[]string{"run", "-c", "c.yaml", "--trace-vcd", "q.gtkw"}, "--trace-vcd (its GTKWave save file): q.gtkw is the file --trace-vcd writes too"},
		tc{[]string{"run", "-c", "c.yaml", "--trace-vcd", "c.vcd", "--per-node", "c.kind.txt"}, "--per-node: c.kind.txt is the GTKWave kind filter --trace-vcd writes too"},
		tc{[]string{"run", "-c", "c.yaml", "--per-node", "sym.yaml"}, "--per-node: sym.yaml is the file -c reads"},
		tc{[]string{"run", "-c", "c.yaml", "--per-pair", "hard.yaml"}, "--per-pair: hard.yaml is the file -c reads"},
		tc{[]string{"run", "-c", "sym.yaml", "--histogram", "hard.yaml"}, "--histogram: hard.yaml is the file -c reads"},
		tc{[]string{"run", "-c", "c.yaml", "--per-node", "o.csv", "--histogram", "sub/../o.csv"}, "--histogram: sub/../o.csv is the file --per-node writes too"},
		tc{[]string{"run", "-c", "c.yaml", "--trace-events", "o.csv", "--routers", filepath.Join(dir, "o.csv")}, "--routers: " + filepath.Join(dir, "o.csv") + " is the file --trace-events writes too"},
		tc{[]string{"sweep", "-c", "out/results.json", "--vary", "run.seed=1,2", "--out", "out"}, "--out: out/results.json is the file -c reads"},
		tc{[]string{"sweep", "--set", "topology.k=4", "--vary", "traffic.trace=t.csv,results-shard-1-of-2.csv", "--out", ".", "--shard", "1/2"},
			"--out: results-shard-1-of-2.csv is the file --vary traffic.trace reads"},
		tc{[]string{"merge", "--out", "out", "out/results.json"}, "--out: out/results.json is the file merge reads"},
		tc{[]string{"deadlock-search", "-c", "h.yaml", "--out", "h.yaml"}, "--out: h.yaml is the file -c reads"},
		tc{[]string{"collective", "-c", "h.yaml", "--task", "te", "--trace-perfetto", "h.yaml"}, "--trace-perfetto: h.yaml is the file -c reads"},
		tc{[]string{"collective", "--task", "dynamic", "--set", "topology.kind=hypercube", "--set", "topology.d=3", "--plot", "d.svg", "--trace-perfetto", "d.svg"},
			"--plot: d.svg is the file --trace-perfetto writes too"},
	)
	for _, c := range cases {
		before := snapshot(t, dir)
		wantFail(t, 2, c.args, c.want, "(allowed: a file of its own")
		sameFiles(t, c.args, before, snapshot(t, dir))
	}
}

// TestOutputsWholeOrNot: outputs are put in place only when complete. A run
// that fails leaves every output file as it was; one that succeeds replaces
// them whole, through a symbolic link too, and leaves no temporary files.
func TestOutputsWholeOrNot(t *testing.T) {
	dir := inputsDir(t)
	os.WriteFile("old.csv", []byte("the previous, complete output\n"), 0o644)
	os.WriteFile("target.csv", []byte("the previous, complete output\n"), 0o644)
	os.Symlink("target.csv", "link.csv")
	args := []string{"run", "--set", "topology.k=4", "--per-node", "old.csv", "--histogram", "new.csv", "--channels", "link.csv"}
	stubRun(t, func(c network.Config) (*network.Result, error) {
		return nil, &exitError{exitInternal, errors.New("the run failed half way")}
	})
	before := snapshot(t, dir)
	if code, _, e := runMain(t, args...); code != exitInternal {
		t.Fatalf("a failing run: exit %d, stderr %q", code, e)
	}
	sameFiles(t, args, before, snapshot(t, dir))

	stubRun(t, func(c network.Config) (*network.Result, error) {
		r := fakeResult(c)
		r.Deadlock, r.Status = nil, network.StatusOK
		r.PerNode = []network.NodeStats{{Node: 0, Sent: 7}}
		return r, nil
	})
	if code, _, e := runMain(t, args...); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, e)
	}
	for name, want := range map[string]string{"old.csv": "node,sent,", "new.csv": "latency,count\n", "target.csv": "channel"} {
		if b, err := os.ReadFile(name); err != nil || !strings.HasPrefix(string(b), want) {
			t.Errorf("%s: %v, %.60q, want it to start %q", name, err, b, want)
		}
	}
	if st, err := os.Lstat("link.csv"); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("link.csv is no longer a link (%v)", err)
	}
	if tmp, _ := filepath.Glob(filepath.Join(dir, ".*.tmp")); len(tmp) > 0 {
		t.Errorf("temporary files left: %v", tmp)
	}
}

// TestKilledRunKeepsTheOldTrace kills a run (no chance to clean up) while
// its trace is being written: the trace file still holds the previous,
// complete trace, not half of the new one.
func TestKilledRunKeepsTheOldTrace(t *testing.T) {
	bin := buildFlitsim(t)
	dir := t.TempDir()
	old := "cycle,event\n0,a complete trace from before\n"
	ev := filepath.Join(dir, "t.csv")
	os.WriteFile(ev, []byte(old), 0o644)
	c := startChild(t, bin, dir, "run", "--set", "topology.k=3", "--set", "traffic.load=0.1", "--set", "run.warmup=0",
		"--set", "run.measure=10000000000", "--trace-events", "t.csv", "--per-node", "n.csv")
	c.waitFor(t, "trace output", func() bool {
		tmp := outfile.Temps(ev)
		return len(tmp) == 1 && fileSize(tmp[0]) > 0
	})
	if b, _ := os.ReadFile(ev); string(b) != old {
		t.Errorf("while the run writes its trace, t.csv holds %.80q", b)
	}
	c.cmd.Process.Signal(syscall.SIGKILL)
	c.exit(t)
	if b, _ := os.ReadFile(ev); string(b) != old {
		t.Errorf("after the kill, t.csv holds %.80q", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "n.csv")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a killed run made n.csv (%v)", err)
	}
}

// TestStdoutIntoAnInput: results redirected (>>) into the config are
// refused, by every command that reads one; redirected elsewhere they are
// written.
func TestStdoutIntoAnInput(t *testing.T) {
	dir := inputsDir(t)
	open := func(name string) *os.File {
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	for _, args := range [][]string{
		{"run", "-c", "c.yaml"},
		{"layout", "-c", "h.yaml"},
		{"distances", "-c", "h.yaml"},
		{"sweep", "-c", "h.yaml", "--vary", "run.seed=1,2"},
		{"deadlock-search", "-c", "h.yaml", "--scenarios", "1"},
		{"collective", "-c", "h.yaml", "--task", "te"},
		{"run", "-c", "c.yaml", "--set", "traffic.trace=t.csv"},
	} {
		into := args[2]
		if slices.Contains(args, "traffic.trace=t.csv") {
			into = "t.csv"
		}
		before := snapshot(t, dir)
		var stderr strings.Builder
		if code := realMain(args, open(into), &stderr); code != exitBadInput || !strings.Contains(stderr.String(), "flitsim: stdout: redirected to ") {
			t.Errorf("%q > %s: exit %d, stderr %q", args, into, code, stderr.String())
		}
		sameFiles(t, args, before, snapshot(t, dir))
	}
	var stderr strings.Builder
	if code := realMain([]string{"distances", "-c", "h.yaml"}, open("d.txt"), &stderr); code != 0 {
		t.Fatalf("distances > d.txt: exit %d, stderr %q", code, stderr.String())
	}
	if b, _ := os.ReadFile("d.txt"); !strings.Contains(string(b), "diameter") {
		t.Errorf("d.txt holds %.80q", b)
	}
}
