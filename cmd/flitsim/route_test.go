package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func routeRun(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := realMain(append([]string{"route"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

// The static schedules of Q and H on 8×8 and 16×16 (digest §5.3), and the
// JSON fields the issue names.
func TestRouteStaticJSON(t *testing.T) {
	for _, c := range []struct {
		alg, k        string
		data, integ   int64
		buf, bufAfter int
	}{{"q", "8", 24, 5, 5, 4}, {"h", "8", 31, 13, 3, 2}, {"q", "16", 55, 15, 5, 4}, {"h", "16", 73, 37, 3, 2}} {
		code, out, errs := routeRun(t, "--algorithm", c.alg, "--set", "topology.k="+c.k, "--format", "json")
		if code != 0 {
			t.Fatalf("%s %s: exit %d: %s", c.alg, c.k, code, errs)
		}
		var r struct {
			Data   int64 `json:"data_steps"`
			Int    int64 `json:"integer_steps"`
			Total  int64 `json:"total_steps"`
			Max    int   `json:"max_buffer"`
			After  int   `json:"max_buffer_after_move"`
			Stages []struct {
				Phases []struct{ Steps int64 } `json:"phases"`
			} `json:"stages"`
			Bound struct {
				Max   int `json:"max_buffer"`
				After int `json:"max_buffer_after_move"`
			} `json:"bound"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		if r.Data != c.data || r.Int != c.integ || r.Total != c.data+c.integ || len(r.Stages) == 0 {
			t.Errorf("%s %s: %d + %d = %d steps, want %d + %d", c.alg, c.k, r.Data, r.Int, r.Total, c.data, c.integ)
		}
		if r.Max > c.buf || r.After > c.bufAfter || r.Bound.Max != c.buf || r.Bound.After != c.bufAfter {
			t.Errorf("%s %s: buffers %d/%d (bound %d/%d), want ≤ %d/%d", c.alg, c.k, r.Max, r.After, r.Bound.Max, r.Bound.After, c.buf, c.bufAfter)
		}
	}
}

// Bad input: one line naming what was written, exit 2.
func TestRouteBadInput(t *testing.T) {
	dir := t.TempDir()
	dup := filepath.Join(dir, "dup.txt")
	os.WriteFile(dup, []byte("0 1 2 3\n4 5 6 7\n8 9 3 11\n12 13 14 15\n"), 0o644)
	short := filepath.Join(dir, "short.txt")
	os.WriteFile(short, []byte("0 1 2\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--algorithm", "z"}, "--algorithm: z is not allowed (allowed: q, h, greedy, greedy-ff)"},
		{[]string{"--algorithm", "greedy", "--set", "topology.k=300"}, "topology.k: 300 is not allowed (allowed: sides from 2 to 256)"},
		{[]string{"--algorithm", "q", "--set", "topology.k=6"}, "topology.k: 6 is not allowed (allowed: sides a power of two"},
		{[]string{"--algorithm", "h", "--set", "topology.k=8,4"}, "algorithm h needs at least as many rows as columns"},
		{[]string{"--algorithm", "greedy", "--set", "topology.k=4,8"}, "algorithm greedy needs a square mesh"},
		{[]string{"--algorithm", "q", "--set", "topology.k=4,8", "--permutation", "transpose"}, "transpose on a 8×4 mesh: it needs a square mesh"},
		{[]string{"--algorithm", "q", "--set", "topology.kind=torus"}, "topology.kind: torus"},
		{[]string{"--algorithm", "q", "--permutation", "zigzag"}, "--permutation: zigzag"},
		{[]string{"--algorithm", "q", "--schedule", "soon"}, "--schedule: soon"},
		{[]string{"--algorithm", "q", "--set", "lockstep.buffers=65"}, "--set lockstep.buffers: 65 is not allowed (allowed: an integer from 0 to 64"},
		{[]string{"--algorithm", "q", "--set", "switching=vct"}, "--set switching: vct is not allowed (allowed: lockstep-mesh"},
		{[]string{"--algorithm", "q", "--broadcast", "all"}, "--broadcast: all is not allowed (allowed: restricted)"},
		{[]string{"--algorithm", "greedy", "--broadcast", "restricted"}, "q or h with --broadcast"},
		{[]string{"--algorithm", "q", "--broadcast", "restricted", "--permutation", "rot180"}, "give one"},
		{[]string{"--algorithm", "q", "--set", "topology.k=4", "--permutation", "file:" + dup}, "destination 3 (0,3) repeated: processors 3 and 10"},
		{[]string{"--algorithm", "q", "--set", "topology.k=4", "--permutation", "file:" + short}, "processor 3 (0,3) has no entry"},
		{[]string{"--algorithm", "q", "--set", "topology.k=4", "--permutation", "file:" + short, "--trace-events", short}, "--trace-events"},
		{[]string{"--algorithm", "q", "--trace-events", filepath.Join(dir, "none", "x.csv")}, "--trace-events: open"},
	} {
		code, _, errs := routeRun(t, c.args...)
		if code != exitBadInput || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, %q; want exit 2 and one line with %q", c.args, code, errs, c.want)
		}
	}
}

// Fig. 3.3's crossing on a machine of 4-message pools: the hardware refuses
// step 2 at (2,2) and names the five messages; the command exits 3 (the
// pools asked for are smaller than Q needs).
func TestRouteRefusedStep(t *testing.T) {
	dest := make([]string, 64)
	for i := range dest {
		dest[i] = "-1"
	}
	for src, d := range map[int]int{2*8 + 2: 9, 2: 45, 4*8 + 2: 27, 2 * 8: 7, 2*8 + 4: 0} {
		dest[src] = strconv.Itoa(d)
	}
	f := filepath.Join(t.TempDir(), "fig33.txt")
	os.WriteFile(f, []byte(strings.Join(dest, " ")+"\n"), 0o644)
	code, _, errs := routeRun(t, "--algorithm", "q", "--set", "topology.k=8", "--set", "lockstep.buffers=4", "--permutation", "file:"+f)
	if code != exitDeadlock || !strings.Contains(errs, "refused data step 2 at processor (2,2): its pool of 4 buffers would hold 5") {
		t.Errorf("exit %d, %q", code, errs)
	}
	if code, _, errs := routeRun(t, "--algorithm", "q", "--set", "topology.k=8", "--permutation", "file:"+f); code != 0 {
		t.Errorf("5 buffers: exit %d, %q", code, errs)
	}

	// The event log of the refused run holds step 1: A, B, C and D on
	// their way to (2,2), which holds E alone after it.
	log := filepath.Join(t.TempDir(), "ev.csv")
	routeRun(t, "--algorithm", "q", "--set", "topology.k=8", "--set", "lockstep.buffers=4", "--permutation", "file:"+f, "--trace-events", log)
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	want := "step,kind,stage,phase,row,col,dir,to_row,to_col,message,copy,value,held\n" +
		"1,data,8,move,0,2,south,1,2,0,0,,1\n1,data,8,move,2,0,east,2,1,1,0,,1\n" +
		"1,data,8,move,2,4,west,2,3,3,0,,1\n1,data,8,move,4,2,north,3,2,4,0,,1\n"
	if string(data) != want {
		t.Errorf("event log:\n%s\nwant\n%s", data, want)
	}
}

// A restricted broadcast keeps the permutation's static schedule and
// buffers (Thm 3.4, 4.6) and reports the copies made.
func TestRouteBroadcast(t *testing.T) {
	code, out, errs := routeRun(t, "--algorithm", "h", "--set", "topology.k=16", "--broadcast", "restricted", "--seed", "3", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r struct {
		Data   int64 `json:"data_steps"`
		Int    int64 `json:"integer_steps"`
		Max    int   `json:"max_buffer"`
		Copies int   `json:"copies"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Data != 73 || r.Int != 37 || r.Max > 3 || r.Copies == 0 {
		t.Errorf("%+v, want 73 + 37 steps, ≤ 3 buffers, copies", r)
	}
}

// A rectangle of 8 columns and 16 rows (topology.k=8,16) under Q and H.
func TestRouteRectangle(t *testing.T) {
	for _, alg := range []string{"q", "h"} {
		code, out, errs := routeRun(t, "--algorithm", alg, "--set", "topology.k=8,16", "--permutation", "rot180", "--format", "json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", alg, code, errs)
		}
		var r struct {
			Rows, Cols int
			Max        int `json:"max_buffer"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		if r.Rows != 16 || r.Cols != 8 || r.Max > 5 {
			t.Errorf("%s: %+v", alg, r)
		}
	}
}

// route --table: Tables 5.1 and 5.2 with the measured worst case beside
// every formula (table and JSON), the variants not built named as such;
// flags that pick one routing, and a side it does not take, exit 2.
func TestRouteTable(t *testing.T) {
	code, out, errs := routeRun(t, "--table", "--set", "topology.k=16")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"Table 5.1", "Table 5.2", "Lower bounds", "4n t_M + 1.5n t_m", "16×16         47+15     55+15         64 + 24      5 yes",
		"H with k strips", "k+1     16×16         48+15     57+15       64.8 + 24      5 yes", "not built", "32×16", "yes (static)", "yes (measured)"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, " NO") {
		t.Errorf("a bound does not hold:\n%s", out)
	}
	code, out, errs = routeRun(t, "--table", "--set", "topology.k=16", "--format", "json")
	var rows []struct {
		Variant    string  `json:"variant"`
		Built      bool    `json:"built"`
		Data       int64   `json:"data_steps"`
		StaticData int64   `json:"static_data_steps"`
		BoundData  float64 `json:"bound_data_steps"`
		OK         bool    `json:"ok"`
	}
	if code != 0 {
		t.Fatalf("json: exit %d: %s", code, errs)
	}
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 12 || rows[5].Variant != "H" || !rows[5].Built || rows[5].StaticData != 73 || rows[5].BoundData != 88 || !rows[5].OK || !rows[1].Built || !rows[1].OK || !rows[3].Built || !rows[8].Built || !rows[8].OK || rows[2].Built {
		t.Errorf("json rows: %+v", rows)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--table", "--set", "topology.k=12"}, "topology.k: 12 is not allowed"},
		{[]string{"--table", "--set", "topology.k=8"}, "topology.k: 8 is not allowed"},
		{[]string{"--table", "--algorithm", "q"}, "--table and --algorithm"},
		{[]string{"--table", "--set", "lockstep.buffers=3"}, "lockstep.buffers=3"},
	} {
		code, _, errs := routeRun(t, c.args...)
		if code != exitBadInput || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, %q; want exit 2 and one line with %q", c.args, code, errs, c.want)
		}
	}
}

// --variant kstrip: k-strip H with route.k strips (default 4) on a side
// that is a power of k, k + 1 buffers; a refused step on k buffers exits 3;
// bad input exits 2 with one line.
func TestRouteKStrip(t *testing.T) {
	code, out, errs := routeRun(t, "--algorithm", "h", "--variant", "kstrip", "--set", "route.k=6", "--set", "topology.k=36", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r struct {
		Alg   string `json:"algorithm"`
		Data  int64  `json:"data_steps"`
		Int   int64  `json:"integer_steps"`
		Max   int    `json:"max_buffer"`
		After int    `json:"max_buffer_after_move"`
		Bound struct {
			Data float64 `json:"data_steps"`
			Int  float64 `json:"integer_steps"`
			Max  int     `json:"max_buffer"`
		} `json:"bound"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	// (static: integer steps (1/6 + 1/2)·36 − 2 + 3·36/12 − 2 + (6/2 − 1) = 31)
	if r.Alg != "h-kstrip" || r.Int != 31 || float64(r.Data) > r.Bound.Data || r.Max > 7 || r.After > 6 || r.Bound.Max != 7 {
		t.Errorf("%+v", r)
	}
	code, _, errs = routeRun(t, "--algorithm", "h", "--variant", "kstrip", "--set", "topology.k=16", "--set", "lockstep.buffers=4")
	if code != exitDeadlock || !strings.Contains(errs, "pool of 4 buffers would hold 5") {
		t.Errorf("4 buffers: exit %d, %q", code, errs)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--algorithm", "h", "--variant", "kstrip", "--set", "topology.k=32"}, "topology.k=32: k-strip H with route.k=4 needs a side that is a power of 4"},
		{[]string{"--algorithm", "q", "--variant", "kstrip", "--set", "topology.k=16"}, "--algorithm: q is not allowed"},
		{[]string{"--algorithm", "h", "--variant", "k2", "--set", "topology.k=16"}, "--algorithm: h is not allowed (allowed: q with --variant k2"},
		{[]string{"--algorithm", "q", "--variant", "zz", "--set", "topology.k=16"}, "--variant: zz is not allowed (allowed: kstrip, k2, odd1"},
		{[]string{"--algorithm", "q", "--variant", "k2", "--set", "route.k=18", "--set", "topology.k=16"}, "route.k: 18 is not allowed (allowed: an even number from 4 to 16 with --variant k2)"},
		{[]string{"--algorithm", "q", "--variant", "k2", "--set", "topology.k=32"}, "topology.k=32: Q with route.k=4 needs a side that is a power of 4"},
		{[]string{"--algorithm", "h", "--set", "route.k=4", "--set", "topology.k=16"}, "route.k is a parameter of --variant (kstrip, k2, odd1)"},
		{[]string{"--algorithm", "h", "--variant", "kstrip", "--set", "route.k=5", "--set", "topology.k=16"}, "route.k: 5 is not allowed"},
		{[]string{"--algorithm", "h", "--variant", "kstrip", "--set", "topology.k=16", "--broadcast", "restricted"}, "the variants route permutations"},
	} {
		code, _, errs := routeRun(t, c.args...)
		if code != exitBadInput || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, %q; want exit 2 and one line with %q", c.args, code, errs, c.want)
		}
	}
}

// switching: lockstep-mesh and lockstep.buffers are configuration keys: a
// file sets them (its errors name its line), --set overrides them, and
// flitsim run refuses the lock-step mesh in one line, naming route.
func TestRouteConfigFile(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "han.yaml")
	os.WriteFile(f, []byte("topology:\n  kind: mesh\n  k: 16\n  n: 2\nswitching: lockstep-mesh\nlockstep:\n  buffers: 4\n"), 0o644)
	var r struct {
		Rows, Buffers, DataSteps int `json:",omitempty"`
	}
	code, out, errs := routeRun(t, "--algorithm", "q", "-c", f, "--permutation", "rot180", "--format", "json")
	if err := json.Unmarshal([]byte(out), &r); code != 0 || err != nil || r.Rows != 16 || r.Buffers != 4 {
		t.Fatalf("from the file: exit %d, %+v, %q", code, r, errs)
	}
	// Random inputs gather five at a processor of Q's move: 4 are refused (exit 3).
	if code, _, errs := routeRun(t, "--algorithm", "q", "-c", f); code != exitDeadlock || !strings.Contains(errs, "pool of 4 buffers") {
		t.Errorf("4 buffers from the file: exit %d, %q", code, errs)
	}
	code, out, _ = routeRun(t, "--algorithm", "q", "-c", f, "--set", "lockstep.buffers=5", "--format", "json")
	if err := json.Unmarshal([]byte(out), &r); code != 0 || err != nil || r.Buffers != 5 {
		t.Errorf("--set over the file: exit %d, %+v", code, r)
	}
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("topology:\n  kind: mesh\n  k: 8\n  n: 2\nswitching: lockstep-mesh\nlockstep:\n  buffers: -1\n"), 0o644)
	if code, _, errs := routeRun(t, "--algorithm", "h", "-c", bad); code != exitBadInput || !strings.Contains(errs, "bad.yaml:7: lockstep.buffers: -1 is not allowed") {
		t.Errorf("bad buffers: exit %d, %q", code, errs)
	}
	var o, e bytes.Buffer
	code = realMain([]string{"run", "-c", f}, &o, &e)
	if code != exitBadInput || !strings.Contains(e.String(), "han.yaml:5: switching: lockstep-mesh is not allowed") ||
		!strings.Contains(e.String(), "flitsim route") || strings.Count(e.String(), "\n") != 1 {
		t.Errorf("run: exit %d, %q", code, e.String())
	}
}

// --variant k2: Q with route.k² partitions on a side that is a power of
// k, k² + 2 buffers by default; a refused step on fewer exits 3.
func TestRouteK2(t *testing.T) {
	code, out, errs := routeRun(t, "--algorithm", "q", "--variant", "k2", "--set", "topology.k=16", "--format", "json")
	var r struct {
		Alg     string `json:"algorithm"`
		Buffers int    `json:"buffers"`
		Int     int64  `json:"integer_steps"`
		Max     int    `json:"max_buffer"`
	}
	// (static: integer steps 1.5·16/4 − 2 = 4; the 4×4 stage delivers)
	if err := json.Unmarshal([]byte(out), &r); code != 0 || err != nil || r.Alg != "q-k2" || r.Buffers != 18 || r.Int != 4 || r.Max > 18 {
		t.Fatalf("exit %d, %+v, %q", code, r, errs)
	}
	code, _, errs = routeRun(t, "--algorithm", "q", "--variant", "k2", "--set", "topology.k=64", "--set", "lockstep.buffers=5")
	if code != exitDeadlock || !strings.Contains(errs, "pool of 5 buffers would hold 6") {
		t.Errorf("5 buffers: exit %d, %q", code, errs)
	}
}

// lockstep.model illiac and lockstep.wrap: Q on the ILLIAC model, rot180
// in 4n − 4 data steps; the variants refuse it in one line.
func TestRouteIlliac(t *testing.T) {
	code, out, errs := routeRun(t, "--algorithm", "q", "--set", "topology.k=16", "--set", "lockstep.model=illiac", "--set", "lockstep.wrap=true",
		"--permutation", "rot180", "--schedule", "actual", "--format", "json")
	var r struct {
		Model string `json:"model"`
		Wrap  bool   `json:"wrap"`
		Data  int64  `json:"data_steps"`
	}
	if err := json.Unmarshal([]byte(out), &r); code != 0 || err != nil || r.Model != "illiac" || !r.Wrap || r.Data != 60 {
		t.Fatalf("exit %d, %+v, %q", code, r, errs)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--algorithm", "q", "--set", "lockstep.model=simd"}, "--set lockstep.model: simd is not allowed (allowed: distributed, illiac)"},
		{[]string{"--algorithm", "q", "--variant", "k2", "--set", "topology.k=16", "--set", "lockstep.model=illiac"}, "distributed without wrap with --variant k2"},
	} {
		code, _, errs := routeRun(t, c.args...)
		if code != exitBadInput || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, %q; want exit 2 and one line with %q", c.args, code, errs, c.want)
		}
	}
}

// --trace-vcd and --trace-perfetto write the lock-step mesh's dump and
// timeline beside the event log; one file named twice is bad input.
func TestRouteTraceFiles(t *testing.T) {
	dir := t.TempDir()
	vcd, tl, ev := filepath.Join(dir, "q.vcd"), filepath.Join(dir, "q.json"), filepath.Join(dir, "q.csv")
	code, _, errs := routeRun(t, "--algorithm", "q", "--set", "topology.k=8", "--permutation", "rot180",
		"--trace-vcd", vcd, "--trace-perfetto", tl, "--trace-events", ev)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	v, _ := os.ReadFile(vcd)
	log, _ := os.ReadFile(ev)
	lines := strings.Split(strings.TrimSpace(string(log)), "\n")
	last, _, _ := strings.Cut(lines[len(lines)-1], ",")
	n, _ := strconv.Atoi(last) // (the dump ends a step after the machine's last)
	for _, want := range []string{"$scope module p_7_7 $end", "$scope module m63 $end", "$enddefinitions $end", fmt.Sprintf("\n#%d\n", n+1)} {
		if !strings.Contains(string(v), want) {
			t.Errorf("the dump lacks %q", want)
		}
	}
	var doc struct {
		TraceEvents []map[string]any `json:"traceEvents"`
	}
	data, _ := os.ReadFile(tl)
	if err := json.Unmarshal(data, &doc); err != nil || len(doc.TraceEvents) == 0 {
		t.Errorf("timeline: %v, %d events", err, len(doc.TraceEvents))
	}
	code, _, errs = routeRun(t, "--algorithm", "q", "--trace-vcd", vcd, "--trace-perfetto", vcd)
	if code != exitBadInput || !strings.Contains(errs, "--trace-vcd") {
		t.Errorf("one file twice: exit %d, %q", code, errs)
	}
}

// --compare prints the greedy baselines' n against Q's and H's constants
// and draws them with --plot.
func TestRouteCompare(t *testing.T) {
	svg := filepath.Join(t.TempDir(), "cmp.svg")
	code, out, errs := routeRun(t, "--compare", "--set", "topology.k=16", "--plot", svg)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"greedy-ff      8    16   n\n", "q              4     4   5\n", "h              3     3   3\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if data, err := os.ReadFile(svg); err != nil || !strings.Contains(string(data), "<svg") {
		t.Errorf("plot: %v", err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--plot", svg}, "--plot: needs --compare"},
		{[]string{"--compare", "--algorithm", "q"}, "--compare and --algorithm: give one"},
		{[]string{"--compare", "--set", "topology.k=512"}, "topology.k: 512 is not allowed (allowed: a power of two from 8 to 256 with --compare)"},
	} {
		if code, _, errs := routeRun(t, c.args...); code != exitBadInput || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %q", c.args, code, errs)
		}
	}
}

// Restricted broadcasts run on the ILLIAC model and on rectangles: every
// destination reached, the permutation's static schedule.
func TestRouteBroadcastIlliacRect(t *testing.T) {
	for _, args := range [][]string{
		{"--set", "topology.k=16", "--set", "lockstep.model=illiac", "--set", "lockstep.wrap=true"},
		{"--set", "topology.k=8,16"},
	} {
		var runs [2]struct {
			Data     int64 `json:"data_steps"`
			Integer  int64 `json:"integer_steps"`
			Messages int   `json:"messages"`
			Copies   int   `json:"copies"`
		}
		for i, in := range [][]string{{"--broadcast", "restricted", "--seed", "2"}, {"--permutation", "rot180"}} {
			a := append(append([]string{"--algorithm", "h", "--format", "json"}, args...), in...)
			code, out, errs := routeRun(t, a...)
			if err := json.Unmarshal([]byte(out), &runs[i]); code != 0 || err != nil {
				t.Fatalf("%v: exit %d, %v, %q", a, code, err, errs)
			}
		}
		b, p := runs[0], runs[1]
		if b.Copies == 0 || b.Data != p.Data || b.Integer != p.Integer {
			t.Errorf("%v: broadcast %+v, permutation %+v", args, b, p)
		}
	}
}
