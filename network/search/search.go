// Package search hunts deadlocks: it runs many sets of concurrent multicasts
// and unicasts, with varied start times, on a small network and reports the
// first set that deadlocks as a config that replays it.
package search

import (
	"fmt"
	"github.com/flitsim/flitsim/internal/kernel"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"

	"go.yaml.in/yaml/v3"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/network"
)

// Spec says what scenarios to try. The network, switching, buffers, arbiter
// and multicast worm and header come from Base.
type Spec struct {
	Base       network.Config
	Scenarios  int    // how many scenarios to run (random mode) or at most (exhaustive)
	Seed       uint64 // seed of the scenario generator
	Multicasts int    // concurrent multicast worms per scenario
	Unicasts   int    // concurrent unicasts per scenario
	MaxOffset  int    // start cycles are drawn from 0..MaxOffset
	MinFlits   int    // data flits per packet: uniform in [MinFlits, MaxFlits]
	MaxFlits   int
	MinDests   int // destinations per multicast: uniform in [MinDests, MaxDests]
	MaxDests   int
	Exhaustive bool // enumerate instead of drawing at random (see Enumerate)
	// Progress, if set, is called after every scenario with the number run.
	Progress func(done int)
	// Stop, if set, interrupts the search when set: the scenario running
	// stops at the end of its cycle and is not counted (Outcome.Interrupted).
	Stop *atomic.Bool
}

// Outcome is what a search found.
type Outcome struct {
	Run      int               // scenarios run
	Found    bool              // a deadlock was found
	Scenario int               // index of the deadlocking scenario
	Packets  []string          // its packets (the traffic.packets lines)
	Deadlock *network.Deadlock // the deadlock report
	Config   *network.Config   // the config that replays it
	Result   *network.Result   // that run's result
	Stalled  int               // scenarios that stalled or hit the drain limit without a deadlock
	// Violations adds up the simulator's invariant counters over all
	// scenarios run (zero in a correct simulator).
	Violations int64
	// Interrupted is set when Spec.Stop ended the search early.
	Interrupted bool
}

// Check validates the spec, naming the bad flag.
func (s *Spec) Check() error {
	n := 0
	if t, err := network.Build(s.withPackets(nil)); err == nil {
		n = kernel.Of(t).Topo.Terminals()
	} else {
		return err
	}
	switch {
	case s.Scenarios < 1:
		return inputerr.New("--scenarios", s.Scenarios, "an integer ≥ 1")
	case s.Multicasts < 0 || s.Multicasts > n:
		return inputerr.New("--multicasts", s.Multicasts, "0 to %d", n)
	case s.Unicasts < 0 || s.Unicasts > n:
		return inputerr.New("--unicasts", s.Unicasts, "0 to %d", n)
	case s.Multicasts+s.Unicasts < 1:
		return inputerr.New("--multicasts", s.Multicasts, "at least one packet per scenario")
	case s.MaxOffset < 0:
		return inputerr.New("--max-offset", s.MaxOffset, "an integer ≥ 0")
	case s.MinFlits < 1 || s.MaxFlits < s.MinFlits:
		return inputerr.New("--flits", fmt.Sprintf("%d-%d", s.MinFlits, s.MaxFlits), "a range a-b with 1 ≤ a ≤ b")
	case s.MinDests < 2 || s.MaxDests < s.MinDests || s.MaxDests > n:
		return inputerr.New("--dests", fmt.Sprintf("%d-%d", s.MinDests, s.MaxDests), "a range a-b with 2 ≤ a ≤ b ≤ %d", n)
	}
	// The longest packet must fit cut-through and store-and-forward buffers.
	if _, err := network.Build(s.withPackets([]string{packet(0, 0, []int{0}, s.MaxFlits)})); err != nil {
		return fmt.Errorf("--flits %d-%d: %v", s.MinFlits, s.MaxFlits, err)
	}
	return nil
}

func (s *Spec) withPackets(pkts []string) network.Config {
	c := s.Base
	c.Traffic.Trace = ""
	c.Traffic.Packets = pkts
	if pkts == nil {
		c.Traffic.Packets = []string{"0,0,0,1"}
	}
	c.Run.Warmup, c.Run.Measure = 0, 1
	c.Run.Drain = int64(50*s.MaxFlits*(s.Multicasts+s.Unicasts) + 100*s.MaxOffset + 10000)
	c.Run.DeadlockCheck = 16
	return c
}

// Run searches. It stops at the first deadlock.
func Run(s Spec) (*Outcome, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	probe, _ := network.Build(s.withPackets(nil))
	n := kernel.Of(probe).Topo.Terminals()
	var next func() ([]string, bool)
	if s.Exhaustive {
		next = Enumerate(n, s)
	} else {
		rng := rand.New(rand.NewPCG(s.Seed, 0x5eed))
		next = func() ([]string, bool) { return Random(n, s, rng), true }
	}
	out := &Outcome{}
	for out.Run < s.Scenarios {
		if s.Stop != nil && s.Stop.Load() {
			out.Interrupted = true
			break
		}
		pkts, ok := next()
		if !ok {
			break
		}
		c := s.withPackets(pkts)
		nw, err := network.Build(c)
		if err != nil {
			return nil, err
		}
		nw.StopOn(s.Stop)
		r, err := nw.RunPlain()
		if err != nil {
			return nil, err
		}
		if r.Interrupted {
			out.Interrupted = true
			break
		}
		out.Run++
		out.Violations += r.Violations.Total()
		if r.Stall != nil {
			out.Stalled++
		}
		if s.Progress != nil {
			s.Progress(out.Run)
		}
		if r.Deadlock != nil {
			out.Found, out.Scenario, out.Packets = true, out.Run-1, pkts
			out.Deadlock, out.Config, out.Result = r.Deadlock, &c, r
			return out, nil
		}
		if r.Incomplete {
			out.Stalled++
		}
	}
	return out, nil
}

// Random draws one scenario: distinct sources, random destination sets and
// lengths, start cycles in 0..MaxOffset.
func Random(n int, s Spec, rng *rand.Rand) []string {
	srcs := rng.Perm(n)[:s.Multicasts+s.Unicasts]
	var pkts []string
	for i, src := range srcs {
		start := rng.IntN(s.MaxOffset + 1)
		flits := s.MinFlits + rng.IntN(s.MaxFlits-s.MinFlits+1)
		var dests []int
		if i < s.Multicasts {
			m := s.MinDests + rng.IntN(s.MaxDests-s.MinDests+1)
			dests = rng.Perm(n)[:m]
			slices.Sort(dests)
		} else {
			d := rng.IntN(n - 1)
			if d >= src {
				d++
			}
			dests = []int{d}
		}
		pkts = append(pkts, packet(start, src, dests, flits))
	}
	return pkts
}

// Enumerate walks every scenario of Multicasts multicasts (no unicasts)
// whose destinations are contiguous regions [a, b] with MinDests ≤ b−a+1 ≤
// MaxDests, from every combination of distinct sources, each starting at
// every offset in 0..MaxOffset, with MaxFlits data flits — in a fixed order.
// Unicasts, if asked for, are added from the lowest free sources to their
// successors, starting at cycle 0.
func Enumerate(n int, s Spec) func() ([]string, bool) {
	type mc struct{ src, a, b, off int }
	var regions [][2]int
	for a := 0; a < n; a++ {
		for b := a + s.MinDests - 1; b < n && b-a+1 <= s.MaxDests; b++ {
			regions = append(regions, [2]int{a, b})
		}
	}
	k := s.Multicasts
	// One odometer over (source, region, offset) per worm; sources must be
	// distinct and increasing so no scenario is met twice.
	per := n * len(regions) * (s.MaxOffset + 1)
	idx := make([]int, k)
	done := k == 0 || len(regions) == 0
	first := true
	decode := func(v int) mc {
		off := v % (s.MaxOffset + 1)
		v /= s.MaxOffset + 1
		r := regions[v%len(regions)]
		return mc{src: v / len(regions), a: r[0], b: r[1], off: off}
	}
	valid := func() bool {
		for i := 1; i < k; i++ {
			if decode(idx[i]).src <= decode(idx[i-1]).src {
				return false
			}
		}
		return true
	}
	advance := func() bool {
		for i := k - 1; i >= 0; i-- {
			idx[i]++
			if idx[i] < per {
				for j := i + 1; j < k; j++ {
					idx[j] = 0
				}
				return true
			}
		}
		return false
	}
	return func() ([]string, bool) {
		for !done {
			if !first && !advance() {
				done = true
				break
			}
			first = false
			if !valid() {
				continue
			}
			var pkts []string
			used := map[int]bool{}
			for _, v := range idx {
				m := decode(v)
				used[m.src] = true
				var dests []int
				for d := m.a; d <= m.b; d++ {
					dests = append(dests, d)
				}
				pkts = append(pkts, packet(m.off, m.src, dests, s.MaxFlits))
			}
			for src, u := 0, 0; src < n && u < s.Unicasts; src++ {
				if !used[src] {
					pkts = append(pkts, packet(0, src, []int{(src + 1) % n}, s.MaxFlits))
					u++
				}
			}
			return pkts, true
		}
		return nil, false
	}
}

func packet(cycle, src int, dests []int, flits int) string {
	d := make([]string, len(dests))
	for i, v := range dests {
		d[i] = fmt.Sprint(v)
	}
	return fmt.Sprintf("%d,%d,%s,%d", cycle, src, strings.Join(d, " "), flits)
}

// ReplayYAML writes the config that replays a found deadlock, with the
// report as comments, for `flitsim run -c`.
func ReplayYAML(o *Outcome) ([]byte, error) {
	var sb strings.Builder
	fmt.Fprintf(&sb, "# Found by flitsim deadlock-search: scenario %d deadlocks at cycle %d.\n", o.Scenario, o.Deadlock.Cycle)
	for _, r := range o.Deadlock.Resources {
		fmt.Fprintf(&sb, "#   %s\n", r)
	}
	sb.WriteString("# Replay: flitsim run -c THIS_FILE\n")
	c := *o.Config
	c.Run.Drain = 100000
	b, err := yaml.Marshal(replayable(c))
	if err != nil {
		return nil, err
	}
	sb.Write(b)
	return []byte(sb.String()), nil
}

// replayable is the config with only the keys a user writes (no JSON-only
// or derived fields), as a YAML mapping.
func replayable(c network.Config) map[string]any {
	topo := map[string]any{"kind": c.Topology.Kind}
	switch c.Topology.Kind {
	case "hypercube":
		topo["d"] = c.Topology.D
	case "file":
		// Absolute: the replay file may be written to another folder.
		f, err := filepath.Abs(c.Topology.File)
		if err != nil {
			f = c.Topology.File
		}
		topo["file"] = f
	case "esmin":
		topo["dims"] = c.Topology.Dims.String()
		if c.Topology.Path != "" {
			topo["path"] = c.Topology.Path
			topo["path_index"] = c.Topology.PathIndex
		}
	default:
		topo["k"], topo["n"] = c.Topology.K, c.Topology.N
		if c.Topology.Rectangular() {
			topo["k"] = c.Topology.Sides.String()
		}
	}
	if len(c.Topology.Order) > 0 {
		topo["order"] = c.Topology.Order.String()
	}
	return map[string]any{
		"topology":  topo,
		"switching": c.Switching,
		"buffers":   map[string]any{"input": c.Buffers.Input, "output": c.Buffers.Output},
		"link":      map[string]any{"latency": c.Link.Latency},
		"switch":    map[string]any{"delay": c.Switch.Delay, "reuse": c.ReuseOn()},
		"routing":   c.Routing,
		"arbiter":   c.Arbiter,
		"multicast": map[string]any{"worm": c.Multicast.Worm, "encoding": c.Multicast.Encoding},
		"traffic":   map[string]any{"packets": c.Traffic.Packets},
		"run": map[string]any{"warmup": 0, "measure": 1, "drain": c.Run.Drain,
			"seed": c.Run.Seed, "deadlock_check": c.Run.DeadlockCheck},
	}
}
