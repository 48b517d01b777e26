package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// fuzzOutcome checks what realMain did with fuzzed input: success, or bad
// input (exit 2) told in one "flitsim: ..." line; never an internal error
// (exit 3, a recovered panic) or anything else.
func fuzzOutcome(t *testing.T, args []string, code int, stdout, stderr string) {
	t.Helper()
	switch code {
	case 0:
		if stdout == "" {
			t.Errorf("%q: exit 0 without output", args)
		}
	case 2:
		if !strings.HasPrefix(stderr, "flitsim: ") || strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, "\n") {
			t.Errorf("%q: stderr is not one \"flitsim: ...\" line: %q", args, stderr)
		}
	default:
		t.Errorf("%q: exit %d, stderr %q", args, code, stderr)
	}
}

// FuzzMerge feeds `flitsim merge` two shard files: whatever they hold,
// merge writes the results and plots, or names the problem on one line.
// A successful merge's results.json reads back as the rows printed.
func FuzzMerge(f *testing.F) {
	dir := f.TempDir()
	for _, sh := range []string{"1/2", "2/2"} {
		var o, e bytes.Buffer
		if code := realMain(sweepArgs("--out", dir, "--shard", sh, "--set", "run.measure=100"), &o, &e); code != 0 {
			f.Fatalf("seed shard %s: exit %d %q", sh, code, e.String())
		}
	}
	a, _ := os.ReadFile(filepath.Join(dir, "results-shard-1-of-2.json"))
	b, _ := os.ReadFile(filepath.Join(dir, "results-shard-2-of-2.json"))
	f.Add(a, b)
	f.Add(a, a)
	f.Add(b, []byte(`{"format":"flitsim-sweep/1","sweep":{"points":0},"shard":"2/2","results":[]}`))
	f.Add([]byte(`{"format":"flitsim-sweep/1","sweep":{"vary":[{"key":"x","values":["1"]}],"points":1},"results":[{"point":0,"x":1}]}`), b)
	f.Fuzz(func(t *testing.T, a, b []byte) {
		in := t.TempDir()
		os.WriteFile(filepath.Join(in, "results-shard-1-of-2.json"), a, 0o644)
		os.WriteFile(filepath.Join(in, "results-shard-2-of-2.json"), b, 0o644)
		out := filepath.Join(t.TempDir(), "out")
		args := []string{"merge", "--out", out, "--format", "json", in}
		code, stdout, stderr := runMain(t, args...)
		fuzzOutcome(t, args, code, stdout, stderr)
		if code != 0 {
			return
		}
		written, err := os.ReadFile(filepath.Join(out, "results.json"))
		if err != nil || !bytes.Equal(written, []byte(stdout)) {
			t.Fatalf("results.json (%v) differs from the printed JSON", err)
		}
		var doc struct {
			Results []json.RawMessage `json:"results"`
		}
		if err := json.Unmarshal(written, &doc); err != nil {
			t.Fatalf("results.json does not parse: %v", err)
		}
	})
}

// FuzzEncode feeds `flitsim encode` any scheme, destination list and sizes:
// it prints the header or names the bad flag on one line.
func FuzzEncode(f *testing.F) {
	f.Add("mrb", "1:12:1,32:50:2,60:75:1,90:117:3", 256, 8, 2, "cube", false, -1)
	f.Add("ad", "0,5,7", 8, 4, 2, "omega", false, 3)
	f.Add("pseudo-ad", "1:15:2", 16, 8, 2, "butterfly", false, 0)
	f.Add("bs-buffered", "3,9,200", 256, 16, 4, "cube", false, 1)
	f.Add("bs-hierarchical", "0:63:1", 64, 8, 4, "baseline", false, -1)
	f.Add("mrs", "5:250:5", 256, 8, 2, "cube", true, 7)
	f.Add("mrm", "1,2,4,8,16,32,64,128", 256, 8, 2, "omega", false, 255)
	f.Add("mrbs", "0:255:3", 256, 12, 2, "cube", true, 2)
	f.Add("region-broadcast", "", 1024, 1, 32, "x", true, 99999)
	f.Fuzz(func(t *testing.T, scheme, dests string, nodes, bits, k int, min string, eoh bool, trace int) {
		if nodes > 1<<16 || k > 1<<10 {
			return // (a million-node header is allowed but slow to print)
		}
		args := []string{"encode", "--scheme", scheme, "--dests", dests, "--nodes", strconv.Itoa(nodes),
			"--flit-bits", strconv.Itoa(bits), "--k", strconv.Itoa(k), "--min", min, "--trace", strconv.Itoa(trace),
			"--eoh=" + strconv.FormatBool(eoh), "--format", "json"}
		code, stdout, stderr := runMain(t, args...)
		fuzzOutcome(t, args, code, stdout, stderr)
		if code == 0 && !json.Valid([]byte(stdout)) {
			t.Fatalf("%q: output is not JSON: %.200q", args, stdout)
		}
	})
}
