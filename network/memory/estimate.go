package memory

import (
	"fmt"
	"math"
	"os"
	"runtime"
	"strings"

	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/network/topology"
	"github.com/flitsim/flitsim/traffic"
)

// size is the configured network's size, counted without building it.
func size(c *network.Config) (topology.Size, error) {
	spec := c.Topology
	spec.Routing, spec.Seed = c.Routing, c.Run.Seed
	return topology.SizeOf(spec)
}

// describe names the network in a term: "hypercube, 65536 terminals".
func describe(c *network.Config, z topology.Size) string {
	return fmt.Sprintf("%s, %d terminals", c.Topology.Kind, z.Terminals)
}

// ForRun is the estimate of `flitsim run` (and of one sweep point) on c.
func ForRun(c *network.Config) (*Estimate, error) {
	e := &Estimate{Command: "run", Limit: c.Run.MaxMemory}
	e.add("the program", "", Base)
	z, err := size(c)
	if err != nil {
		return nil, err
	}
	e.Size = z
	copies := 1
	if network.IsBatch(c) {
		copies = concurrentExperiments(c) // (each builds its network)
	}
	addNetwork(e, c, z, copies)
	n := float64(z.Terminals)
	if links, k, err := network.SlottedLinks(c); err == nil && strings.EqualFold(strings.TrimSpace(c.Switching), "slotted") {
		// Its packets live by value in its links' registers (this slot's
		// and the next's) and FIFOs (k = inf counted as one waiting
		// place: a new packet enters only a free buffer, so the queues
		// stay short; k = 0 keeps a place's worth of FIFO bookkeeping).
		places := 2 + float64(max(k, 1))
		e.add(fmt.Sprintf("the slotted router's links (%s links × %s places × %s)", count(float64(links)), count(places), bytesEach(SlottedPlace)),
			"lower slotted.k or topology.d", float64(links)*places*SlottedPlace)
	} else {
		live, what, shrink := livePackets(c, n)
		e.add(fmt.Sprintf("packets (%s: %s × %s)", what, count(live), bytesEach(PerPacket)), shrink, live*PerPacket)
	}
	if c.Run.PerNode || c.Run.PerPair {
		e.add(fmt.Sprintf("run.per_node/per_pair terminal histograms (%s terminals × %s)", count(n), bytesEach(PerNodeDetail)),
			"turn off run.per_node and run.per_pair", n*PerNodeDetail)
	}
	if c.Run.PerPair {
		e.add(fmt.Sprintf("run.per_pair (%s: %s² pairs × %s)", describe(c, z), count(n), bytesEach(PerPair)),
			"turn off run.per_pair", n*n*PerPair)
	}
	return e, nil
}

// addNetwork adds the built network's ports, copies times (a batch's
// experiments running at once each build one).
func addNetwork(e *Estimate, c *network.Config, z topology.Size, copies int) {
	perPort := PerPort + PerSlot*float64(c.Buffers.Input+c.Buffers.Output)
	bytes := float64(z.Ports) * perPort
	if flitKernel(c) {
		perPort = KernelPort + FlitSlot*float64(c.Buffers.Input+c.Buffers.Output)
		if c.Buffers.Input > 0 && c.Buffers.Output > 0 {
			perPort += KernelBuffer // (an output buffer's record beside the input's)
		}
		bytes = float64(z.Ports)*perPort + float64(z.Terminals)*KernelTerminal
		perPort = bytes / float64(z.Ports) // (shown per port, terminals included)
	}
	what := fmt.Sprintf("the network (%s: %d ports × %s)", describe(c, z), z.Ports, bytesEach(perPort))
	if copies > 1 {
		what = fmt.Sprintf("the networks (%d experiments at once × %s: %d ports × %s)", copies, describe(c, z), z.Ports, bytesEach(perPort))
	}
	e.add(what, "choose a smaller topology or fewer buffer slots", float64(copies)*bytes)
}

// flitKernel reports whether c runs on the kernel's own flit crossbar (any
// switching but the packet router's, the slotted router's and the
// lock-step mesh's, with no router.model), whose layout KernelPort and the
// costs beside it measure; the others keep PerPort.
func flitKernel(c *network.Config) bool {
	sw := strings.ToLower(strings.TrimSpace(c.Switching))
	return c.Router.Model == "" && sw != "packet" && sw != "slotted" && !network.IsLockstepMesh(c)
}

// livePackets is how many packets c's run may hold at once, what they are
// and which key lowers them.
func livePackets(c *network.Config, n float64) (live float64, what, shrink string) {
	t := &c.Traffic
	switch {
	case network.IsBatch(c):
		h := float64(max(t.H, 1))
		at := float64(concurrentExperiments(c))
		return h * n * at, fmt.Sprintf("a batch of traffic.h %d × %s terminals × %s experiments at once", max(t.H, 1), count(n), count(at)),
			"lower traffic.h or run.experiments"
	case len(t.Packets) > 0:
		return float64(len(t.Packets)), "traffic.packets", "list fewer traffic.packets"
	case t.Trace != "":
		// A trace line is at least "0,0,1,1\n"; a typical one about 16 bytes.
		var b float64
		if fi, err := os.Stat(t.Trace); err == nil {
			b = float64(fi.Size()) / 16
		}
		return b, "the trace's lines, about 16 bytes each", "use a shorter traffic.trace"
	}
	gen, bernoulli := generated(c, n)
	cycles := runCycles(&c.Run)
	genWhat := fmt.Sprintf("at most every packet generated in the run's %s cycles (run.warmup + run.measure + run.drain)", count(cycles))
	if c.Run.MaxBacklog > 0 {
		held := float64(c.Run.MaxBacklog) * n
		if bernoulli && gen < held {
			// A light run ends (or is stopped) before its sources
			// could generate a saturated run's backlog.
			return gen, genWhat, "shorten run.measure or run.drain"
		}
		return held, fmt.Sprintf("run.max_backlog %d waiting per terminal × %s terminals, the most a saturated run holds", c.Run.MaxBacklog, count(n)),
			"lower run.max_backlog"
	}
	return gen, genWhat + ", run.max_backlog 0 (no limit)", "set run.max_backlog"
}

// runCycles is the most cycles an open-loop run lasts: the sources
// generate through the drain too, until every measured packet is
// delivered or run.drain runs out.
func runCycles(r *network.RunConfig) float64 {
	return float64(r.Warmup) + float64(r.Measure) + float64(r.Drain) + 1
}

// generated bounds the packets c's open-loop traffic generates on n
// terminals over the whole run (with traffic.reply_flits a reply per
// request at most doubles them). bernoulli says the bound holds: the
// pattern's generator is the Bernoulli process (a packet per terminal per
// cycle with probability load ÷ mean length), whose count stays below
// its mean plus 6 standard deviations but with probability 1e-9; a
// workload with a generator of its own (tasks) or multicasts (which a
// software scheme sends as many unicasts) is only approximated by it.
func generated(c *network.Config, n float64) (gen float64, bernoulli bool) {
	t := &c.Traffic
	p := min(1, max(0, t.Load/t.Flits.Mean()))
	trials := n * runCycles(&c.Run)
	mean := trials * p
	gen = min(trials, mean+6*math.Sqrt(mean*(1-p))+1)
	if t.ReplyFlits > 0 {
		gen *= 2
	}
	pat, ok := traffic.LookupPattern(t.Pattern)
	return gen, ok && pat.NewGenerator == nil && !traffic.IsMulticastPattern(t.Pattern)
}

// concurrentExperiments is how many of a batch's experiments run at once.
func concurrentExperiments(c *network.Config) int {
	return max(1, min(c.Run.Experiments, runtime.GOMAXPROCS(0)))
}

// ForDistances is the estimate of `flitsim distances`: the network the
// configuration's validation builds, then the topology again.
func ForDistances(c *network.Config) (*Estimate, error) {
	e := &Estimate{Command: "distances", Limit: c.Run.MaxMemory}
	e.add("the program", "", Base)
	z, err := size(c)
	if err != nil {
		return nil, err
	}
	e.Size = z
	e.add(fmt.Sprintf("the network its validation builds (%s: %d ports × %s)", describe(c, z), z.Ports, bytesEach(PerBuiltPort)),
		"choose a smaller topology", float64(z.Ports)*PerBuiltPort)
	return e, nil
}

// allToAll are the collective tasks in which every node holds a packet for
// every other at once.
var allToAll = map[string]bool{"te": true, "te-greedy": true, "kl-exchange": true, "pe": true}

// Trace is what a collective's --trace-* flags ask for, as the memory of
// its packets' records depends on it.
type Trace struct {
	On bool // a --trace-* flag
	// Scoped: traces limited by --trace-window or --trace-only (any but a
	// timeline by router or link): a packet gets its record at the first
	// event they write of it (kernel.TraceScope).
	Scoped bool
	// Cycles is how many cycles packets may get their records in (0: no
	// end): --trace-window's length, or up to its end with
	// --trace-perfetto (a hop span it shows may start before the window).
	Cycles int64
}

// ForCollective is the estimate of `flitsim collective --task task` on c's
// topology with the traces tr.
func ForCollective(c *network.Config, task string, tr Trace) (*Estimate, error) {
	e := &Estimate{Command: "collective " + task, Limit: c.Run.MaxMemory}
	e.add("the program", "", Base)
	z, err := size(c)
	if err != nil {
		return nil, err
	}
	e.Size = z
	e.add(fmt.Sprintf("the network (%s: %d ports × %s)", describe(c, z), z.Ports, bytesEach(PerPort)),
		"choose a smaller topology", float64(z.Ports)*PerPort)
	n := float64(z.Terminals)
	pk, what := float64(z.Ports), "at most one per port"
	if allToAll[task] {
		pk, what = n*(n-1), fmt.Sprintf("%s: N(N−1)", task)
	}
	e.add(fmt.Sprintf("packets (%s, %s × %s)", what, count(pk), bytesEach(PerScheduled)), "choose a smaller topology", pk*PerScheduled)
	switch {
	case tr.On && tr.Scoped:
		// At most one packet crosses a port per cycle of the window.
		shown := pk
		if tr.Cycles > 0 {
			shown = min(pk, float64(z.Ports)*float64(tr.Cycles))
		}
		e.add(fmt.Sprintf("deferred trace records (%s packets × %s)", count(pk), bytesEach(PerDeferred)),
			"drop the --trace-* flags", pk*PerDeferred)
		e.add(fmt.Sprintf("trace records of the packets traced (%s × %s)", count(shown), bytesEach(PerTraced)),
			"shorten --trace-window", shown*PerTraced)
	case tr.On:
		e.add(fmt.Sprintf("trace records (%s packets × %s)", count(pk), bytesEach(PerTraced)),
			"drop the --trace-* flags, or trace only events (--trace-events) in a --trace-window", pk*PerTraced)
	}
	return e, nil
}

// ForSweep is the estimate of a sweep running jobs points at once (jobs
// ≤ 0: GOMAXPROCS): the largest point estimates, that many of them.
func ForSweep(cfgs []network.Config, jobs int) (*Estimate, error) {
	if len(cfgs) == 0 {
		return &Estimate{Command: "sweep"}, nil
	}
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	jobs = max(1, min(jobs, len(cfgs)))
	var top []*Estimate // the jobs largest, smallest first
	for i := range cfgs {
		p, err := ForRun(&cfgs[i])
		if err != nil {
			return nil, err
		}
		if len(top) < jobs || p.Total() > top[0].Total() {
			if len(top) == jobs {
				top = top[1:]
			}
			j := 0
			for j < len(top) && top[j].Total() < p.Total() {
				j++
			}
			top = append(top[:j], append([]*Estimate{p}, top[j:]...)...)
		}
	}
	e := &Estimate{Command: "sweep", Limit: cfgs[0].Run.MaxMemory}
	e.add("the program", "", Base)
	for _, p := range top {
		for _, t := range p.Terms {
			if t.What != "the program" {
				if jobs > 1 {
					t.What += fmt.Sprintf(", in one of %d points run at once", jobs)
					t.Shrink += " (or lower --jobs)"
				}
				e.Terms = append(e.Terms, t)
			}
		}
	}
	return e, nil
}
