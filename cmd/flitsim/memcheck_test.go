package main

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/network"
)

// The cases are refused before anything is built: exit 2, one
// line with the estimate, the largest term and the key that shrinks it,
// and the test process allocates almost nothing doing so.
func TestMemoryRefusedBeforeBuilding(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"run", "--set", "topology.kind=hypercube", "--set", "topology.d=16", "--set", "run.per_pair=true", "--set", "run.max_memory=16GiB"},
			[]string{"run: estimated peak memory", "> run.max_memory 17.2 GB", "largest term: run.per_pair (hypercube, 65536 terminals: 65536² pairs × 16 B)", "turn off run.per_pair or raise run.max_memory"}},
		{[]string{"run", "--set", "topology.kind=hypercube", "--set", "topology.d=20", "--set", "run.max_memory=16GiB"},
			[]string{"largest term: packets (run.max_backlog 50", "lower run.max_backlog"}},
		{[]string{"run", "--set", "topology.kind=hypercube", "--set", "topology.d=20", "--set", "run.max_backlog=1", "--set", "run.max_memory=8GB"},
			[]string{"largest term: the network (hypercube, 1048576 terminals"}},
		{[]string{"distances", "--set", "topology.kind=hypercube", "--set", "topology.d=20"},
			[]string{"1048576 terminals is not allowed (allowed: at most 16384 terminals for flitsim distances)"}},
		{[]string{"distances", "--set", "topology.kind=hypercube", "--set", "topology.d=14", "--set", "run.max_memory=100MB"},
			[]string{"distances: estimated peak memory", "> run.max_memory 100 MB"}},
		{[]string{"run", "--set", "topology.kind=hypercube", "--set", "topology.d=16", "--set", "switching=packet", "--set", "traffic.mode=batch", "--set", "traffic.h=65536", "--set", "run.max_memory=16GiB"},
			[]string{"largest term: packets (a batch of traffic.h 65536 × 65536 terminals", "lower traffic.h or run.experiments"}},
		{[]string{"run", "--set", "topology.kind=hypercube", "--set", "topology.d=20", "--set", "switching=packet", "--set", "traffic.mode=batch", "--set", "traffic.h=64", "--set", "run.max_memory=16GiB"},
			[]string{"largest term: packets (a batch of traffic.h 64"}},
		{[]string{"collective", "--task", "te", "--set", "topology.kind=hypercube", "--set", "topology.d=12", "--trace-events", "te.csv", "--set", "run.max_memory=4GB"},
			[]string{"collective te: estimated peak memory 9.", "largest term: trace records (16773120 packets × 550 B); drop the --trace-* flags"}},
		{[]string{"sweep", "--set", "topology.kind=hypercube", "--set", "topology.d=10", "--set", "run.max_backlog=2000", "--set", "run.max_memory=2GB", "--jobs", "2", "--vary", "traffic.load=0.1:0.2:0.1"},
			[]string{"sweep: estimated peak memory", "in one of 2 points run at once", "(or lower --jobs)"}},
	} {
		t.Run(strings.Join(c.args[1:], " "), func(t *testing.T) {
			t.Chdir(t.TempDir())
			var ms0, ms1 runtime.MemStats
			runtime.ReadMemStats(&ms0)
			var out, errb bytes.Buffer
			code := realMain(c.args, &out, &errb)
			runtime.ReadMemStats(&ms1)
			msg := errb.String()
			if code != exitBadInput || strings.Count(msg, "\n") != 1 {
				t.Fatalf("exit %d, stderr %q; want 2 and one line", code, msg)
			}
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("stderr %q lacks %q", msg, w)
				}
			}
			if a := ms1.TotalAlloc - ms0.TotalAlloc; a > 64<<20 {
				t.Errorf("allocated %d MB before refusing", a>>20)
			}
		})
	}
}

// A collective without a trace on the same cube passes the check that
// refuses the traced one: the trace records are the term.
func TestCollectiveTraceTermOnly(t *testing.T) {
	var out, errb bytes.Buffer
	code := realMain([]string{"collective", "--task", "te", "--set", "topology.kind=hypercube", "--set", "topology.d=5", "--set", "run.max_memory=40MB", "--trace-events", t.TempDir() + "/te.csv"}, &out, &errb)
	if code != exitOK {
		t.Fatalf("traced d=5 under 40MB: exit %d, %s", code, errb.String())
	}
	code = realMain([]string{"collective", "--task", "te", "--set", "topology.kind=hypercube", "--set", "topology.d=11", "--set", "run.max_memory=1GB", "--trace-events", t.TempDir() + "/te.csv"}, &out, &errb)
	if code != exitBadInput || !strings.Contains(errb.String(), "trace records") {
		t.Fatalf("traced d=11 under 1GB: exit %d, %s", code, errb.String())
	}
}

// A bug caught in a run's goroutine (network.InternalError) exits 70, the
// status of an internal error, not 2.
func TestInternalErrorExits70(t *testing.T) {
	old := runNetwork
	defer func() { runNetwork = old }()
	runNetwork = func(*network.Network) (*network.Result, error) {
		return nil, fmt.Errorf("batch: %w", &network.InternalError{Value: "index out of range"})
	}
	var out, errb bytes.Buffer
	if code := realMain([]string{"run", "--set", "run.measure=10"}, &out, &errb); code != exitInternal || !strings.Contains(errb.String(), "internal error: index out of range") {
		t.Errorf("exit %d, stderr %q; want 70 and the internal error", code, errb.String())
	}
}

// Every trace limited by --trace-window or --trace-only keeps records only
// for what it writes, and the collective's estimate says so: the 11-cube's
// total exchange traced into a VCD or a Perfetto timeline passes a 1 GB
// limit with a short window and is refused without one (or as a timeline
// by router, which records every packet).
func TestCollectiveScopedTraceEstimate(t *testing.T) {
	c, err := configs.LoadUnchecked("", []string{"topology.kind=hypercube", "topology.d=11", "run.max_memory=1GB"})
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []struct {
		flags  traceFlags
		cycles int64 // the estimate's Cycles
		ok     bool  // under 1 GB
	}{
		{traceFlags{vcd: "te.vcd", tracks: "worm", window: "10:12"}, 2, true},
		{traceFlags{perfetto: "te.json", tracks: "worm", window: "10:12"}, 12, true},
		{traceFlags{events: "te.csv", perfetto: "te.json", tracks: "worm", window: "0:2"}, 2, true},
		{traceFlags{vcd: "te.vcd", tracks: "worm"}, 0, false},
		{traceFlags{perfetto: "te.json", tracks: "router", window: "10:12"}, 0, false},
	} {
		tr := collectiveTrace(&x.flags)
		err := collectiveMemory("te", &x.flags)(&c)
		if tr.Cycles != x.cycles || (err == nil) != x.ok {
			t.Errorf("%+v: %+v, check %v; want %d cycles, passing %v", x.flags, tr, err, x.cycles, x.ok)
		}
	}
}
