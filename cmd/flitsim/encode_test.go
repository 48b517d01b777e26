package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// encodeJSONOut runs flitsim encode --format json and decodes the output.
func encodeJSONOut(t *testing.T, args ...string) map[string]any {
	t.Helper()
	code, out, errOut := runMain(t, append([]string{"encode", "--format", "json"}, args...)...)
	if code != 0 || errOut != "" {
		t.Fatalf("%q: exit %d, stderr %q", args, code, errOut)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("json does not parse: %v\n%s", err, out)
	}
	for _, k := range []string{"scheme", "nodes", "flit_bits", "destinations", "flits", "header"} {
		if _, ok := m[k]; !ok {
			t.Errorf("json lacks %q", k)
		}
	}
	return m
}

func TestEncodeJSON(t *testing.T) {
	// Table 3.1, pattern 1, multiple region broadcast: 22 regions, 45 flits.
	m := encodeJSONOut(t, "--scheme", "region-broadcast", "--dests", "1:12:1,32:50:2,60:75:1,90:117:3")
	if m["scheme"] != "mrb" || m["nodes"] != 256.0 || m["flit_bits"] != 8.0 || m["flits"] != 45.0 || m["regions"] != 22.0 {
		t.Errorf("got scheme %v nodes %v flit_bits %v flits %v regions %v", m["scheme"], m["nodes"], m["flit_bits"], m["flits"], m["regions"])
	}
	if d, _ := m["destinations"].([]any); len(d) != 48 || d[0] != 1.0 || d[47] != 117.0 {
		t.Errorf("destinations %v", m["destinations"])
	}
	hdr, _ := m["header"].([]any)
	if len(hdr) != 45 {
		t.Fatalf("%d header flits", len(hdr))
	}
	f0, _ := hdr[0].(map[string]any)
	if f0["kind"] != "counter" || f0["value"] != 22.0 || f0["binary"] != "00010110" || f0["index"] != 0.0 {
		t.Errorf("first flit %v", f0)
	}
	// --n sets the node count; a trace delivers exactly the set.
	m = encodeJSONOut(t, "--scheme", "ad", "--k", "2", "--n", "3", "--flit-bits", "3", "--dests", "2,3,5", "--trace", "0")
	if m["nodes"] != 8.0 || m["notation"] != "2 3 5 E" {
		t.Errorf("nodes %v notation %v", m["nodes"], m["notation"])
	}
	tr, _ := m["trace"].(map[string]any)
	if d, _ := tr["delivered"].([]any); len(d) != 3 || d[0] != 2.0 || d[2] != 5.0 {
		t.Errorf("trace %v", tr)
	}
}

func TestEncodeTable(t *testing.T) {
	code, out, errOut := runMain(t, "encode", "--scheme", "bs-buffered", "--nodes", "8", "--flit-bits", "3", "--dests", "2:3,5")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, s := range []string{"INDEX", "KIND", "BINARY", "DECIMAL", "bits (first 2 bits)", "101", "3 flits", "00110100", "destinations: 3: 2:3,5"} {
		if !strings.Contains(out, s) {
			t.Errorf("table lacks %q:\n%s", s, out)
		}
	}
	code, out, _ = runMain(t, "encode", "-s", "mrs", "-d", "1:7:2", "--nodes", "8", "--flit-bits", "3", "--trace", "0")
	for _, s := range []string{"1; 1:7:2", "s2,0", "node 7", "1; 5:7:2", "delivered: 1:7:2"} {
		if code != 0 || !strings.Contains(out, s) {
			t.Errorf("trace table (exit %d) lacks %q:\n%s", code, s, out)
		}
	}
}

func TestEncodeBadInput(t *testing.T) {
	base := []string{"encode", "--nodes", "256", "--flit-bits", "8"}
	with := func(args ...string) []string { return append(append([]string{}, base...), args...) }
	wantFail(t, 2, with("--scheme", "zigzag", "--dests", "1"), `--scheme: zigzag is not allowed`, "mrbs", "region-broadcast")
	wantFail(t, 2, with("--dests", "1"), `--scheme: "" is not allowed`)
	wantFail(t, 2, with("--scheme", "mrb"), `--dests: "" is not allowed`, "1:12:1,32:50:2,90")
	wantFail(t, 2, with("--scheme", "mrb", "--dests", "1:x"), `--dests: "1:x"`, `not a non-negative integer`)
	wantFail(t, 2, with("--scheme", "mrb", "--dests", "9:3"), `--dests: "9:3" (begin after end)`)
	wantFail(t, 2, with("--scheme", "mrb", "--dests", "1,256"), `--dests: "256" (node 256 ≥ 256 nodes)`)
	wantFail(t, 2, []string{"encode", "--scheme", "mrb", "--dests", "1", "--nodes", "12"}, `--nodes: 12 is not allowed`, "power of the radix k = 2")
	wantFail(t, 2, []string{"encode", "--scheme", "mrb", "--dests", "1", "--nodes", "32", "--k", "4"}, `--nodes: 32 is not allowed`, "k = 4")
	wantFail(t, 2, with("--scheme", "mrm", "--dests", "1", "--flit-bits", "7"), `--flit-bits: 7 is not allowed`, "at least 8 for 256 nodes")
	wantFail(t, 2, with("--scheme", "mrm", "--dests", "1", "--flit-bits", "70"), `--flit-bits: 70 is not allowed`, "1 to 64")
	wantFail(t, 2, with("--scheme", "mrm", "--dests", "1", "--k", "1"), `--k: 1 is not allowed`)
	wantFail(t, 2, with("--scheme", "mrm", "--dests", "1", "--min", "torus"), `--min: torus is not allowed`, "butterfly")
	wantFail(t, 2, with("--scheme", "mrm", "--dests", "1", "--n", "3"), `--n: 3 is not allowed`, "--nodes 256")
	wantFail(t, 2, []string{"encode", "--scheme", "mrm", "--dests", "1", "--n", "40"}, `--n: 40 is not allowed`)
	wantFail(t, 2, with("--scheme", "mrm", "--dests", "1", "--trace", "256"), `--trace: 256 is not allowed`, "0 to 255")
	wantFail(t, 2, with("--scheme", "mrm", "--dests", "1", "--format", "csv"), `--format: "csv" is not allowed (allowed: table, json)`)
	wantFail(t, 2, with("--scheme", "mrm", "--dests", "1", "extra"), `encode: unexpected argument "extra"`)
	wantFail(t, 2, with("--bogus"), "encode: unknown flag: --bogus")
}

func TestEncodeHelp(t *testing.T) {
	for _, args := range [][]string{{"encode", "-h"}, {"help", "encode"}} {
		code, out, errOut := runMain(t, args...)
		if code != 0 || errOut != "" || !strings.Contains(out, "--scheme") || !strings.Contains(out, "--dests") {
			t.Errorf("%q: exit %d, stderr %q\n%s", args, code, errOut, out)
		}
	}
	if _, out, _ := runMain(t, "help"); !strings.Contains(out, "flitsim encode") {
		t.Errorf("usage does not list encode")
	}
}
