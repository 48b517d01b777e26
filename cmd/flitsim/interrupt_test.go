package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/flitsim/flitsim/internal/outfile"
)

// buildFlitsim builds the command once per test binary into a temporary
// folder (removed by TestMain), so that a test can signal a real process.
func buildFlitsim(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "flitsim-test-")
		if err != nil {
			built.err = err
			return
		}
		built.dir, built.bin = dir, filepath.Join(dir, "flitsim")
		if out, err := exec.Command("go", "build", "-o", built.bin, ".").CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

var built struct {
	once     sync.Once
	dir, bin string
	err      error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// child is a flitsim process started by a test.
type child struct {
	cmd            *exec.Cmd
	stdout, stderr lockedBuffer
	done           chan error
}

// lockedBuffer is a bytes.Buffer that a test may read while the child's
// output is copied into it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func (l *lockedBuffer) Bytes() []byte { return []byte(l.String()) }

func startChild(t *testing.T, bin, dir string, args ...string) *child {
	t.Helper()
	c := &child{cmd: exec.Command(bin, args...), done: make(chan error, 1)}
	c.cmd.Dir = dir
	c.cmd.Stdout, c.cmd.Stderr = &c.stdout, &c.stderr
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { c.done <- c.cmd.Wait() }()
	t.Cleanup(func() { c.cmd.Process.Kill() }) // never left running
	return c
}

// waitFor polls until ok holds (the child is visibly running), failing the
// test if the child exits first or 60 s pass.
func (c *child) waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); !ok(); {
		select {
		case err := <-c.done:
			t.Fatalf("flitsim ended (%v) before %s; stderr %q", err, what, c.stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s after 60 s", what)
		}
	}
}

// exit waits for the child's exit status (killing it after 60 s).
func (c *child) exit(t *testing.T) int {
	t.Helper()
	select {
	case <-c.done:
	case <-time.After(60 * time.Second):
		c.cmd.Process.Kill()
		t.Fatalf("flitsim did not stop within 60 s of the interrupt; stderr %q", c.stderr.String())
	}
	return c.cmd.ProcessState.ExitCode()
}

// fileSize is p's size, or while p is being written its temporary file's
// (outputs are put in place only when complete, see outfile).
func fileSize(p string) int64 {
	for _, q := range append([]string{p}, outfile.Temps(p)...) {
		if st, err := os.Stat(q); err == nil && st.Size() > 0 {
			return st.Size()
		}
	}
	return 0
}

// TestInterruptRun interrupts a run that would take hours, with every trace
// output, and checks that it stops with its partial results marked and
// every file complete.
func TestInterruptRun(t *testing.T) {
	bin := buildFlitsim(t)
	dir := t.TempDir()
	c := startChild(t, bin, dir, "run", "--set", "topology.k=3", "--set", "traffic.load=0.1", "--set", "run.warmup=0",
		"--set", "run.measure=10000000000", "--format", "json", "--trace-vcd", "t.vcd", "--trace-events", "t.csv",
		"--trace-perfetto", "t.json", "--channels", "ch.csv")
	// The events file is buffered: once it has grown, the run is well
	// under way (and the signal handler long installed).
	c.waitFor(t, "trace output", func() bool { return fileSize(filepath.Join(dir, "t.csv")) > 0 })
	c.cmd.Process.Signal(syscall.SIGINT)
	if code := c.exit(t); code != exitInterrupted {
		t.Fatalf("exit %d, want %d; stderr %q", code, exitInterrupted, c.stderr.String())
	}
	var res struct {
		Cycles        int64  `json:"cycles"`
		Delivered     int64  `json:"delivered_packets"`
		Interrupted   bool   `json:"interrupted"`
		InterruptedAt *int64 `json:"interrupted_at"`
	}
	if err := json.Unmarshal(c.stdout.Bytes(), &res); err != nil {
		t.Fatalf("stdout is not the JSON result: %v\n%.300s", err, c.stdout.String())
	}
	if !res.Interrupted || res.InterruptedAt == nil || *res.InterruptedAt != res.Cycles || res.Cycles < 1 || res.Delivered < 1 {
		t.Errorf("result not marked interrupted with its cycle: %+v", res)
	}
	if e := c.stderr.String(); !strings.Contains(e, "flitsim: interrupted at cycle "+strconv.FormatInt(res.Cycles, 10)) {
		t.Errorf("stderr %q", e)
	}
	if end := checkVCD(t, readFile(t, filepath.Join(dir, "t.vcd"))); end != res.Cycles {
		t.Errorf("VCD ends at #%d, the run at cycle %d", end, res.Cycles)
	}
	var perfetto struct {
		TraceEvents []map[string]any `json:"traceEvents"`
	}
	if err := json.Unmarshal(readFile(t, filepath.Join(dir, "t.json")), &perfetto); err != nil || len(perfetto.TraceEvents) == 0 {
		t.Errorf("Perfetto JSON: %v, %d events", err, len(perfetto.TraceEvents))
	}
	for _, name := range []string{"t.csv", "ch.csv"} {
		recs, err := csv.NewReader(bytes.NewReader(readFile(t, filepath.Join(dir, name)))).ReadAll()
		if err != nil || len(recs) < 2 {
			t.Errorf("%s: %v, %d records", name, err, len(recs))
		}
	}
}

// checkVCD checks a dump's structure (definitions, then timestamps rising
// and value changes) and returns its last timestamp, which must be its last
// line.
func checkVCD(t *testing.T, data []byte) int64 {
	t.Helper()
	head, body, ok := bytes.Cut(data, []byte("$enddefinitions $end\n"))
	if !ok || !bytes.Contains(head, []byte("$var ")) {
		t.Fatalf("VCD without definitions: %.200q", data)
	}
	last, lastLine := int64(-1), ""
	sc := bufio.NewScanner(bytes.NewReader(body))
	for sc.Scan() {
		s := sc.Text()
		lastLine = s
		switch {
		case s == "" || s == "$dumpvars" || s == "$end":
		case s[0] == '#':
			v, err := strconv.ParseInt(s[1:], 10, 64)
			if err != nil || v <= last {
				t.Fatalf("VCD timestamp %q after %d", s, last)
			}
			last = v
		case s[0] == 'b' && strings.Count(s, " ") == 1, strings.ContainsRune("01xz", rune(s[0])) && len(s) > 1:
		default:
			t.Fatalf("VCD line %q", s)
		}
	}
	if !strings.HasPrefix(lastLine, "#") || !bytes.HasSuffix(data, []byte("\n")) {
		t.Errorf("VCD ends on %q, not a timestamp", lastLine)
	}
	return last
}

// TestInterruptSweep stops a sweep after some points finished: they are
// kept in --out, and --resume runs only the others, giving the same files
// as a sweep never interrupted.
func TestInterruptSweep(t *testing.T) {
	bin := buildFlitsim(t)
	dir := t.TempDir()
	args := []string{"sweep", "--set", "topology.k=3", "--set", "run.warmup=0", "--set", "run.measure=60000", "--jobs", "1",
		"--vary", "run.seed=1:6:1", "--out", "out"}
	c := startChild(t, bin, dir, args...)
	journal := filepath.Join(dir, "out", "results.points.jsonl")
	c.waitFor(t, "2 finished points", func() bool {
		b, _ := os.ReadFile(journal)
		return bytes.Count(b, []byte("\n")) >= 1+2
	})
	c.cmd.Process.Signal(syscall.SIGTERM)
	if code := c.exit(t); code != exitInterrupted {
		t.Fatalf("exit %d, want %d; stderr %q", code, exitInterrupted, c.stderr.String())
	}
	// The point running at the signal may have finished meanwhile.
	kept := bytes.Count(readFile(t, journal), []byte("\n")) - 1
	if kept < 2 || kept > 5 {
		t.Fatalf("the journal holds %d points", kept)
	}
	msg := fmt.Sprintf("interrupted: %d of 6 points finished and kept in out; the same command with --resume runs the other %d", kept, 6-kept)
	if e := c.stderr.String(); !strings.Contains(e, msg) {
		t.Errorf("stderr %q lacks %q", e, msg)
	}
	if n := strings.Count(c.stdout.String(), "\n"); n != kept+4 {
		t.Errorf("table of the finished points has %d lines:\n%s", n, c.stdout.String())
	}
	out := filepath.Join(dir, "out")
	recs, err := csv.NewReader(bytes.NewReader(readFile(t, filepath.Join(out, "results.csv")))).ReadAll()
	if err != nil || len(recs) != 1+kept || recs[kept][0] != strconv.Itoa(kept-1) {
		t.Fatalf("results.csv after the interrupt: %v %q", err, recs)
	}
	if _, err := os.Stat(filepath.Join(out, "latency-vs-offered.svg")); err == nil {
		t.Errorf("plots drawn for an unfinished sweep")
	}

	// Another sweep's folder is refused; the same sweep resumes.
	resume := append(append([]string{}, args[:len(args)-1]...), out, "--resume")
	other := append(append([]string{}, resume...), "--set", "traffic.load=0.3")
	wantFail(t, 2, other, "--resume: ", "was made by a different sweep", "the --set overrides differ")
	code, stdout, stderr := runMain(t, resume...)
	if code != 0 || stderr != "" || strings.Count(stdout, "\n") != 6+4 {
		t.Fatalf("--resume: exit %d, stderr %q, table:\n%s", code, stderr, stdout)
	}
	if n := bytes.Count(readFile(t, journal), []byte("\n")) - 1; n != 6 {
		t.Errorf("the journal holds %d points after --resume, want 6 (each run once)", n)
	}
	whole := filepath.Join(dir, "whole")
	if code, _, e := runMain(t, append(append([]string{}, args[:len(args)-1]...), whole)...); code != 0 {
		t.Fatalf("uninterrupted sweep: exit %d %q", code, e)
	}
	for _, name := range []string{"results.json", "results.csv", "accepted-vs-offered.svg"} {
		if !bytes.Equal(readFile(t, filepath.Join(out, name)), readFile(t, filepath.Join(whole, name))) {
			t.Errorf("resumed %s differs from an uninterrupted sweep's", name)
		}
	}
}

// TestRunWarnsFewPackets: a run whose window expects almost no packets says
// so on stderr before its (empty) results.
func TestRunWarnsFewPackets(t *testing.T) {
	code, out, stderr := runMain(t, "run", "--set", "traffic.flits=1000000", "--set", "run.measure=100", "--set", "run.drain=0")
	if code != 0 || !strings.Contains(out, "measured packets") {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	if !strings.HasPrefix(stderr, "flitsim: warning: traffic.flits 1000000: at load 0.2 the 64 terminals are expected to generate 0.00128 packets") ||
		strings.Count(stderr, "\n") != 1 {
		t.Errorf("stderr %q", stderr)
	}
}

// TestSecondInterrupt: a run stuck inside a cycle (its events trace goes
// to a pipe nobody reads any more) cannot reach the end of the cycle; the
// first interrupt waits for it, the second quits at once with status 130.
func TestSecondInterrupt(t *testing.T) {
	bin := buildFlitsim(t)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "events.csv")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	c := startChild(t, bin, dir, "run", "--set", "topology.k=3", "--set", "run.measure=10000000000", "--trace-events", fifo)
	r, err := os.OpenFile(fifo, os.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := r.Read(make([]byte, 4096)); err != nil { // it runs
		t.Fatal(err)
	}
	// Reading no more, the writer soon blocks with the pipe full.
	time.Sleep(time.Second)
	c.cmd.Process.Signal(syscall.SIGINT)
	c.waitFor(t, "the interrupt notice", func() bool {
		return strings.Contains(c.stderr.String(), "interrupted: stopping at the end of this cycle")
	})
	select {
	case err := <-c.done:
		t.Fatalf("the blocked run ended on the first interrupt (%v)", err)
	case <-time.After(300 * time.Millisecond):
	}
	c.cmd.Process.Signal(syscall.SIGINT)
	if code := c.exit(t); code != exitInterrupted {
		t.Fatalf("exit %d, want %d; stderr %q", code, exitInterrupted, c.stderr.String())
	}
	if e := c.stderr.String(); !strings.Contains(e, "flitsim: interrupted twice: quitting") {
		t.Errorf("stderr %q", e)
	}
}
