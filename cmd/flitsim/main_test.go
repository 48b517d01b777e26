package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/network/topology"
	xbar "github.com/flitsim/flitsim/switch"
	"github.com/flitsim/flitsim/traffic"
)

func runMain(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = realMain(args, &o, &e)
	return code, o.String(), e.String()
}

// wantFail checks exit status code and a single "flitsim: ..." stderr line
// containing every part.
func wantFail(t *testing.T, code int, args []string, parts ...string) {
	t.Helper()
	got, _, stderr := runMain(t, args...)
	if got != code {
		t.Errorf("%q: exit %d, want %d (stderr %q)", args, got, code, stderr)
	}
	if !strings.HasPrefix(stderr, "flitsim: ") || !strings.HasSuffix(stderr, "\n") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("%q: stderr is not one \"flitsim: ...\" line: %q", args, stderr)
	}
	for _, p := range parts {
		if !strings.Contains(stderr, p) {
			t.Errorf("%q: stderr %q does not contain %q", args, stderr, p)
		}
	}
}

// stubRun replaces network.Run for one test.
func stubRun(t *testing.T, f func(network.Config) (*network.Result, error)) {
	t.Helper()
	old := runNetwork
	runNetwork = func(n *network.Network) (*network.Result, error) { return f(n.Cfg) }
	t.Cleanup(func() { runNetwork = old })
}

func fakeResult(c network.Config) *network.Result {
	return &network.Result{
		Config: c, Cycles: 11000, Terminals: 64,
		InjectedPackets: 3500, DeliveredPackets: 3490, InjectedFlits: 14000, DeliveredFlits: 13960,
		MeasuredPackets: 3200, MeasuredDelivered: 3200,
		Latency:        network.Summary{Count: 3200, Mean: 12.5, P50: 11, P95: 20, P99: 25, Max: 40, CI95: 0.25},
		NetworkLatency: network.Summary{Count: 3200, Mean: 10.125, CI95: 0.2},
		Offered:        0.2, Throughput: 0.199, Hops: 5.33,
		ChannelUtilMean: 0.1, ChannelUtilMax: 0.31, BusiestChannel: "(3,4) x+",
		MaxBufferOccupancy: 4, Status: network.StatusDeadlock,
		Deadlock: &network.Deadlock{Cycle: 900, Since: 700,
			Worms:     []network.DeadlockWorm{{ID: 7, Src: 1, Dst: []int32{5}}, {ID: 9, Src: 5, Dst: []int32{2}}},
			Resources: []string{"s1.in0", "s2.in0"}, Switches: []string{"s1", "s2"}},
	}
}

func writeFile(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "exp.yaml")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestBadInput(t *testing.T) {
	stubRun(t, func(c network.Config) (*network.Result, error) { return fakeResult(c), nil })
	bad := writeFile(t, "traffic:\n  lod: 0.3\n")
	wantFail(t, 2, []string{"run", "--set", "traffic.lod=0.3"}, "traffic.lod", "unknown key", "load")
	wantFail(t, 2, []string{"run", "-c", bad}, bad+":2:", "traffic.lod", "unknown key")
	wantFail(t, 2, []string{"run", "--set", "run.seed=abc"}, `run.seed: "abc" is not allowed (allowed: a non-negative integer)`)
	wantFail(t, 2, []string{"run", "--seed", "-3"}, `run.seed: "-3" is not allowed`)
	wantFail(t, 2, []string{"run", "--set", "switch.reuse=perhaps"}, `switch.reuse`, "true or false")
	wantFail(t, 2, []string{"run", "--set", "traffic.load=lots"}, `traffic.load`, "number")
	wantFail(t, 2, []string{"run", "--set", "topology.dims=1,a"}, `topology.dims`, "list of integers")
	wantFail(t, 2, []string{"run", "--format", "xml"}, `--format: "xml" is not allowed (allowed: table, json, csv)`)
	wantFail(t, 2, []string{"verify", "--format", "csv"}, `--format: "csv" is not allowed (allowed: table, json)`)
	wantFail(t, 2, []string{"run", "-c", filepath.Join(t.TempDir(), "missing.yaml")}, "missing.yaml", "no such file")
	wantFail(t, 2, []string{"run", "--bogus"}, "run: unknown flag: --bogus")
	wantFail(t, 2, []string{"run", "--set"}, "run:", "--set")
	wantFail(t, 2, []string{"frobnicate"}, `unknown command "frobnicate"`)
	wantFail(t, 2, []string{"run", "a.yaml", "b.yaml"}, "unexpected argument")
	wantFail(t, 2, []string{"run", "-c", writeFile(t, "run: [1,\n")}, "exp.yaml:")
	wantFail(t, 2, []string{"list", "extra"}, `list: "extra" is not allowed`)
}

func TestRunErrors(t *testing.T) {
	stubRun(t, func(network.Config) (*network.Result, error) {
		return nil, &inputerr.Error{Key: "routing", Value: "ecube", Allowed: "dor, west-first"}
	})
	wantFail(t, 2, []string{"run"}, "routing: ecube is not allowed (allowed: dor, west-first)")
	stubRun(t, func(network.Config) (*network.Result, error) {
		return nil, errors.New("two\nlines")
	})
	wantFail(t, 2, []string{}, "two; lines")
	stubRun(t, func(network.Config) (*network.Result, error) { panic("boom\nat line 2") })
	wantFail(t, 70, []string{"run"}, "internal error: boom; at line 2")
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}, {"run", "-h"}, {"list", "--help"},
		{"verify", "-h"}, {"help", "run"}} {
		code, out, errOut := runMain(t, args...)
		if code != 0 || out == "" || errOut != "" {
			t.Errorf("%q: exit %d, stdout %d bytes, stderr %q", args, code, len(out), errOut)
		}
	}
	_, out, _ := runMain(t, "run", "-h")
	for _, f := range []string{"--config", "--set", "--seed", "--format"} {
		if !strings.Contains(out, f) {
			t.Errorf("run -h does not mention %s", f)
		}
	}
}

func TestOutputFormats(t *testing.T) {
	var got network.Config
	stubRun(t, func(c network.Config) (*network.Result, error) { got = c; return fakeResult(c), nil })

	code, out, errOut := runMain(t, "run", "--seed", "42", "--set", "traffic.load=0.3")
	if code != 3 || errOut != "flitsim: deadlock at cycle 900\n" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if got.Run.Seed != 42 || got.Traffic.Load != 0.3 {
		t.Errorf("run got config %+v", got)
	}
	for _, s := range []string{"mesh k=8 n=2", "12.5 ± 0.25", "11 / 20 / 25", "(3,4) x+", "at cycle 900",
		"#7 1→5", "s1.in0 → s2.in0", "0.199"} {
		if !strings.Contains(out, s) {
			t.Errorf("table lacks %q:\n%s", s, out)
		}
	}

	code, out, _ = runMain(t, "run", "--format", "csv")
	if code != 3 {
		t.Fatalf("csv: exit %d", code)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(recs) != 2 || len(recs[0]) != len(recs[1]) {
		t.Fatalf("csv: %v, %d records", err, len(recs))
	}
	col := map[string]string{}
	for i, k := range recs[0] {
		col[k] = recs[1][i]
	}
	for k, v := range map[string]string{"latency.mean": "12.5", "cycles": "11000", "config.topology.kind": "mesh",
		"config.traffic.flits": "4", "deadlock.cycle": "900", "deadlock.worms": "7:1>5;9:5>2", "config.switch.reuse": "true"} {
		if col[k] != v {
			t.Errorf("csv %s = %q, want %q", k, col[k], v)
		}
	}
	// Without a deadlock the columns stay the same.
	stubRun(t, func(c network.Config) (*network.Result, error) {
		r := fakeResult(c)
		r.Deadlock, r.Status = nil, network.StatusOK
		return r, nil
	})
	_, out2, _ := runMain(t, "run", "-f", "csv")
	if strings.SplitN(out2, "\n", 2)[0] != strings.SplitN(out, "\n", 2)[0] {
		t.Errorf("csv header depends on the deadlock")
	}
	_, out, _ = runMain(t, "run")
	if !strings.Contains(out, "none") {
		t.Errorf("table without deadlock lacks \"none\"")
	}
	checkJSON(t, "run", "--format", "json")
}

// checkJSON runs flitsim with args and checks the JSON result's keys.
func checkJSON(t *testing.T, args ...string) map[string]any {
	t.Helper()
	code, out, errOut := runMain(t, args...)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("json does not parse: %v\n%s", err, out)
	}
	for _, k := range []string{"config", "cycles", "injected_packets", "delivered_packets", "latency", "throughput", "deadlock"} {
		if _, ok := m[k]; !ok {
			t.Errorf("json lacks %q", k)
		}
	}
	lat, _ := m["latency"].(map[string]any)
	for _, k := range []string{"mean", "p50", "p95", "p99", "max", "ci95"} {
		if _, ok := lat[k]; !ok {
			t.Errorf("json latency lacks %q", k)
		}
	}
	return m
}

// TestRunJSON runs the real simulator (a short default run).
func TestRunJSON(t *testing.T) {
	m := checkJSON(t, "run", "--format", "json", "--set", "run.warmup=100", "--set", "run.measure=1000")
	if d, ok := m["delivered_packets"].(float64); !ok || d <= 0 {
		t.Errorf("delivered_packets = %v", m["delivered_packets"])
	}
	if m["deadlock"] != nil {
		t.Errorf("default run deadlocked: %v", m["deadlock"])
	}
}

func TestList(t *testing.T) {
	code, out, _ := runMain(t, "list")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, s := range []string{"round-robin", "wormhole", "traffic.load", "run.seed"} {
		if !strings.Contains(out, s) {
			t.Errorf("list lacks %q", s)
		}
	}
	// Every registered name is a row of its section.
	section := func(title string) string {
		_, rest, ok := strings.Cut("\n"+out, "\n"+title)
		if !ok {
			t.Fatalf("list has no section %q", title)
		}
		body, _, _ := strings.Cut(rest, "\n\n")
		return body
	}
	row := func(title, name string) {
		if !strings.Contains(section(title), "│ "+name+" ") {
			t.Errorf("section %q lacks a row %q", title, name)
		}
	}
	for _, k := range topology.Kinds() {
		row("Topologies", k.Name)
		for _, p := range k.Params {
			row("Topology parameters", "topology."+p.Key)
		}
		for _, r := range k.Routings {
			row("Routing functions", r.Name)
		}
	}
	for _, name := range xbar.PolicyNames() {
		row("Arbiters", name)
	}
	for _, m := range xbar.Modes() {
		row("Switching modes", m.String())
	}
	for _, p := range traffic.AllPatterns() {
		row("Traffic patterns", p.Name)
	}
}

// TestChannelsFlag: --channels writes one CSV row per wired channel (a 3×3
// mesh has 24 links between switches, 9 ejection and 9 injection links) and
// lists them in the result too; a file that cannot be created fails before
// the run.
func TestChannelsFlag(t *testing.T) {
	p := filepath.Join(t.TempDir(), "channels.csv")
	code, stdout, stderr := runMain(t, "run", "--set", "topology.k=3", "--set", "run.measure=500",
		"--format", "json", "--channels", p)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 43 || strings.Join(rows[0], ",") != "channel,to,flits,utilisation" {
		t.Fatalf("%d rows, header %q", len(rows), rows[0])
	}
	var r network.Result
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	if !r.Config.Run.Channels || len(r.Channels) != 42 {
		t.Fatalf("result: run.channels %v, %d channels", r.Config.Run.Channels, len(r.Channels))
	}
	var loaded int
	for i, c := range r.Channels {
		if row := rows[i+1]; row[0] != c.Channel || row[1] != c.To || row[2] != fmt.Sprint(c.Flits) {
			t.Errorf("row %d %q, result %+v", i+1, row, c)
		}
		if c.Flits > 0 {
			loaded++
		}
	}
	if loaded < 40 {
		t.Errorf("only %d of 42 channels carried flits at load 0.2", loaded)
	}
	wantFail(t, 2, []string{"run", "--channels", filepath.Join(t.TempDir(), "no", "such", "dir.csv")}, "--channels", "no such file")
}

// TestUnusedKeyWarning: a key that does nothing for the kind is a warning
// line on stderr, and the run still succeeds (as do sweeps across kinds).
func TestUnusedKeyWarning(t *testing.T) {
	short := []string{"--set", "run.warmup=10", "--set", "run.measure=100", "--set", "topology.k=4"}
	code, out, stderr := runMain(t, append([]string{"run", "--set", "topology.d=5"}, short...)...)
	if code != 0 || out == "" || stderr != "flitsim: warning: --set topology.d: ignored (mesh has no parameter d; its parameters: k, n, order)\n" {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	args := append([]string{"sweep", "--set", "topology.d=3", "--vary", "topology.kind=mesh,hypercube", "--set", "topology.n=2"}, short...)
	code, _, stderr = runMain(t, args...)
	// One warning per distinct key and kind: d on the mesh; k and n on the hypercube.
	if code != 0 || strings.Count(stderr, "warning:") != 3 || !strings.Contains(stderr, "hypercube has no parameter k") {
		t.Errorf("sweep: exit %d, stderr %q", code, stderr)
	}
}
