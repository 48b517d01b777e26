package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/flitsim/flitsim/verify"
)

// stopBound is the most a test allows from the signal to the exit: the
// rule is one second, the rest is for a loaded machine. Every command a
// test interrupts would run for much longer than this by itself.
const stopBound = 3 * time.Second

// cpuSeconds is the CPU time process pid has used (from /proc/PID/stat),
// or -1 if it cannot be read.
func cpuSeconds(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return -1
	}
	_, rest, ok := strings.Cut(string(b), ") ")
	f := strings.Fields(rest)
	if !ok || len(f) < 13 {
		return -1
	}
	// (Fields 14 and 15 of the line, utime and stime, in clock ticks of
	// 1/100 s on Linux.)
	u, _ := strconv.ParseFloat(f[11], 64)
	s, _ := strconv.ParseFloat(f[12], 64)
	return (u + s) / 100
}

// busyFor waits until the child has used cpu seconds of CPU time: it runs
// its command (its handler, installed first thing, long in place).
func (c *child) busyFor(t *testing.T, cpu float64) {
	t.Helper()
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc to read the child's CPU time from")
	}
	c.waitFor(t, fmt.Sprintf("%g s of CPU", cpu), func() bool { return cpuSeconds(c.cmd.Process.Pid) >= cpu })
}

// stop sends sig and returns the exit status and the time from the signal
// to the exit, failing the test past stopBound.
func (c *child) stop(t *testing.T, sig syscall.Signal) int {
	t.Helper()
	t0 := time.Now()
	c.cmd.Process.Signal(sig)
	code := c.exit(t)
	if d := time.Since(t0); d > stopBound {
		t.Errorf("%v: stopped %.2f s after the signal, want within %v; stderr %q", sig, d.Seconds(), stopBound, c.stderr.String())
	}
	if code != exitInterrupted {
		t.Fatalf("%v: exit %d, want %d; stderr %q", sig, code, exitInterrupted, c.stderr.String())
	}
	return code
}

var verifyStopLine = regexp.MustCompile(`(?m)^interrupted: (\d+) of (\d+) claims measured, (\d+) cut short, (\d+) not run: the rows above are the claims measured \(and cut short\)$`)

// TestInterruptVerifyTable: verify stops on SIGINT with the rows measured,
// each with its status, the claims cut short marked interrupted, and a line
// saying how many were not run.
func TestInterruptVerifyTable(t *testing.T) {
	bin := buildFlitsim(t)
	c := startChild(t, bin, t.TempDir(), "verify")
	c.busyFor(t, 3)
	c.stop(t, syscall.SIGINT)
	out := c.stdout.String()
	m := verifyStopLine.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no interrupted line in:\n%s", out)
	}
	measured, _ := strconv.Atoi(m[1])
	claims, _ := strconv.Atoi(m[2])
	cut, _ := strconv.Atoi(m[3])
	notRun, _ := strconv.Atoi(m[4])
	if measured < 1 || notRun < 1 || measured+cut+notRun != claims {
		t.Errorf("counts %q", m[0])
	}
	summary := fmt.Sprintf("%d claims: ", measured+cut)
	if !strings.Contains(out, "\n"+summary) || cut > 0 && !strings.Contains(out, fmt.Sprintf(", %d interrupted;", cut)) {
		t.Errorf("the table's total line does not count %d rows, %d interrupted:\n%s", measured+cut, cut, out)
	}
	if e := c.stderr.String(); !strings.Contains(e, "flitsim: verify interrupted: "+m[1]+" of "+m[2]+" claims measured") {
		t.Errorf("stderr %q", e)
	}
}

// verifyDoc is an interrupted verify's JSON document.
type verifyDoc struct {
	Interrupted bool `json:"interrupted"`
	Claims      int  `json:"claims"`
	Measured    int  `json:"measured"`
	CutShort    int  `json:"cut_short"`
	NotRun      int  `json:"not_run"`
	Rows        []struct {
		ID, Status, Measured string
	} `json:"rows"`
}

// checkVerifyJSON checks an interrupted verify's JSON: valid, marked
// interrupted, its counts agreeing with its rows.
func checkVerifyJSON(t *testing.T, out []byte) {
	t.Helper()
	var d verifyDoc
	if err := json.Unmarshal(out, &d); err != nil {
		t.Fatalf("not JSON: %v\n%.400s", err, out)
	}
	cut := 0
	for _, r := range d.Rows {
		switch r.Status {
		case "interrupted":
			cut++
		case "pass", "deviation", "fail", "error":
		default:
			t.Errorf("row %s: status %q", r.ID, r.Status)
		}
	}
	if !d.Interrupted || d.Measured < 1 || d.NotRun < 1 || d.CutShort != cut || d.Measured+cut != len(d.Rows) ||
		d.Measured+d.CutShort+d.NotRun != d.Claims {
		t.Errorf("document %+v with %d rows, %d interrupted", d, len(d.Rows), cut)
	}
}

// TestInterruptVerifyJSON: the same on SIGTERM, in JSON.
func TestInterruptVerifyJSON(t *testing.T) {
	bin := buildFlitsim(t)
	c := startChild(t, bin, t.TempDir(), "verify", "--format", "json")
	c.busyFor(t, 3)
	c.stop(t, syscall.SIGTERM)
	checkVerifyJSON(t, c.stdout.Bytes())
}

// TestInterruptVerifyIgnoredSIGINT: a verify started with SIGINT ignored
// (as a shell script starts a command in the background) still stops on
// SIGINT.
func TestInterruptVerifyIgnoredSIGINT(t *testing.T) {
	bin := buildFlitsim(t)
	const ignore = `trap "" INT; exec "$0" "$@"`
	// The premise: what the shell execs starts with SIGINT ignored.
	mask, err := execOutput("sh", "-c", ignore, "grep", "^SigIgn:", "/proc/self/status")
	if err != nil {
		t.Skipf("cannot read the ignored signals: %v", err)
	}
	if v, err := strconv.ParseUint(strings.TrimSpace(strings.TrimPrefix(mask, "SigIgn:")), 16, 64); err != nil || v&(1<<(syscall.SIGINT-1)) == 0 {
		t.Fatalf("SIGINT not ignored after the trap: %q (%v)", mask, err)
	}
	c := startChild(t, "sh", t.TempDir(), "-c", ignore, bin, "verify", "--format", "json")
	c.busyFor(t, 3)
	c.stop(t, syscall.SIGINT)
	checkVerifyJSON(t, c.stdout.Bytes())
}

// execOutput is a command's standard output.
func execOutput(name string, args ...string) (string, error) {
	out, err := exec.Command(name, args...).Output()
	return string(out), err
}

// TestInterruptSweepValidation: a sweep of 300 000 points checks every
// point's config before it runs any (minutes); an interrupt meanwhile stops
// it within the bound, with its (empty) results files valid and the
// journal kept for --resume.
func TestInterruptSweepValidation(t *testing.T) {
	bin := buildFlitsim(t)
	dir := t.TempDir()
	c := startChild(t, bin, dir, "sweep", "--set", "topology.k=3", "--vary", "run.seed=1:300000:1", "--out", "out")
	c.busyFor(t, 1)
	c.stop(t, syscall.SIGINT)
	msg := "interrupted: 0 of 300000 points finished and kept in out; the same command with --resume runs the other 300000"
	if e := c.stderr.String(); !strings.Contains(e, msg) {
		t.Errorf("stderr %q lacks %q", e, msg)
	}
	recs, err := csv.NewReader(bytes.NewReader(readFile(t, filepath.Join(dir, "out", "results.csv")))).ReadAll()
	if err != nil || len(recs) != 1 || recs[0][0] != "point" {
		t.Errorf("results.csv: %v, %q", err, recs)
	}
	var f struct {
		Rows []json.RawMessage `json:"results"`
	}
	if err := json.Unmarshal(readFile(t, filepath.Join(dir, "out", "results.json")), &f); err != nil || f.Rows == nil || len(f.Rows) != 0 {
		t.Errorf("results.json: %v, %d rows", err, len(f.Rows))
	}
}

// TestInterruptCollectiveResult: TE on the 12-cube (2048 slots, a minute)
// interrupted prints the result so far, status interrupted, in JSON and in
// the table, and exits 130 within the bound.
func TestInterruptCollectiveResult(t *testing.T) {
	bin := buildFlitsim(t)
	for _, tc := range []struct {
		format string
		sig    syscall.Signal
	}{{"json", syscall.SIGINT}, {"table", syscall.SIGTERM}} {
		c := startChild(t, bin, t.TempDir(), "collective", "--task", "te", "--set", "topology.kind=hypercube", "--set", "topology.d=12", "--format", tc.format)
		c.busyFor(t, 2)
		c.stop(t, tc.sig)
		if tc.format == "table" {
			out := c.stdout.String()
			if !strings.Contains(out, "\nstatus            interrupted: what the ") || !strings.Contains(out, "links used per slot (of 49152):") {
				t.Errorf("table:\n%.1000s", out)
			}
			continue
		}
		var r struct {
			Status        string  `json:"status"`
			Slots         float64 `json:"slots"`
			Packets       int64   `json:"packets"`
			Transmissions int64   `json:"transmissions"`
			PerSlot       []int64 `json:"per_slot"`
			Delivered     bool    `json:"delivered"`
			Deliveries    int64   `json:"deliveries"`
			Missing       int64   `json:"missing"`
		}
		if err := json.Unmarshal(c.stdout.Bytes(), &r); err != nil {
			t.Fatalf("not JSON: %v\n%.300s", err, c.stdout.String())
		}
		sum := int64(0)
		for _, n := range r.PerSlot {
			sum += n
		}
		if r.Status != "interrupted" || r.PerSlot == nil || float64(len(r.PerSlot)) != r.Slots || r.Slots >= 2048 || sum != r.Transmissions ||
			r.Delivered || r.Packets != 4096*4095 || r.Deliveries+r.Missing != r.Packets {
			t.Errorf("partial result %+v", r)
		}
		e := c.stderr.String()
		if !strings.Contains(e, "flitsim: collective te: interrupted ") {
			t.Errorf("stderr %q", e)
		}
	}
}

// TestInterruptDistances: on the 32×32 mesh the BFS takes a moment and
// tracing the million routes many seconds; interrupted meanwhile,
// distances prints the graph's distances and says the routes were not
// finished (table and JSON), exit 130 within the bound.
func TestInterruptDistances(t *testing.T) {
	bin := buildFlitsim(t)
	args := []string{"distances", "--set", "topology.kind=mesh", "--set", "topology.k=32", "--set", "topology.n=2"}
	for _, tc := range []struct {
		format string
		sig    syscall.Signal
	}{{"table", syscall.SIGINT}, {"json", syscall.SIGTERM}} {
		c := startChild(t, bin, t.TempDir(), append(args, "--format", tc.format)...)
		c.busyFor(t, 1.5)
		c.stop(t, tc.sig)
		const note = "routes: interrupted before every pair was traced"
		if e := c.stderr.String(); !strings.Contains(e, "flitsim: distances interrupted: "+note+"\n") {
			t.Errorf("%s: stderr %q", tc.format, e)
		}
		out := c.stdout.String()
		if tc.format == "table" {
			if !regexp.MustCompile(`│ graph \(BFS\) diameter +│ 62 +│`).MatchString(out) || !strings.Contains(out, note) || strings.Contains(out, "routes diameter") {
				t.Errorf("table:\n%s", out)
			}
			continue
		}
		var rep struct {
			Graph *struct {
				Diameter int `json:"diameter"`
			} `json:"graph"`
			Routes      *json.RawMessage `json:"routes"`
			Notes       []string         `json:"notes"`
			Interrupted bool             `json:"interrupted"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, out)
		}
		if rep.Graph == nil || rep.Graph.Diameter != 62 || rep.Routes != nil || !rep.Interrupted || len(rep.Notes) != 1 || rep.Notes[0] != note {
			t.Errorf("report %s", out)
		}
	}
}

// TestInterruptLayout: the layout of the 10-pseudocube (its construction
// and check take the best part of a second of CPU) stops on SIGTERM with
// one line and no partial output.
func TestInterruptLayout(t *testing.T) {
	bin := buildFlitsim(t)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		c := startChild(t, bin, t.TempDir(), "layout", "--set", "topology.kind=pseudocube", "--set", "topology.d=10", "--format", "json")
		c.busyFor(t, 0.3)
		c.stop(t, sig)
		if out, e := c.stdout.String(), c.stderr.String(); out != "" || !strings.HasSuffix(e, "flitsim: layout interrupted while building and checking the layout: nothing printed\n") {
			t.Errorf("%v: stdout %.200q, stderr %q", sig, out, e)
		}
	}
}

// TestInterruptSearch: a deadlock search of 10⁸ scenarios on a network
// without deadlock stops on SIGTERM with the scenarios run, in JSON.
func TestInterruptSearch(t *testing.T) {
	bin := buildFlitsim(t)
	c := startChild(t, bin, t.TempDir(), "deadlock-search", "--set", "topology.kind=cube", "--set", "topology.k=2", "--set", "topology.n=4",
		"--set", "buffers.input=0", "--set", "buffers.output=1", "--set", "multicast.worm=sync", "--set", "multicast.encoding=pseudo-ad",
		"--set", "arbiter=upper-first", "--scenarios", "100000000", "--format", "json")
	c.busyFor(t, 1)
	c.stop(t, syscall.SIGTERM)
	var o struct {
		Found       bool `json:"found"`
		Interrupted bool `json:"interrupted"`
		Scenarios   int  `json:"scenarios"`
	}
	if err := json.Unmarshal(c.stdout.Bytes(), &o); err != nil || o.Found || !o.Interrupted || o.Scenarios < 1 {
		t.Errorf("%v: %+v", err, o)
	}
	want := fmt.Sprintf("flitsim: interrupted after %d of 100000000 scenarios\n", o.Scenarios)
	if e := c.stderr.String(); !strings.HasSuffix(e, want) {
		t.Errorf("stderr %q, want it to end with %q", e, want)
	}
}

// TestInterruptUnwatched: a command that does not watch the stop flag
// (here a stand-in that would sleep a minute; list, merge, encode, a run
// still building its network) is ended by an interrupt after the grace
// period, with status 130 and one line. The test binary is the command:
// run again as a helper process, it catches interrupts and sleeps.
func TestInterruptUnwatched(t *testing.T) {
	if os.Getenv("FLITSIM_TEST_UNWATCHED") == "1" {
		release := catchInterrupts()
		defer release()
		fmt.Println("ready")
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		c := &child{cmd: exec.Command(os.Args[0], "-test.run=^TestInterruptUnwatched$"), done: make(chan error, 1)}
		c.cmd.Env = append(os.Environ(), "FLITSIM_TEST_UNWATCHED=1")
		c.cmd.Stdout, c.cmd.Stderr = &c.stdout, &c.stderr
		if err := c.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { c.done <- c.cmd.Wait() }()
		t.Cleanup(func() { c.cmd.Process.Kill() })
		c.waitFor(t, "the helper's ready line", func() bool { return strings.Contains(c.stdout.String(), "ready\n") })
		t0 := time.Now()
		c.stop(t, sig)
		if d := time.Since(t0); d < interruptGrace {
			t.Errorf("%v: ended after %v, before the grace period", sig, d)
		}
		if e := c.stderr.String(); e != "flitsim: interrupted\n" {
			t.Errorf("%v: stderr %q", sig, e)
		}
	}
}

// A command that finished after an interrupt exits 130 all the same; one
// that failed keeps its error.
func TestInterruptedAfter(t *testing.T) {
	defer stopRequested.Store(false)
	stopRequested.Store(false)
	if err := interruptedAfter(nil); err != nil {
		t.Errorf("no interrupt: %v", err)
	}
	stopRequested.Store(true)
	var ee *exitError
	if err := interruptedAfter(nil); !errors.As(err, &ee) || ee.code != exitInterrupted {
		t.Errorf("finished after an interrupt: %v", err)
	}
	bad := errors.New("bad input")
	if err := interruptedAfter(bad); err != bad {
		t.Errorf("failed after an interrupt: %v", err)
	}
}

// TestInterruptDynamic: dynamic broadcasting for ten million periods,
// interrupted, prints the periods run (JSON: status interrupted,
// periods_run) and exits 130 within the bound.
func TestInterruptDynamic(t *testing.T) {
	bin := buildFlitsim(t)
	c := startChild(t, bin, t.TempDir(), "collective", "--task", "dynamic", "--set", "topology.kind=hypercube", "--set", "topology.d=5",
		"--set", "task.periods=10000000", "--set", "task.warmup=10", "--format", "json")
	c.busyFor(t, 1)
	c.stop(t, syscall.SIGTERM)
	var r struct {
		Status     string `json:"status"`
		Periods    int    `json:"periods"`
		PeriodsRun int    `json:"periods_run"`
		Served     int64  `json:"served"`
		Delivered  bool   `json:"delivered"`
		Verdict    string `json:"verdict"`
	}
	if err := json.Unmarshal(c.stdout.Bytes(), &r); err != nil {
		t.Fatalf("not JSON: %v\n%.300s", err, c.stdout.String())
	}
	if r.Status != "interrupted" || r.Periods != 10000000 || r.PeriodsRun <= 10 || r.PeriodsRun >= r.Periods || r.Served == 0 || !r.Delivered || r.Verdict != "undecided" {
		t.Errorf("partial result %+v", r)
	}
}

// An interrupted verify exits 130 even when a claim measured failed, and
// says so.
func TestInterruptedVerifyFailures(t *testing.T) {
	old := verifyRun
	defer func() { verifyRun = old }()
	verifyRun = func() ([]verify.Row, error) {
		return []verify.Row{{ID: "a", Status: verify.Pass}, {ID: "b", Status: verify.Fail}, {ID: "c", Status: verify.Interrupted}},
			&verify.InterruptedError{Claims: 5, Done: 2, CutShort: 1}
	}
	code, out, stderr := runMain(t, "verify")
	if code != exitInterrupted || stderr != "flitsim: verify interrupted: 2 of 5 claims measured, 1 cut short, 2 not run; 1 of the claims measured failed\n" {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if !strings.Contains(out, "3 claims: 1 pass, 0 deviation, 1 fail, 0 error, 1 interrupted;") ||
		!strings.HasSuffix(out, "interrupted: 2 of 5 claims measured, 1 cut short, 2 not run: the rows above are the claims measured (and cut short)\n") {
		t.Errorf("table:\n%s", out)
	}
}

// Interrupted before any claim was measured, verify prints only the
// interrupted line.
func TestInterruptedVerifyNothing(t *testing.T) {
	old := verifyRun
	defer func() { verifyRun = old }()
	verifyRun = func() ([]verify.Row, error) { return nil, &verify.InterruptedError{Claims: 5} }
	code, out, _ := runMain(t, "verify")
	if code != exitInterrupted || out != "interrupted: 0 of 5 claims measured, 0 cut short, 5 not run\n" {
		t.Errorf("exit %d, stdout %q", code, out)
	}
	code, out, _ = runMain(t, "verify", "--format", "json")
	var d verifyDoc
	if err := json.Unmarshal([]byte(out), &d); code != exitInterrupted || err != nil || !d.Interrupted || d.Rows == nil || d.NotRun != 5 {
		t.Errorf("exit %d, %v, stdout %q", code, err, out)
	}
}
