package configs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/traffic"
)

// Bounds that keep one fuzzed run to milliseconds: the network's size, its
// buffers and latencies, and the cycles it runs. What is inside them runs
// as the loader accepted it.
const (
	fuzzTerminals = 256
	fuzzDepth     = 64
	fuzzCycles    = 300
)

var errFuzzTooBig = errors.New("larger than the fuzz bounds")

// fuzzTerminalsOf estimates a topology's terminals from its parameters
// before anything is built (a 2^20-node network would cost seconds).
func fuzzTerminalsOf(t network.TopologyConfig) int {
	pow := func(b, e int) int {
		if b < 1 || e < 0 || e > 64 {
			return fuzzTerminals + 1
		}
		p := 1
		for i := 0; i < e; i++ {
			if p *= b; p > fuzzTerminals {
				return p
			}
		}
		return p
	}
	switch t.Kind {
	case "hypercube":
		return pow(2, t.D)
	case "esmin":
		m := 0
		for _, d := range t.Dims {
			m = max(m, d)
		}
		if len(t.Dims) > 24 {
			return fuzzTerminals + 1
		}
		return pow(2, m+1)
	}
	return pow(t.K, t.N)
}

// fuzzBounded is network.Validate for configs within the fuzz bounds.
func fuzzBounded(c *network.Config) error {
	if fuzzTerminalsOf(c.Topology) > fuzzTerminals || c.Buffers.Input > fuzzDepth || c.Buffers.Output > fuzzDepth ||
		c.Link.Latency > fuzzDepth || c.Switch.Delay > fuzzDepth || c.Traffic.Trace != "" {
		return errFuzzTooBig // (a trace file would read the fuzzer's disk)
	}
	return network.Validate(c)
}

// fuzzPackets reports whether c's inline packets all start within the fuzz
// cycles, and whether they are all unicasts.
func fuzzPackets(c *network.Config) (ok, unicast bool) {
	unicast = true
	for _, p := range c.Traffic.Packets {
		f := strings.Split(p, ",")
		if len(f) != 4 {
			return false, false
		}
		cycle, err := strconv.ParseInt(strings.TrimSpace(f[0]), 10, 64)
		if err != nil || cycle > fuzzCycles {
			return false, false
		}
		if len(strings.FieldsFunc(f[2], func(r rune) bool { return r == ' ' || r == ';' || r == '|' || r == '\t' })) > 1 {
			unicast = false
		}
	}
	return true, unicast
}

// FuzzRun builds and runs, for a few hundred cycles, every configuration
// the loader accepts (within size bounds), checking that nothing panics,
// that the simulator's own invariants hold (no channel used twice in a
// cycle, no flit out of order, duplicated, misdelivered or over a
// buffer's depth), that a reported deadlock is a real wait-for cycle (it
// names resources) and, for unicast traffic, that flits are conserved:
// every one generated was delivered, is in a buffer or waits at its source.
func FuzzRun(f *testing.F) {
	f.Add(DefaultYAML(), "traffic.load=0.3")
	f.Add(DefaultYAML(), "switching=vct")
	f.Add(DefaultYAML(), "traffic.pattern=cluster-multicast")
	seeds, _ := filepath.Glob("*.yaml")
	chiang, _ := filepath.Glob(filepath.Join("chiang", "*.yaml"))
	for _, name := range append(seeds, chiang...) {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b, "run.workers=1")
		}
	}
	old := validate
	validate = fuzzBounded
	f.Cleanup(func() { validate = old })
	f.Fuzz(func(t *testing.T, data []byte, set string) {
		// A hang is a failure too: the fuzzer cannot see one, so a watchdog
		// fails the input (and records it) after 20 s.
		done := make(chan struct{})
		defer close(done)
		watchdog := time.AfterFunc(20*time.Second, func() {
			select {
			case <-done:
			default:
				panic(fmt.Sprintf("FuzzRun: no result after 20 s for --set %q and the config:\n%s", set, data))
			}
		})
		defer watchdog.Stop()
		var sets []string
		if set != "" {
			sets = []string{set}
		}
		c, err := LoadBytes(data, "fuzz.yaml", sets)
		if err != nil {
			return // FuzzLoad checks the errors
		}
		ok, unicast := fuzzPackets(&c)
		if !ok {
			return
		}
		r := &c.Run
		r.Warmup, r.Measure, r.Drain = min(r.Warmup, fuzzCycles/3), min(r.Measure, fuzzCycles/3), min(r.Drain, fuzzCycles/3)
		if r.StallLimit == 0 || r.StallLimit > fuzzCycles {
			r.StallLimit = fuzzCycles
		}
		if r.Workers == 0 {
			// The automatic mode times both ways during the run: results
			// are the same as one thread's, but a run takes up to a second
			// under the fuzzer. An explicit 2 still runs two lanes.
			r.Workers = 1
		}
		n, err := network.Build(c)
		if err != nil {
			t.Fatalf("the loader accepted a config that does not build: %v", err)
		}
		res, err := n.RunPlain()
		if err != nil {
			if strings.ContainsAny(err.Error(), "\r\n") {
				t.Errorf("run error is not one line: %q", err)
			}
			return
		}
		k := n.K
		if v := k.Violations; v.Total() != 0 {
			t.Fatalf("invariant violations: %+v", v)
		}
		if res.Cycles > 2*fuzzCycles {
			t.Errorf("ran %d cycles, past its window and drain (at most %d)", res.Cycles, 2*fuzzCycles)
		}
		if d := res.Deadlock; d != nil && (len(d.Resources) == 0 || len(d.Worms) == 0) {
			// A deadlock is a cycle in the wait-for graph: it has edges.
			t.Fatalf("deadlock at cycle %d with no resources or worms: a false wait-for cycle (%+v)", d.Cycle, d)
		}
		multicast := traffic.IsMulticastPattern(c.Traffic.Pattern) || !unicast
		if got := res.DeliveredFlits + int64(k.InFlight()) + k.Backlog(); !multicast && got != res.InjectedFlits {
			t.Fatalf("flits not conserved: injected %d, delivered %d + in flight %d + backlog %d",
				res.InjectedFlits, res.DeliveredFlits, k.InFlight(), k.Backlog())
		}
	})
}
