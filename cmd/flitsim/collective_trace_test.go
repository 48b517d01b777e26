package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// collectiveJSON is what the trace tests read of a collective's result.
type collectiveJSON struct {
	Slots         float64  `json:"slots"`
	Transmissions int64    `json:"transmissions"`
	Deliveries    int64    `json:"deliveries"`
	PerSlot       []int64  `json:"per_slot"`
	Params        []string `json:"params"`
	Delivered     bool     `json:"delivered"`
}

// eventCounts reads an events CSV: moves per cycle and delivered rows.
func eventCounts(t *testing.T, name string) (moves map[int64]int64, total, delivered int64) {
	t.Helper()
	recs, err := csv.NewReader(bytes.NewReader(readFile(t, name))).ReadAll()
	if err != nil || len(recs) < 2 || recs[0][0] != "cycle" || recs[0][1] != "event" {
		t.Fatalf("%s: %v, %d records", name, err, len(recs))
	}
	moves = map[int64]int64{}
	for _, r := range recs[1:] {
		c, err := strconv.ParseInt(r[0], 10, 64)
		if err != nil {
			t.Fatalf("%s: row %q", name, r)
		}
		switch r[1] {
		case "moved":
			moves[c]++
			total++
		case "delivered":
			delivered++
		default:
			t.Errorf("%s: a %q row (a scheduled router neither blocks nor grants)", name, r[1])
		}
	}
	return moves, total, delivered
}

// The collective tasks take the run command's trace flags: the files
// show the task's transmissions slot by slot and its deliveries, and the
// printed result is the untraced one.
func TestCollectiveTraceFlags(t *testing.T) {
	for _, c := range []struct {
		args    []string
		unicast bool // every reception is a packet leaving at its destination
	}{
		{[]string{"--task", "te", "--set", "topology.kind=hypercube", "--set", "topology.d=3"}, true},
		{[]string{"--task", "snb", "--set", "topology.kind=hypercube", "--set", "topology.d=4", "--set", "task.root=3"}, false},
		{[]string{"--task", "pmnb", "--set", "topology.kind=hypercube", "--set", "topology.d=4", "--set", "task.m=5"}, false},
		{[]string{"--task", "te", "--set", "topology.kind=folded-cube", "--set", "topology.d=4"}, true},
		{[]string{"--task", "mnb", "--set", "topology.kind=mesh", "--set", "topology.k=4", "--set", "topology.n=2"}, false},
	} {
		base := append([]string{"collective", "--format", "json"}, c.args...)
		code, plain, errOut := runMain(t, base...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", base, code, errOut)
		}
		dir := t.TempDir()
		vcd, ev, pf := filepath.Join(dir, "x.vcd"), filepath.Join(dir, "x.csv"), filepath.Join(dir, "x.json")
		args := append(append([]string(nil), base...), "--trace-vcd", vcd, "--trace-events", ev, "--trace-perfetto", pf, "--trace-perfetto-tracks", "link")
		code, out, errOut := runMain(t, args...)
		if code != 0 || errOut != "" {
			t.Fatalf("%q: exit %d: %s", args, code, errOut)
		}
		if out != plain {
			t.Errorf("%q: tracing changed the result", args)
		}
		var r collectiveJSON
		if err := json.Unmarshal([]byte(out), &r); err != nil || !r.Delivered {
			t.Fatalf("%q: %v %+v", args, err, r)
		}
		moves, total, delivered := eventCounts(t, ev)
		if total != r.Transmissions {
			t.Errorf("%q: %d moved rows, %d transmissions", args, total, r.Transmissions)
		}
		for s, n := range r.PerSlot {
			if moves[int64(s)] != n {
				t.Errorf("%q: slot %d: %d moved rows, %d links used", args, s, moves[int64(s)], n)
			}
		}
		if c.unicast && delivered != r.Deliveries || delivered == 0 || delivered > r.Deliveries {
			t.Errorf("%q: %d delivered rows, %d deliveries", args, delivered, r.Deliveries)
		}
		if end := checkVCD(t, readFile(t, vcd)); end != int64(len(r.PerSlot)) {
			t.Errorf("%q: VCD ends at #%d, the task after %d slots", args, end, len(r.PerSlot))
		}
		var perfetto struct {
			TraceEvents []map[string]any `json:"traceEvents"`
		}
		if err := json.Unmarshal(readFile(t, pf), &perfetto); err != nil || len(perfetto.TraceEvents) == 0 {
			t.Errorf("%q: Perfetto JSON: %v, %d events", args, err, len(perfetto.TraceEvents))
		}
	}
}

// The worm timeline follows each packet from node to node: a node sends
// its packets in its schedule's order, and every hop span closes (none is
// left open, as a deadlocked worm's would be).
func TestCollectiveTimelineWorms(t *testing.T) {
	for _, task := range []string{"te", "mnb", "pmnb"} {
		pf := filepath.Join(t.TempDir(), "x.json")
		code, out, errOut := runMain(t, "collective", "--format", "json", "--task", task, "--set", "topology.kind=hypercube", "--set", "topology.d=4",
			"--trace-perfetto", pf)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", task, code, errOut)
		}
		var r collectiveJSON
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		var perfetto struct {
			TraceEvents []struct {
				Name string         `json:"name"`
				Ph   string         `json:"ph"`
				Args map[string]any `json:"args"`
			} `json:"traceEvents"`
		}
		if err := json.Unmarshal(readFile(t, pf), &perfetto); err != nil {
			t.Fatal(err)
		}
		open, hops, worms := 0, 0, 0
		for _, e := range perfetto.TraceEvents {
			if e.Args["open"] == true {
				open++
			}
			switch {
			case e.Ph != "X":
			case strings.HasPrefix(e.Name, "worm "):
				worms++
				h, _ := e.Args["hops"].(float64)
				hops += int(h)
			case strings.HasPrefix(e.Name, "n"): // a hop span at a node (n5.out_d0)
			default:
				t.Errorf("%s: span %q", task, e.Name)
			}
		}
		if open != 0 || worms == 0 {
			t.Errorf("%s: %d open spans, %d worms", task, open, worms)
		}
		if task == "te" && int64(hops) != r.Transmissions {
			t.Errorf("te: the worms' hops add up to %d, transmissions %d", hops, r.Transmissions)
		}
	}
}

// --trace-window and --trace-only limit a collective's trace as they
// limit a run's.
func TestCollectiveTraceWindowOnly(t *testing.T) {
	ev := filepath.Join(t.TempDir(), "x.jsonl")
	code, out, errOut := runMain(t, "collective", "--format", "json", "--task", "te", "--set", "topology.kind=hypercube", "--set", "topology.d=4",
		"--trace-events", ev, "--trace-window", "2:5", "--trace-only", "n3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r collectiveJSON
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(readFile(t, ev))), "\n")
	moved := 0
	for _, l := range lines {
		var e struct {
			Cycle  int64  `json:"cycle"`
			Event  string `json:"event"`
			Buffer string `json:"buffer"`
			To     string `json:"to"`
		}
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		if e.Cycle < 2 || e.Cycle >= 5 {
			t.Errorf("event outside the window: %s", l)
		}
		switch {
		case e.Event != "moved":
		case strings.HasPrefix(e.Buffer, "n3."):
			moved++
		case !strings.HasPrefix(e.To, "n3."):
			t.Errorf("a move neither from nor into n3: %s", l)
		}
	}
	// n3 sends on each of its 4 links in every slot of the TE.
	if moved != 3*4 {
		t.Errorf("%d moves of n3 in slots 2–4, want 12", moved)
	}
}

// mnb with a trace runs the router and says so; explicit lock-step
// hardware, a dynamic sweep and input errors are refused, leaving no file.
func TestCollectiveTraceRefusals(t *testing.T) {
	dir := t.TempDir()
	ev := filepath.Join(dir, "x.csv")
	cube := []string{"collective", "--set", "topology.kind=hypercube", "--set", "topology.d=3"}
	with := func(extra ...string) []string { return append(append([]string(nil), cube...), extra...) }
	code, out, errOut := runMain(t, with("--task", "mnb", "--format", "json", "--trace-events", ev)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	_, router, _ := runMain(t, with("--task", "mnb", "--format", "json", "--set", "task.hardware=router")...)
	if out != router || !strings.Contains(out, `"task.hardware=router"`) {
		t.Errorf("traced mnb is not the router's:\n%s\n%s", out, router)
	}
	if _, total, _ := eventCounts(t, ev); total != 56 {
		t.Errorf("traced 3-cube mnb: %d moves, want N(N−1) = 56", total)
	}
	os.Remove(ev)
	wantFail(t, 2, with("--task", "mnb", "--set", "task.hardware=lockstep", "--trace-vcd", filepath.Join(dir, "y.vcd")),
		"--trace-vcd: task.hardware=lockstep has no per-packet trace", "use task.hardware=router")
	wantFail(t, 2, []string{"collective", "--task", "mnb", "--set", "topology.kind=hypercube", "--set", "topology.d=15", "--trace-events", ev},
		"topology.d: 15", "1 to 14 for a traced mnb")
	wantFail(t, 2, with("--task", "dynamic", "--set", "task.rho=0.2,0.4", "--trace-perfetto", filepath.Join(dir, "z.json")),
		"--trace-perfetto: a trace records one run")
	wantFail(t, 2, with("--task", "pmnb", "--set", "task.m=99", "--trace-events", ev, "--trace-vcd", filepath.Join(dir, "y.vcd")), "task.m: 99")
	wantFail(t, 2, with("--task", "te", "--trace-window", "1:2"), "--trace-window: needs --trace-vcd")
	wantFail(t, 2, with("--task", "te", "--trace-perfetto", filepath.Join(dir, "r.json"), "--trace-perfetto-tracks", "router"),
		"--trace-perfetto-tracks: router is not allowed", "worm or link for a collective")
	wantFail(t, 2, with("--task", "te", "--trace-events", filepath.Join(dir, "x.txt")), "--trace-events", "unknown extension")
	wantFail(t, 2, with("--task", "te", "--trace-events", ev, "--trace-vcd", ev), "is the file --trace-vcd writes too")
	if ls, _ := os.ReadDir(dir); len(ls) != 0 {
		t.Errorf("refused runs left files: %v", ls)
	}
}

// Dynamic broadcasting traces its router across the periods.
func TestCollectiveTraceDynamic(t *testing.T) {
	ev := filepath.Join(t.TempDir(), "x.csv")
	args := []string{"collective", "--task", "dynamic", "--format", "json", "--set", "topology.kind=folded-cube", "--set", "topology.d=3",
		"--set", "task.periods=30", "--set", "task.rho=0.4"}
	code, plain, errOut := runMain(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	code, out, errOut := runMain(t, append(args, "--trace-events", ev)...)
	if code != 0 || out != plain {
		t.Fatalf("exit %d: %s; same result: %v", code, errOut, out == plain)
	}
	var r struct {
		Transmissions int64 `json:"transmissions"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if _, total, delivered := eventCounts(t, ev); total != r.Transmissions || delivered == 0 {
		t.Errorf("%d moved rows, %d delivered, for %d transmissions", total, delivered, r.Transmissions)
	}
}

// An interrupt stops a traced collective at the end of its slot, completes
// the trace files and exits with status 130.
func TestInterruptCollective(t *testing.T) {
	bin := buildFlitsim(t)
	dir := t.TempDir()
	c := startChild(t, bin, dir, "collective", "--task", "dynamic", "--set", "topology.kind=hypercube", "--set", "topology.d=5",
		"--set", "task.periods=10000000", "--trace-vcd", "t.vcd", "--trace-events", "t.csv", "--trace-perfetto", "t.json")
	c.waitFor(t, "trace output", func() bool { return fileSize(filepath.Join(dir, "t.csv")) > 0 })
	c.cmd.Process.Signal(syscall.SIGINT)
	if code := c.exit(t); code != exitInterrupted {
		t.Fatalf("exit %d, want %d; stderr %q", code, exitInterrupted, c.stderr.String())
	}
	e := c.stderr.String()
	_, after, ok := strings.Cut(e, "flitsim: collective dynamic: interrupted after router cycle ")
	cycle, err := strconv.ParseInt(strings.Fields(after + " x")[0], 10, 64)
	if !ok || err != nil || !strings.Contains(e, "the traces are complete up to there") {
		t.Fatalf("stderr %q", e)
	}
	if end := checkVCD(t, readFile(t, filepath.Join(dir, "t.vcd"))); end != cycle+1 {
		t.Errorf("VCD ends at #%d, the run after cycle %d", end, cycle)
	}
	var perfetto struct {
		TraceEvents []map[string]any `json:"traceEvents"`
	}
	if err := json.Unmarshal(readFile(t, filepath.Join(dir, "t.json")), &perfetto); err != nil || len(perfetto.TraceEvents) == 0 {
		t.Errorf("Perfetto JSON: %v, %d events", err, len(perfetto.TraceEvents))
	}
	moves, _, _ := eventCounts(t, filepath.Join(dir, "t.csv"))
	for c := range moves {
		if c > cycle {
			t.Errorf("a move at cycle %d after the interrupt's %d", c, cycle)
		}
	}
}

// A node buffer's occupancy in the VCD is the packets its node holds: in
// TE on the 3-cube each node starts with its N − 1 = 7 packets and ends
// with none.
func TestCollectiveVCDOccupancy(t *testing.T) {
	vcd := filepath.Join(t.TempDir(), "te.vcd")
	if code, _, errOut := runMain(t, "collective", "--task", "te", "--set", "topology.kind=hypercube", "--set", "topology.d=3", "--trace-vcd", vcd); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(string(readFile(t, vcd)), "\n")
	id := ""
	for _, l := range lines { // n0's first node buffer (out_d0)
		if f := strings.Fields(l); id == "" && len(f) > 4 && f[0] == "$var" && f[4] == "occupancy" {
			id = f[3]
		}
	}
	var values []string
	for _, l := range lines {
		if v, ok := strings.CutSuffix(l, " "+id); ok && strings.HasPrefix(v, "b") && id != "" {
			values = append(values, v)
		}
	}
	if len(values) < 2 || values[0] != "b111" || values[len(values)-1] != "b0" {
		t.Errorf("n0's occupancy changes %v, want from b111 (7) to b0", values)
	}
}
