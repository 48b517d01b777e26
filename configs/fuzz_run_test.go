package configs

import (
	"errors"
	"fmt"
	"github.com/flitsim/flitsim/internal/kernel"
	"os"
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
	if t.Rectangular() {
		p := 1
		for _, v := range t.Sides {
			if v < 1 || len(t.Sides) > 64 {
				return fuzzTerminals + 1
			}
			if p *= v; p > fuzzTerminals {
				return p
			}
		}
		return p
	}
	return pow(t.K, t.N)
}

// fuzzBounded is network.Validate for configs within the fuzz bounds.
func fuzzBounded(c *network.Config) error {
	if fuzzTerminalsOf(c.Topology) > fuzzTerminals || c.Buffers.Input > fuzzDepth || c.Buffers.Output > fuzzDepth ||
		c.Link.Latency > fuzzDepth || c.Switch.Delay > fuzzDepth || c.Traffic.Trace != "" ||
		strings.EqualFold(strings.TrimSpace(c.Topology.Kind), "file") {
		return errFuzzTooBig // (a trace or topology file would read the fuzzer's disk; FuzzParseFile covers the latter)
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
	for _, name := range shippedConfigs(f) {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b, "run.workers=1")
		}
	}
	old := validate
	validate = fuzzBounded
	f.Cleanup(func() { validate = old })
	f.Fuzz(func(t *testing.T, data []byte, set string) {
		var sets []string
		if set != "" {
			sets = []string{set}
		}
		fuzzCheck(t, data, sets)
	})
}

// Values the structured target picks from (those the loader rejects for
// a topology are skipped like any bad config).
var (
	fuzzKinds = []string{"mesh", "torus", "hypercube", "omega", "baseline", "butterfly", "cube", "esmin",
		"folded-cube", "pseudocube", "permutation-cube", "enhanced-cube"}
	fuzzModes    = []string{"wormhole", "vct", "saf"}
	fuzzArbiters = []string{"round-robin", "oldest", "upper-first", "source", "clock", "grab"}
	fuzzPatterns = []string{"uniform", "bit-complement", "bit-reversal", "perfect-shuffle", "transpose", "tornado",
		"neighbor", "random-permutation", "hotspot", "cluster-multicast"}
	fuzzWorms   = []string{"async", "sync", "path"}
	fuzzHeaders = []string{"single", "ad", "pseudo-ad"}
	fuzzSchemes = []string{"hardware", "separate", "umin", "cmin"}
	fuzzDims    = []string{"1,2,1,2,0", "0,1,2,0", "2,1,0,2,0", "1,0", "3,2,1,0,3,0"}
)

// FuzzRunKeys is FuzzRun over the settings rather than the YAML text, so
// that the fuzzer combines topologies, switching, buffers, latencies,
// arbiters, patterns and multicast schemes instead of mostly breaking the
// syntax. Each input becomes --set overrides of the default experiment.
func FuzzRunKeys(f *testing.F) {
	f.Add(uint8(0), uint8(2), uint8(0), uint8(0), uint8(0), uint8(0), uint8(0), uint8(4), uint8(2), uint8(8), uint8(0), uint8(3), uint8(0), uint8(4), uint8(4), 0.3, uint64(1), true)
	f.Add(uint8(6), uint8(0), uint8(2), uint8(9), uint8(1), uint8(2), uint8(0), uint8(2), uint8(4), uint8(0), uint8(1), uint8(1), uint8(0), uint8(2), uint8(9), 0.4, uint64(7), false)
	f.Add(uint8(7), uint8(1), uint8(4), uint8(9), uint8(0), uint8(0), uint8(2), uint8(0), uint8(0), uint8(6), uint8(6), uint8(2), uint8(1), uint8(1), uint8(6), 0.6, uint64(3), true)
	f.Add(uint8(2), uint8(0), uint8(5), uint8(2), uint8(2), uint8(1), uint8(1), uint8(0), uint8(5), uint8(1), uint8(1), uint8(1), uint8(2), uint8(1), uint8(3), 0.9, uint64(11), false)
	// k ≥ 128 on a mesh or torus: a list of sides (3×5 mesh, 4×6 torus).
	f.Add(uint8(0), uint8(0), uint8(0), uint8(0), uint8(0), uint8(0), uint8(0), uint8(0x80|1|3<<2), uint8(1), uint8(4), uint8(0), uint8(0), uint8(0), uint8(3), uint8(0), 0.3, uint64(5), true)
	f.Add(uint8(1), uint8(1), uint8(1), uint8(7), uint8(0), uint8(0), uint8(0), uint8(0x80|2|4<<2), uint8(1), uint8(4), uint8(0), uint8(0), uint8(0), uint8(3), uint8(0), 0.5, uint64(9), false)
	old := validate
	validate = fuzzBounded
	f.Cleanup(func() { validate = old })
	f.Fuzz(func(t *testing.T, kind, mode, arb, pat, worm, hdr, scheme, k, n, in, out, lat, delay, fmin, fmax uint8,
		load float64, seed uint64, reuse bool) {
		pick := func(xs []string, i uint8) string { return xs[int(i)%len(xs)] }
		sets := []string{
			"topology.kind=" + pick(fuzzKinds, kind),
			"switching=" + pick(fuzzModes, mode), "arbiter=" + pick(fuzzArbiters, arb),
			"traffic.pattern=" + pick(fuzzPatterns, pat), "multicast.worm=" + pick(fuzzWorms, worm),
			"multicast.encoding=" + pick(fuzzHeaders, hdr), "multicast.scheme=" + pick(fuzzSchemes, scheme),
			fmt.Sprintf("buffers.input=%d", in%10), fmt.Sprintf("buffers.output=%d", out%4),
			fmt.Sprintf("link.latency=%d", 1+lat%4), fmt.Sprintf("switch.delay=%d", delay%3),
			fmt.Sprintf("traffic.flits=%d-%d", 1+fmin%8, 1+fmin%8+fmax%8), fmt.Sprintf("traffic.load=%g", load),
			fmt.Sprintf("run.seed=%d", seed), fmt.Sprintf("switch.reuse=%v", reuse), "run.warmup=50", "run.measure=100",
			"traffic.hotspots=0,1",
		}
		switch pick(fuzzKinds, kind) {
		case "hypercube":
			sets = append(sets, fmt.Sprintf("topology.d=%d", 1+n%6))
		case "folded-cube":
			sets = append(sets, fmt.Sprintf("topology.d=%d", 2+n%5))
		case "pseudocube", "permutation-cube", "enhanced-cube":
			// k picks the routing (enhanced cube) or a symmetric member.
			sets = append(sets, fmt.Sprintf("topology.d=%d", 1+n%6), fmt.Sprintf("topology.symmetric=%v", k%2 == 1))
			if pick(fuzzKinds, kind) == "enhanced-cube" {
				sets = append(sets, "routing="+pick([]string{"greedy", "valiant"}, k))
			}
		case "esmin":
			sets = append(sets, "topology.dims="+pick(fuzzDims, n), "topology.path="+pick([]string{"first", "latest", "random"}, k))
		case "mesh", "torus":
			if k&0x80 != 0 { // a list of 1+n%3 sides from k's bits; n follows the list
				sides := []string{fmt.Sprint(2 + k&3), fmt.Sprint(2 + k>>2&7), fmt.Sprint(2 + k>>5&3)}
				sets = append(sets, "topology.k="+strings.Join(sides[:1+n%3], ","))
				break
			}
			sets = append(sets, fmt.Sprintf("topology.k=%d", 2+k%5), fmt.Sprintf("topology.n=%d", 1+n%3))
		default:
			sets = append(sets, fmt.Sprintf("topology.k=%d", 2+k%3), fmt.Sprintf("topology.n=%d", 1+n%4))
		}
		fuzzCheck(t, DefaultYAML(), sets)
	})
}

// fuzzCheck loads data with sets and, if the loader accepts it, builds and
// runs it within the fuzz bounds and checks the run (see FuzzRun).
func fuzzCheck(t *testing.T, data []byte, sets []string) {
	t.Helper()
	// A hang is a failure too: the fuzzer cannot see one, so a watchdog
	// fails the input (and records it) after 20 s.
	done := make(chan struct{})
	defer close(done)
	watchdog := time.AfterFunc(20*time.Second, func() {
		select {
		case <-done:
		default:
			panic(fmt.Sprintf("fuzz: no result after 20 s for --set %q and the config:\n%s", sets, data))
		}
	})
	defer watchdog.Stop()
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
		// The automatic mode times both ways during the run: results are
		// the same as one thread's, but a run takes up to a second under
		// the fuzzer. An explicit 2 still runs two lanes.
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
	t.Logf("config %s with --set %q", data[:min(len(data), 60)], sets) // shown on failure
	k := kernel.Of(n)
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
}
