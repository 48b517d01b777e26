package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A small run for the trace flags: a 4×4 mesh, 150 measured cycles.
var traceRun = []string{"run", "--format", "json", "--set", "topology.k=4", "--set", "run.warmup=0",
	"--set", "run.measure=150", "--set", "traffic.load=0.3"}

// Tracing writes the three files and leaves the result unchanged.
func TestRunTraceFlags(t *testing.T) {
	code, plain, errOut := runMain(t, traceRun...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	dir := t.TempDir()
	vcd, ev, pf := filepath.Join(dir, "x.vcd"), filepath.Join(dir, "x.jsonl"), filepath.Join(dir, "x.json")
	args := append(append([]string(nil), traceRun...), "--trace-vcd", vcd, "--trace-events", ev, "--trace-perfetto", pf,
		"--trace-window", "10:120", "--trace-only", "r(0,*),t3")
	code, traced, errOut := runMain(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if traced != plain {
		t.Error("tracing changed the result")
	}
	data, err := os.ReadFile(vcd)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"$timescale 1ns $end", "$scope module r_0_0 $end", "$scope module t3 $end", "$enddefinitions $end", "#10\n$dumpvars\n"} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("VCD lacks %q", want)
		}
	}
	if bytes.Contains(data, []byte("r_1_1")) {
		t.Error("VCD has r(1,1) despite --trace-only")
	}
	// The GTKWave save file and its filters beside the dump.
	save, err := os.ReadFile(filepath.Join(dir, "x.gtkw"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`[dumpfile] "` + vcd + `"`, "\nnetwork.r_0_", "\nnetwork.t3.state[1:0]\n", "^1 " + filepath.Join(dir, "x.kind.txt")} {
		if !strings.Contains(string(save), want) {
			t.Errorf("save file lacks %q:\n%s", want, save)
		}
	}
	for _, f := range []string{"x.kind.txt", "x.state.txt", "x.reason.txt"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	f, err := os.Open(ev)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for ; sc.Scan(); n++ {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("event line %d: %v", n+1, err)
		}
	}
	if n == 0 {
		t.Error("empty event log")
	}
	data, err = os.ReadFile(pf)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ TraceEvents []map[string]any }
	if err := json.Unmarshal(data, &doc); err != nil || len(doc.TraceEvents) == 0 {
		t.Errorf("timeline: %v, %d events", err, len(doc.TraceEvents))
	}
	// Router and link tracks.
	for _, mode := range []string{"router", "link"} {
		pf := filepath.Join(dir, mode+".json")
		if code, _, errOut := runMain(t, append(append([]string(nil), traceRun...), "--trace-perfetto", pf, "--trace-perfetto-tracks", mode)...); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		data, _ := os.ReadFile(pf)
		var doc struct {
			OtherData   map[string]string
			TraceEvents []map[string]any
		}
		if err := json.Unmarshal(data, &doc); err != nil || doc.OtherData["tracks"] != mode || len(doc.TraceEvents) == 0 {
			t.Errorf("%s timeline: %v, %v, %d events", mode, err, doc.OtherData, len(doc.TraceEvents))
		}
	}
	// CSV by extension.
	csvFile := filepath.Join(dir, "x.csv")
	if code, _, errOut := runMain(t, append(append([]string(nil), traceRun...), "--trace-events", csvFile)...); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if data, _ := os.ReadFile(csvFile); !strings.HasPrefix(string(data), "cycle,event,worm,") {
		t.Errorf("CSV log starts %q", string(data[:min(len(data), 40)]))
	}
}

func TestRunTraceErrors(t *testing.T) {
	dir := t.TempDir()
	vcd := filepath.Join(dir, "x.vcd")
	with := func(extra ...string) []string { return append(append([]string(nil), traceRun...), extra...) }
	wantFail(t, 2, with("--trace-vcd", vcd, "--trace-window", "50:20"), `--trace-window: "50:20" is not allowed`)
	wantFail(t, 2, with("--trace-vcd", vcd, "--trace-window", "x"), `--trace-window: "x" is not allowed`)
	wantFail(t, 2, with("--trace-events", filepath.Join(dir, "x.txt")), "--trace-events", "unknown extension", ".csv, .jsonl")
	wantFail(t, 2, with("--trace-vcd", vcd, "--trace-only", "s9,*"), `--trace-only: "s9" matches no switch or terminal`)
	wantFail(t, 2, with("--trace-only", "r(0,*)"), "--trace-only: needs --trace-vcd")
	wantFail(t, 2, with("--trace-window", "1:2"), "--trace-window: needs --trace-vcd")
	wantFail(t, 2, with("--trace-perfetto-tracks", "link"), "--trace-perfetto-tracks: needs --trace-perfetto")
	wantFail(t, 2, with("--trace-perfetto", filepath.Join(dir, "x.json"), "--trace-perfetto-tracks", "port"),
		`--trace-perfetto-tracks: "port" is not allowed (allowed: worm, router, link)`)
	wantFail(t, 2, with("--trace-perfetto", filepath.Join(dir, "no", "such", "dir", "x.json")), "--trace-perfetto:")
}
