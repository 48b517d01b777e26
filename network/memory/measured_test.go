package memory_test

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/network/collective"
	"github.com/flitsim/flitsim/network/memory"
	"github.com/flitsim/flitsim/network/topology"
	"github.com/flitsim/flitsim/network/trace"
)

// measureCase is one configuration whose estimate is compared with the
// peak memory a fresh process takes to carry it out.
//
// (Measured: the larger of the peak resident memory, VmHWM, and the memory
// the Go runtime obtained from the system, MemStats.Sys.)
type measureCase struct {
	name string
	sets []string
	// do is what the command does (run, collective, distances).
	do func(c network.Config) error
	// estimate is the command's estimate.
	estimate func(c *network.Config) (*memory.Estimate, error)
}

func runIt(c network.Config) error { _, err := network.Run(c); return err }

var measureCases = []measureCase{
	{"run hypercube d=13 saturated", []string{"topology.kind=hypercube", "topology.d=13", "traffic.load=1", "run.max_backlog=2", "run.warmup=100", "run.measure=400"}, runIt, memory.ForRun},
	// A light run whose sources cannot reach run.max_backlog: its packets
	// are bounded by what the run generates.
	{"run hypercube d=16 load 0.01", []string{"topology.kind=hypercube", "topology.d=16", "traffic.load=0.01", "run.warmup=0", "run.measure=200", "run.drain=100"}, runIt, memory.ForRun},
	{"run mesh 96×96", []string{"topology.k=96", "traffic.load=0.05", "run.max_backlog=2", "run.warmup=20", "run.measure=50", "run.drain=2000"}, runIt, memory.ForRun},
	{"batch hypercube d=12 h=16", []string{"topology.kind=hypercube", "topology.d=12", "switching=packet", "traffic.mode=batch", "traffic.h=16"}, runIt, memory.ForRun},
	{"run per_pair hypercube d=11", []string{"topology.kind=hypercube", "topology.d=11", "run.per_pair=true", "traffic.load=0.02", "run.warmup=10", "run.measure=50", "run.max_backlog=2"}, runIt, memory.ForRun},
	{"run per_node mesh 48×48", []string{"topology.k=48", "run.per_node=true", "traffic.load=0.05", "run.warmup=10", "run.measure=600", "run.max_backlog=2"}, runIt, memory.ForRun},
	{"collective te d=9", []string{"topology.kind=hypercube", "topology.d=9"}, collectiveIt(memory.Trace{}, trace.Options{}), collectiveEstimate(memory.Trace{})},
	{"collective te d=9 traced", []string{"topology.kind=hypercube", "topology.d=9"}, collectiveIt(memory.Trace{On: true}, trace.Options{}), collectiveEstimate(memory.Trace{On: true})},
	{"collective te d=10 traced, window 0:2", []string{"topology.kind=hypercube", "topology.d=10"},
		collectiveIt(memory.Trace{On: true, Scoped: true, Cycles: 2}, trace.Options{Window: trace.Window{To: 2}}), collectiveEstimate(memory.Trace{On: true, Scoped: true, Cycles: 2})},
	{"collective te d=10 VCD, window 10:12", []string{"topology.kind=hypercube", "topology.d=10"},
		collectiveIt(memory.Trace{On: true, Scoped: true, Cycles: 2}, trace.Options{Window: trace.Window{From: 10, To: 12}}, "vcd"), collectiveEstimate(memory.Trace{On: true, Scoped: true, Cycles: 2})},
	{"collective te d=10 Perfetto, window 10:12", []string{"topology.kind=hypercube", "topology.d=10"},
		collectiveIt(memory.Trace{On: true, Scoped: true, Cycles: 12}, trace.Options{Window: trace.Window{From: 10, To: 12}}, "perfetto"), collectiveEstimate(memory.Trace{On: true, Scoped: true, Cycles: 12})},
	{"distances hypercube d=13", []string{"topology.kind=hypercube", "topology.d=13"}, distancesIt, memory.ForDistances},
}

// collectiveIt runs te traced (tr.On) by the event log, or by the writer
// named (vcd, perfetto).
func collectiveIt(tr memory.Trace, to trace.Options, writer ...string) func(c network.Config) error {
	return func(c network.Config) error {
		var o collective.Options
		if tr.On {
			o.Attach = func(k *kernel.Kernel) (kernel.Tracer, error) {
				switch {
				case len(writer) == 0:
				case writer[0] == "vcd":
					return trace.NewVCD(io.Discard, k, to)
				case writer[0] == "perfetto":
					return trace.NewPerfetto(io.Discard, k, to)
				}
				return trace.NewEvents(io.Discard, k, trace.CSV, to)
			}
		}
		_, err := collective.RunWith(c.Topology, "te", nil, c.Run.Seed, o)
		return err
	}
}

func collectiveEstimate(tr memory.Trace) func(c *network.Config) (*memory.Estimate, error) {
	return func(c *network.Config) (*memory.Estimate, error) { return memory.ForCollective(c, "te", tr) }
}

// distancesIt does what flitsim distances does: validate (build the
// network), build the topology and measure its graph.
func distancesIt(c network.Config) error {
	if err := network.Validate(&c); err != nil {
		return err
	}
	s := c.Topology
	s.Routing, s.Seed = c.Routing, c.Run.Seed
	t, err := topology.Build(s)
	if err == nil {
		_, err = topology.GraphDistances(t)
	}
	return err
}

// measureEnv names the case a child process carries out (see TestMain).
const measureEnv = "FLITSIM_MEMORY_CASE"

func TestMain(m *testing.M) {
	if name := os.Getenv(measureEnv); name != "" {
		os.Exit(measureChild(name))
	}
	os.Exit(m.Run())
}

// measureChild carries out the named case and prints the process's peak
// resident memory (VmHWM) in bytes.
func measureChild(name string) int {
	for _, mc := range measureCases {
		if mc.name != name {
			continue
		}
		c, err := configs.LoadUnchecked("", mc.sets)
		if err == nil {
			err = mc.do(c)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		hwm, err := peakRSS("/proc/self/status")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		// Memory the runtime obtained but the process never touched
		// (a large zeroed slice, run.per_pair's) is not resident, yet the
		// machine must be able to give it: count it too.
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		fmt.Println(max(hwm, int64(ms.Sys)))
		return 0
	}
	fmt.Fprintln(os.Stderr, "no case", name)
	return 1
}

// peakRSS reads VmHWM (bytes) from a /proc/PID/status file.
func peakRSS(path string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if rest, ok := strings.CutPrefix(s.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("%s: no VmHWM", path)
}

// Each estimate lies within 2× of the peak resident memory a fresh process
// takes to do what it estimates (build and run, run a collective with and
// without a trace, build a topology).
func TestEstimateAgainstMeasured(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("needs /proc/self/status (Linux) to measure the peak resident memory")
	}
	if testing.Short() {
		t.Skip("runs a process per configuration")
	}
	for _, mc := range measureCases {
		t.Run(mc.name, func(t *testing.T) {
			c, err := configs.LoadUnchecked("", mc.sets)
			if err != nil {
				t.Fatal(err)
			}
			e, err := mc.estimate(&c)
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), measureEnv+"="+mc.name)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("child: %v %s", err, out)
			}
			got, err := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
			if err != nil {
				t.Fatalf("child printed %q", out)
			}
			est := e.Total()
			t.Logf("estimate %s, measured peak RSS %s (ratio %.2f)", network.ByteSize(est).Human(), network.ByteSize(got).Human(), est/got)
			if est > 2*got || est < got/2 {
				t.Errorf("estimate %s is not within 2× of the measured %s; terms %+v", network.ByteSize(est).Human(), network.ByteSize(got).Human(), e.Terms)
			}
		})
	}
}
