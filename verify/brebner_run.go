package verify

import (
	"fmt"
	"sync"

	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/verify/compare"
)

// bSetup is one simulated configuration behind a group of table entries:
// Brebner's standard two-phase scheme (separate phases, identity input,
// FIFO queues, routes fixed at the source) on one graph, h packets a node.
type bSetup struct {
	graph, variant string
	d, n, h        int
	experiments    int // in blocks of compare.BlockSize (the last may be shorter)
	// The §3.7 variations (empty: the standard scheme): the routing,
	// queue.discipline, queue.shared, valiant and traffic.pattern.
	routing, discipline string
	shared              bool
	valiant, pattern    string
}

func (s bSetup) key() string { return fmt.Sprintf("%+v", s) }

// separate is whether the setup's phases are separate (measured each).
func (s bSetup) separate() bool { return s.valiant == "" || s.valiant == "separate" }

// config is the setup as a flitsim configuration (docs/packet-router.md: the packet
// router, Valiant's routing, batch experiments).
func (s bSetup) config(seed uint64, experiments int) (network.Config, error) {
	c := network.Default()
	c.Switching, c.Valiant = "packet", "separate"
	c.Traffic.Flits = network.FlitRange{Min: 1, Max: 1}
	c.Traffic.Mode, c.Traffic.Pattern, c.Traffic.H = "batch", "identity", s.h
	c.Run.Experiments, c.Run.Seed = experiments, seed
	switch s.graph {
	case "cube":
		c.Topology, c.Routing = network.TopologyConfig{Kind: "hypercube", D: s.n}, "random-order"
	case "d-shuffle":
		c.Topology, c.Routing = network.TopologyConfig{Kind: "dshuffle", D: s.d, N: s.n}, "standard"
	case "CCC":
		// Ties at s/2 go forward (digest §4.5: reproduces phase 1).
		c.Topology, c.Routing = network.TopologyConfig{Kind: "ccc", N: s.n}, "standard"
	case "shuffle-exchange":
		c.Topology, c.Routing = network.TopologyConfig{Kind: "shuffle-exchange", N: s.n}, "standard"
	case "grid", "wrapped grid":
		kind := map[string]string{"grid": "mesh", "wrapped grid": "torus"}[s.graph]
		c.Topology = network.TopologyConfig{Kind: kind, K: s.n, N: 2, Tie: "random"}
		c.Routing = map[string]string{"strict": "dor", "random": "random-order"}[s.variant]
		if c.Routing == "" {
			return c, fmt.Errorf("brebner: grid variant %q", s.variant)
		}
	default:
		return c, fmt.Errorf("brebner: no configuration for graph %q", s.graph)
	}
	if s.routing != "" {
		c.Routing = s.routing
	}
	if s.valiant != "" {
		c.Valiant = s.valiant
	}
	if s.pattern != "" {
		c.Traffic.Pattern = s.pattern
	}
	c.Queue.Discipline, c.Queue.Shared = s.discipline, s.shared
	return c, nil
}

// bResult is a setup's experiments: per block, the summary of each phase.
type bResult struct {
	blocks []*network.Experiments
	err    error
}

// bCache shares runs between the rows of one Run (nil outside one: a
// claim measured on its own runs its setup itself, so tests that replace
// the simulator never see another's results).
var (
	bMu    sync.Mutex
	bCache map[string]*bOnce
	bRuns  int // Runs in progress
)

// bBegin and bEnd bracket a Run.
func bBegin() {
	bMu.Lock()
	defer bMu.Unlock()
	if bRuns++; bRuns == 1 {
		bCache = map[string]*bOnce{}
	}
}

func bEnd() {
	bMu.Lock()
	defer bMu.Unlock()
	if bRuns--; bRuns == 0 {
		bCache = nil
	}
}

type bOnce struct {
	once sync.Once
	res  bResult
}

// brebnerRun runs a setup once (entries of many tables share it; claims
// measured at once wait for the same run).
func brebnerRun(s bSetup) bResult {
	bMu.Lock()
	if bCache == nil {
		bMu.Unlock()
		return runSetup(s)
	}
	o := bCache[s.key()]
	if o == nil {
		o = &bOnce{}
		bCache[s.key()] = o
	}
	bMu.Unlock()
	o.once.Do(func() { o.res = runSetup(s) })
	return o.res
}

// runSetup runs the blocks, each with its own seed (so fresh random
// streams throughout), and checks each delivered everything.
func runSetup(s bSetup) bResult {
	var res bResult
	for b, left := 0, s.experiments; left > 0; b, left = b+1, left-compare.BlockSize {
		c, err := s.config(uint64(1983+b), min(left, compare.BlockSize))
		if err != nil {
			return bResult{err: err}
		}
		r, err := simulate(c)
		if err != nil {
			return bResult{err: err}
		}
		e := r.Experiments
		switch {
		case e == nil || s.separate() && (e.Phase1 == nil || e.Phase2 == nil):
			return bResult{err: fmt.Errorf("%s: no per-phase experiments in the result: %w", s.key(), ErrShortfall)}
		case e.Incomplete > 0:
			return bResult{err: fmt.Errorf("%s: %d experiments incomplete: %w", s.key(), e.Incomplete, ErrShortfall)}
		case e.Violations.Total() > 0:
			return bResult{err: fmt.Errorf("%s: %d invariant violations: %w", s.key(), e.Violations.Total(), ErrShortfall)}
		}
		res.blocks = append(res.blocks, e)
	}
	return res
}

// measureOf picks an entry's measure from a block.
func measureOf(e *network.Experiments, phase, measure string) *network.Measure {
	ps := map[string]*network.PhaseStats{"1": e.Phase1, "2": e.Phase2, "total": &e.Total}[phase]
	if ps == nil {
		return nil
	}
	switch measure {
	case "time":
		return &ps.CompletionTime
	case "maxpop":
		return &ps.MaxNodePopulation
	case "maxqueue":
		return &ps.MaxQueue
	case "maxqpop": // (queued packets only: shown beside the shuffle-exchange's phase-1 population)
		return &ps.MaxQueuedPopulation
	}
	return nil
}

// pooled is an entry's measure over all blocks: the histogram, the
// sample, and each block's maximum.
func pooled(res bResult, phase, measure string) (compare.Histogram, compare.Sample, []int64, error) {
	h := compare.Histogram{}
	var maxima []int64
	for _, b := range res.blocks {
		m := measureOf(b, phase, measure)
		if m == nil {
			return nil, compare.Sample{}, nil, fmt.Errorf("no %s measure for phase %s", measure, phase)
		}
		for v, c := range m.Histogram {
			h[v] += c
		}
		maxima = append(maxima, m.Max)
	}
	var n, sum, ss float64
	for v, c := range h {
		n += float64(c)
		sum += float64(v) * float64(c)
	}
	if n < 2 {
		return nil, compare.Sample{}, nil, fmt.Errorf("%g experiments", n)
	}
	mean := sum / n
	for v, c := range h {
		d := float64(v) - mean
		ss += d * d * float64(c)
	}
	return h, compare.Sample{N: int(n), Mean: mean, Variance: ss / (n - 1)}, maxima, nil
}
