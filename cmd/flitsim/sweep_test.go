package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tinySweep is a 4×4-mesh sweep of 2×4 points, 300 measured cycles each.
var tinySweep = []string{"sweep", "--set", "topology.k=4", "--set", "run.warmup=50", "--set", "run.measure=300",
	"--vary", "buffers.input=1,4", "--vary", "traffic.load=0.1:0.7:0.2"}

func sweepArgs(extra ...string) []string { return append(append([]string{}, tinySweep...), extra...) }

func readFile(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSweepCLI(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new", "out") // created if missing
	code, out, errOut := runMain(t, sweepArgs("--out", dir)...)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, s := range []string{"traffic.load", "buffers.input", "0.7", "latency mean", "ok"} {
		if !strings.Contains(out, s) {
			t.Errorf("table lacks %q:\n%s", s, out)
		}
	}
	if n := strings.Count(out, "\n"); n != 8+4 {
		t.Errorf("table has %d lines:\n%s", n, out)
	}
	for _, name := range []string{"results.json", "results.csv", "latency-vs-offered.svg", "latency-vs-offered.png",
		"accepted-vs-offered.svg", "accepted-vs-offered.png"} {
		if st, err := os.Stat(filepath.Join(dir, name)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
	if svg := readFile(t, filepath.Join(dir, "latency-vs-offered.svg")); !bytes.HasPrefix(svg, []byte("<?xml")) && !bytes.HasPrefix(svg, []byte("<svg")) {
		t.Errorf("SVG starts %.20q", svg)
	}
	if png := readFile(t, filepath.Join(dir, "accepted-vs-offered.png")); !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("PNG starts %.8q", png)
	}
	recs, err := csv.NewReader(bytes.NewReader(readFile(t, filepath.Join(dir, "results.csv")))).ReadAll()
	if err != nil || len(recs) != 9 || recs[0][0] != "point" || recs[0][1] != "buffers.input" || recs[0][2] != "traffic.load" ||
		recs[0][3] != "offered" || recs[8][1] != "4" || recs[8][2] != "0.7" {
		t.Errorf("results.csv: %v %q", err, recs)
	}

	// Same sweep again, on one core and on four: identical results.json.
	want := readFile(t, filepath.Join(dir, "results.json"))
	for _, jobs := range []string{"1", "4"} {
		d := t.TempDir()
		if code, _, errOut := runMain(t, sweepArgs("--out", d, "--jobs", jobs)...); code != 0 {
			t.Fatalf("--jobs %s: exit %d %q", jobs, code, errOut)
		}
		if got := readFile(t, filepath.Join(d, "results.json")); !bytes.Equal(got, want) {
			t.Errorf("--jobs %s: results.json differs", jobs)
		}
	}

	// stdout formats are the files' contents.
	_, out, _ = runMain(t, sweepArgs("--format", "json")...)
	if out != string(want) {
		t.Errorf("--format json differs from results.json")
	}
	_, out, _ = runMain(t, sweepArgs("-f", "csv")...)
	if out != string(readFile(t, filepath.Join(dir, "results.csv"))) {
		t.Errorf("--format csv differs from results.csv")
	}
	var doc map[string]any
	if err := json.Unmarshal(want, &doc); err != nil || doc["format"] != "flitsim-sweep/1" || doc["sweep"] == nil {
		t.Errorf("results.json: %v %v", err, doc["format"])
	}
}

func TestSweepShardsMergeCLI(t *testing.T) {
	whole := t.TempDir()
	if code, _, e := runMain(t, sweepArgs("--out", whole)...); code != 0 {
		t.Fatalf("exit %d %q", code, e)
	}
	shards := t.TempDir()
	for _, sh := range []string{"1/3", "2/3", "3/3"} {
		code, out, e := runMain(t, sweepArgs("--out", shards, "--shard", sh)...)
		if code != 0 {
			t.Fatalf("--shard %s: exit %d %q", sh, code, e)
		}
		if sh == "1/3" && strings.Count(out, "\n") != 3+4 {
			t.Errorf("shard 1/3 table:\n%s", out)
		}
	}
	entries, _ := os.ReadDir(shards)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "results-shard-1-of-3.csv results-shard-1-of-3.json results-shard-1-of-3.points.jsonl "+
		"results-shard-2-of-3.csv results-shard-2-of-3.json results-shard-2-of-3.points.jsonl "+
		"results-shard-3-of-3.csv results-shard-3-of-3.json results-shard-3-of-3.points.jsonl" {
		t.Errorf("shard folder holds %q (no plots expected)", names)
	}

	// A folder argument.
	merged := t.TempDir()
	code, out, e := runMain(t, "merge", "--out", merged, shards)
	if code != 0 {
		t.Fatalf("merge: exit %d %q", code, e)
	}
	if !strings.Contains(out, "traffic.load") {
		t.Errorf("merge table:\n%s", out)
	}
	for _, name := range []string{"results.json", "results.csv"} {
		if !bytes.Equal(readFile(t, filepath.Join(merged, name)), readFile(t, filepath.Join(whole, name))) {
			t.Errorf("merged %s differs from the unsharded sweep's", name)
		}
	}
	for _, name := range []string{"latency-vs-offered.svg", "latency-vs-offered.png", "accepted-vs-offered.svg", "accepted-vs-offered.png"} {
		if st, err := os.Stat(filepath.Join(merged, name)); err != nil || st.Size() == 0 {
			t.Errorf("merge did not draw %s: %v", name, err)
		}
	}
	// Files in any order.
	shard := func(i string) string { return filepath.Join(shards, "results-shard-"+i+"-of-3.json") }
	merged2 := t.TempDir()
	if code, _, e := runMain(t, "merge", "-o", merged2, shard("3"), shard("1"), shard("2")); code != 0 {
		t.Fatalf("merge files: exit %d %q", code, e)
	}
	if !bytes.Equal(readFile(t, filepath.Join(merged2, "results.json")), readFile(t, filepath.Join(whole, "results.json"))) {
		t.Errorf("merge of files in another order differs")
	}

	// A missing shard, a duplicated one, a shard of another sweep.
	wantFail(t, 2, []string{"merge", "--out", t.TempDir(), shard("1"), shard("3")}, "merge: 3 of 8 points missing: 1, 4, 7")
	wantFail(t, 2, []string{"merge", "--out", t.TempDir(), shard("1"), shard("2"), shard("3"), shard("2")}, "merge: point 1 ", "is in both")
	other := t.TempDir()
	args := sweepArgs("--out", other, "--shard", "2/3", "--set", "run.seed=5")
	if code, _, e := runMain(t, args...); code != 0 {
		t.Fatalf("exit %d %q", code, e)
	}
	wantFail(t, 2, []string{"merge", "--out", t.TempDir(), shard("1"), filepath.Join(other, "results-shard-2-of-3.json"), shard("3")},
		"are from different sweeps", "the --set overrides differ")
	wantFail(t, 2, []string{"merge", shards}, "merge: --out DIR is missing")
	wantFail(t, 2, []string{"merge", "--out", t.TempDir()}, "merge: no result files given")
	wantFail(t, 2, []string{"merge", "--out", t.TempDir(), t.TempDir()}, "holds no results-shard-")
	wantFail(t, 2, []string{"merge", "--out", t.TempDir(), filepath.Join(shards, "nope.json")}, "nope.json", "no such file")
	wantFail(t, 2, []string{"merge", "--out", t.TempDir(), filepath.Join(shards, "results-shard-1-of-3.csv")}, "not a flitsim sweep result file")
	wantFail(t, 2, []string{"merge", "--out", t.TempDir(), "--format", "xml", shards}, `--format: "xml" is not allowed`)
}

func TestSweepBadInput(t *testing.T) {
	bad := writeFile(t, "traffic:\n  lod: 0.3\n")
	for _, tc := range []struct {
		args  []string
		parts []string
	}{
		{[]string{"sweep"}, []string{"--vary: missing"}},
		{[]string{"sweep", "--vary", "traffic.load"}, []string{`--vary "traffic.load"`, "KEY=start:stop:step"}},
		{[]string{"sweep", "--vary", "traffic.lod=0.1,0.2"}, []string{"--vary traffic.lod: unknown key", "load"}},
		{[]string{"sweep", "--vary", "traffic.load=0.1:0.5:0"}, []string{"--vary traffic.load=0.1:0.5:0: step 0 is not allowed (allowed: a step > 0)"}},
		{[]string{"sweep", "--vary", "traffic.load=0.5:0.1:0.1"}, []string{"empty range", "start ≤ stop"}},
		{[]string{"sweep", "--vary", "traffic.load=0.5:1.5:0.5"}, []string{"--vary traffic.load: 1.5 is not allowed (allowed: a number from 0 to 1"}},
		{[]string{"sweep", "--vary", "topology.k=1:3:1"}, []string{"--vary topology.k: 1 is not allowed"}},
		{[]string{"sweep", "--vary", "run.seed=1,2", "--shard", "0/2"}, []string{`--shard: "0/2" is not allowed (allowed: i/n with 1 ≤ i ≤ n`}},
		{[]string{"sweep", "--vary", "run.seed=1,2", "--shard", "3/2"}, []string{`--shard: "3/2"`}},
		{[]string{"sweep", "--vary", "run.seed=1,2", "--shard", "x"}, []string{`--shard: "x"`}},
		{[]string{"sweep", "--vary", "run.seed=1,2", "--jobs", "-1"}, []string{"--jobs: -1 is not allowed"}},
		{[]string{"sweep", "--vary", "run.seed=1,2", "--format", "xml"}, []string{`--format: "xml" is not allowed (allowed: table, json, csv)`}},
		{[]string{"sweep", "--vary", "run.seed=1,2", "--set", "traffic.lod=1"}, []string{"--set traffic.lod: unknown key"}},
		{[]string{"sweep", "--vary", "run.seed=1,2", "-c", bad}, []string{bad + ":2:", "traffic.lod"}},
		{[]string{"sweep", "--vary", "run.seed=1,2", "-c", filepath.Join(t.TempDir(), "none.yaml")}, []string{"none.yaml: cannot read config file"}},
		{[]string{"sweep", "--vary", "run.seed=1,2", "a.yaml", "b.yaml"}, []string{"unexpected argument"}},
		{[]string{"sweep", "--bogus"}, []string{"sweep: unknown flag: --bogus"}},
		{[]string{"sweep", "--vary", "traffic.flits=4,8", "--set", "switching=vct"}, []string{"--vary traffic.flits: 8 is not allowed", "buffers.input 4"}},
		{[]string{"sweep", "--vary", "traffic.flits=2,8", "--set", "switching=vct", "--set", "buffers.input=2"}, []string{"sweep point 1 (traffic.flits=8)", "buffers.input"}},
	} {
		wantFail(t, 2, tc.args, tc.parts...)
	}
	// An --out that cannot be a folder.
	file := writeFile(t, "x")
	wantFail(t, 2, sweepArgs("--out", filepath.Join(file, "sub")), "--out", "cannot create the folder")
}

func TestSweepHelp(t *testing.T) {
	for _, args := range [][]string{{"sweep", "-h"}, {"merge", "--help"}, {"help", "sweep"}, {"help", "merge"}} {
		code, out, errOut := runMain(t, args...)
		if code != 0 || errOut != "" || !strings.Contains(out, "Usage: flitsim "+args[len(args)-1]) && !strings.Contains(out, "Usage: flitsim "+args[0]) {
			t.Errorf("%q: exit %d, stderr %q\n%s", args, code, errOut, out)
		}
	}
	_, out, _ := runMain(t, "sweep", "-h")
	for _, f := range []string{"--vary", "--out", "--shard", "--jobs", "--format", "--set", "--config"} {
		if !strings.Contains(out, f) {
			t.Errorf("sweep -h does not mention %s", f)
		}
	}
	_, out, _ = runMain(t, "help")
	if !strings.Contains(out, "flitsim sweep") || !strings.Contains(out, "flitsim merge") {
		t.Errorf("usage lacks sweep and merge:\n%s", out)
	}
}

// withTerminal makes progress bars go to a buffer, as if it were a terminal
// (term true) or not.
func withTerminal(t *testing.T, term bool) *bytes.Buffer {
	t.Helper()
	oldOut, oldIs := progressOut, isTerminal
	var buf bytes.Buffer
	progressOut = &buf
	isTerminal = func(io.Writer) bool { return term }
	t.Cleanup(func() { progressOut, isTerminal = oldOut, oldIs })
	return &buf
}

func TestProgress(t *testing.T) {
	runArgs := []string{"run", "--set", "topology.k=4", "--set", "run.warmup=100", "--set", "run.measure=5000", "--format", "json"}

	quiet := withTerminal(t, false)
	code, plainRun, _ := runMain(t, runArgs...)
	if code != 0 {
		t.Fatalf("run: exit %d", code)
	}
	code, plainSweep, _ := runMain(t, sweepArgs("--format", "json")...)
	if code != 0 {
		t.Fatalf("sweep: exit %d", code)
	}
	if quiet.Len() != 0 {
		t.Errorf("progress written to a non-terminal: %q", quiet.String())
	}

	bar := withTerminal(t, true)
	code, out, _ := runMain(t, runArgs...)
	if code != 0 || out != plainRun {
		t.Errorf("run with a progress bar: exit %d, output differs: %v", code, out != plainRun)
	}
	if !strings.Contains(bar.String(), "simulating") || !strings.Contains(bar.String(), "/5100") {
		t.Errorf("run progress: %q", bar.String())
	}
	bar.Reset()
	code, out, _ = runMain(t, sweepArgs("--format", "json")...)
	if code != 0 || out != plainSweep {
		t.Errorf("sweep with a progress bar: exit %d, output differs: %v", code, out != plainSweep)
	}
	if !strings.Contains(bar.String(), "points ") || !strings.Contains(bar.String(), "/2800") {
		t.Errorf("sweep progress: %q", bar.String())
	}
	// A trace run: unknown end, a spinner.
	bar.Reset()
	trace := filepath.Join(t.TempDir(), "t.csv")
	os.WriteFile(trace, []byte("0,0,5,4\n3,1,2,4\n"), 0o644)
	if code, _, e := runMain(t, "run", "--set", "topology.k=4", "--set", "traffic.trace="+trace); code != 0 {
		t.Errorf("trace run: exit %d %q", code, e)
	}
	if !isTerminal(progressOut) || bar.Len() == 0 {
		t.Errorf("trace run showed no progress")
	}
}

func TestIsTerminalDefault(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) || isTerminal(&bytes.Buffer{}) {
		t.Errorf("a file or a buffer counts as a terminal")
	}
	if newProgress("x", 10, "cycles") != nil && !isTerminal(progressOut) {
		t.Errorf("a bar without a terminal")
	}
	var p *progress // a nil bar ignores everything
	p.set(5)
	p.describe("x")
	p.finish()
}

// A sweep point without a latency interval prints "± n/a", and the table
// says once why; a sweep whose points all have one says nothing.
func TestSweepNoIntervalSaysWhy(t *testing.T) {
	const why = "± n/a: no confidence interval, fewer than 10 of the window's batches measured a packet"
	code, out, _ := runMain(t, "sweep", "-c", "../../configs/ring_deadlock.yaml", "--vary", "run.seed=1,2")
	if code != 0 || !strings.Contains(out, "24.7273 ± n/a") || strings.Count(out, why) != 1 {
		t.Errorf("exit %d, output:\n%s", code, out)
	}
	code, out, _ = runMain(t, "sweep", "--set", "topology.k=4", "--set", "run.measure=1000", "--vary", "traffic.load=0.1,0.2")
	if code != 0 || strings.Contains(out, "n/a") {
		t.Errorf("exit %d, output:\n%s", code, out)
	}
}

// A sweep refused for a bad point (found only when the points load) leaves
// the folder's previous sweep, journal included, byte for byte.
func TestSweepRefusedKeepsThePreviousSweep(t *testing.T) {
	dir := t.TempDir()
	if code, _, errOut := runMain(t, "sweep", "--set", "topology.k=4", "--set", "run.measure=500", "--vary", "routing=dor,random-order", "--out", dir); code != 0 {
		t.Fatalf("first sweep: exit %d: %s", code, errOut)
	}
	before := map[string][]byte{}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		before[e.Name()] = readFile(t, filepath.Join(dir, e.Name()))
	}
	code, _, errOut := runMain(t, "sweep", "--set", "topology.k=4", "--vary", "routing=dor,o1turn", "--out", dir)
	if code != 2 || !strings.Contains(errOut, "o1turn") {
		t.Fatalf("bad sweep: exit %d: %s", code, errOut)
	}
	entries, _ = os.ReadDir(dir)
	if len(entries) != len(before) {
		t.Errorf("%d files after the refused sweep, %d before", len(entries), len(before))
	}
	for name, b := range before {
		if !bytes.Equal(readFile(t, filepath.Join(dir, name)), b) {
			t.Errorf("%s changed by a refused sweep", name)
		}
	}
}
