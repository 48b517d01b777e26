package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/verify"
)

// Short real runs with each status (the 8×8 mesh saturates near 0.31).
var (
	runOK         = []string{"run", "--set", "run.warmup=300", "--set", "run.measure=2000"}
	runSaturated  = append(append([]string(nil), runOK...), "--set", "traffic.load=0.5")
	runIncomplete = append(append([]string(nil), runOK...), "--set", "run.drain=0")
	ringDeadlock  = []string{"run", filepath.Join("..", "..", "configs", "ring_deadlock.yaml")}
)

// TestExitStatuses runs a real experiment for each run status and checks
// the exit status, the stderr line and the JSON's verdict.
func TestExitStatuses(t *testing.T) {
	for _, c := range []struct {
		args   []string
		code   int
		status string
		stderr string
	}{
		{runOK, 0, "ok", ""},
		{runSaturated, 4, "saturated", "flitsim: saturated: accepted 0."},
		{runIncomplete, 4, "incomplete", "flitsim: incomplete; "},
		{ringDeadlock, 3, "deadlock", "flitsim: deadlock at cycle 69; 19 of 30 measured packets not delivered"},
	} {
		code, out, errOut := runMain(t, append(c.args, "--format", "json")...)
		var r network.Result
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%q: %v", c.args, err)
		}
		if code != c.code || r.Status != c.status || !strings.HasPrefix(errOut, c.stderr) || (c.stderr == "") != (errOut == "") {
			t.Errorf("%q: exit %d, status %q, stderr %q; want %d, %q, %q", c.args, code, r.Status, errOut, c.code, c.status, c.stderr)
		}
		if c.status == "deadlock" && (!r.Incomplete || r.MeasuredDelivered != 11) {
			t.Errorf("ring deadlock: incomplete %v, %d delivered", r.Incomplete, r.MeasuredDelivered)
		}
		// The table says it too.
		if _, table, _ := runMain(t, c.args...); !strings.Contains(table, "│ status ") || !strings.Contains(table, c.status) {
			t.Errorf("%q: table lacks the status %q:\n%s", c.args, c.status, table)
		}
	}
	// Statuses no short real run gives here: a stall, an interrupt.
	for status, code := range map[string]int{network.StatusStall: 3, network.StatusInterrupted: 130} {
		stubRun(t, func(c network.Config) (*network.Result, error) {
			r := fakeResult(c)
			r.Deadlock, r.Status, r.Stall = nil, status, &network.Stall{Cycle: 10500, Since: 500}
			return r, nil
		})
		if got, _, errOut := runMain(t, "run"); got != code || !strings.HasPrefix(errOut, "flitsim: "+status) {
			t.Errorf("%s: exit %d, stderr %q", status, got, errOut)
		}
	}
}

// TestExitStatusChild builds flitsim and runs it as a child process, so the
// exit status is the one a shell sees.
func TestExitStatusChild(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "flitsim")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, c := range []struct {
		args []string
		code int
	}{
		{runOK, 0}, {runSaturated, 4}, {ringDeadlock, 3},
		{[]string{"run", "--set", "traffic.lod=1"}, 2},
	} {
		cmd := exec.Command(bin, c.args...)
		cmd.Stdout = nil
		err := cmd.Run()
		var ee *exec.ExitError
		got := 0
		if errors.As(err, &ee) {
			got = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if got != c.code {
			t.Errorf("%q: exit %d, want %d", c.args, got, c.code)
		}
	}
	// Output to a full device is lost: exit 2, not 0.
	if runtime.GOOS == "linux" {
		full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
		if err != nil {
			t.Fatalf("/dev/full: %v", err)
		}
		defer full.Close()
		cmd := exec.Command(bin, "list")
		cmd.Stdout = full
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err = cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(stderr.String(), "cannot write the output") {
			t.Errorf("list > /dev/full: %v, stderr %q", err, stderr.String())
		}
	}
}

// failWriter fails every write, like stdout on a full disk.
type failWriter struct{ n int }

func (w *failWriter) Write(p []byte) (int, error) {
	w.n++
	return 0, errors.New("no space left on device")
}

// TestOutputLost: every command whose stdout cannot be written fails with
// one line, whatever the format.
func TestOutputLost(t *testing.T) {
	stubRun(t, func(c network.Config) (*network.Result, error) {
		r := fakeResult(c)
		r.Deadlock, r.Status = nil, network.StatusOK
		return r, nil
	})
	old := verifyRun
	defer func() { verifyRun = old }()
	verifyRun = func() ([]verify.Row, error) {
		return []verify.Row{{ID: "a", Measured: "1", Status: verify.Pass}}, nil
	}
	for _, args := range [][]string{
		{"run"}, {"run", "-f", "json"}, {"run", "-f", "csv"}, {},
		{"sweep", "--vary", "run.seed=1,2"}, {"sweep", "--vary", "run.seed=1,2", "-f", "csv"},
		{"verify"}, {"list"}, {"encode", "--scheme", "ad", "--dests", "1,2"},
		{"deadlock-search", "--scenarios", "5"}, {"help"}, {"run", "-h"},
		{"layout", "--set", "topology.kind=torus", "--set", "topology.k=4"},
		{"layout", "--set", "topology.kind=hypercube", "--set", "topology.d=3", "-f", "json"},
		{"layout", "--set", "topology.kind=torus", "--set", "topology.k=4", "-f", "svg"},
	} {
		w := &failWriter{}
		var stderr strings.Builder
		code := realMain(args, w, &stderr)
		if code != 2 || w.n == 0 || stderr.String() != "flitsim: cannot write the output: no space left on device\n" {
			t.Errorf("%q: exit %d after %d writes, stderr %q", args, code, w.n, stderr.String())
		}
	}
}

// TestSameOutputTwice: two outputs given one file are refused before the
// run, however the path is spelled.
func TestSameOutputTwice(t *testing.T) {
	dir := t.TempDir()
	x := filepath.Join(dir, "x")
	wd, _ := os.Getwd()
	rel, err := filepath.Rel(wd, x)
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"--trace-vcd", x, "--trace-events", x},
		{"--trace-vcd", x, "--trace-perfetto", filepath.Join(dir, ".", "sub", "..", "x")},
		{"--trace-events", x + ".csv", "--channels", rel + ".csv"},
	} {
		wantFail(t, 2, append(append([]string(nil), traceRun...), args...), "is the file", "writes too")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("refused runs wrote %d files", len(entries))
	}
	// The same file under another name (a link) too.
	if err := os.WriteFile(x, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(x, x+".vcd"); err != nil {
		t.Fatal(err)
	}
	wantFail(t, 2, append(append([]string(nil), traceRun...), "--trace-vcd", x+".vcd", "--trace-perfetto", x), "is the file")
}
