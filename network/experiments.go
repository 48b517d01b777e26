package network

import (
	"math"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/flitsim/flitsim/internal/kernel"
	xbar "github.com/flitsim/flitsim/switch"
)

// Experiments summarises a batch's repeated experiments (run.experiments):
// per phase, when the phases are separate (Valiant's two-phase routing with
// a barrier), and in total, Brebner's three measures (digest §3.3).
type Experiments struct {
	// Count is the number of experiments run (fewer than run.experiments
	// only if the user stopped the batch).
	Count  int         `json:"count"`
	Phase1 *PhaseStats `json:"phase1,omitempty"`
	Phase2 *PhaseStats `json:"phase2,omitempty"`
	Total  PhaseStats  `json:"total"`
	// Incomplete counts experiments stopped before every packet arrived
	// (deadlock, stall or drain limit); their measures are left out.
	Incomplete int `json:"incomplete"`
	// Violations adds up the invariant violations of every experiment.
	Violations Violations `json:"invariant_violations"`
	// Multi summarises multi-read or multi-write batches (multi.go).
	Multi *MultiExperiments `json:"multi,omitempty"`
	// PacketHops counts the links packets crossed in all the experiments
	// run, incomplete ones included: the work the batch simulated.
	PacketHops int64 `json:"packet_hops"`
}

// PhaseStats are the three measures of one phase (or of the whole
// experiment: the completion time is the sum of the phases', the maxima
// are over all its phases).
type PhaseStats struct {
	CompletionTime    Measure `json:"completion_time"`
	MaxNodePopulation Measure `json:"max_node_population"`
	MaxQueue          Measure `json:"max_queue"`
	// MaxQueuedPopulation is the max node population counting queued
	// packets only (digest §8.1 item 2: Brebner's shuffle-exchange phase-1
	// figures fit it, not his definition).
	MaxQueuedPopulation Measure `json:"max_queued_population"`
}

// Measure summarises one measure over the experiments: mean, sample
// variance (n−1 divisor; 0 for one experiment), maximum, and the histogram
// (value → number of experiments).
type Measure struct {
	Mean      float64         `json:"mean"`
	Variance  float64         `json:"variance"`
	Max       int64           `json:"max"`
	Histogram map[int64]int64 `json:"histogram"`
}

// outcome is one experiment's measures, by phase, or nil if incomplete.
type outcome struct {
	ran    bool // (false: not run, the user stopped the batch)
	phases []kernel.PhaseMeasures
	viol   Violations
	multi  *MultiStats // (multi-read, multi-write)
	hops   int64       // links crossed
}

// streamOf is experiment i's random stream (the kernel's own for the
// first, so that one experiment is the plain run).
func streamOf(i int) uint64 {
	z := uint64(0x9e3779b97f4a7c15) * uint64(i+1)
	if i == 0 {
		return z
	}
	z ^= z >> 30 // splitmix64's finaliser
	z *= 0xbf58476d1ce4e5b9
	z ^= z >> 27
	z *= 0x94d049bb133111eb
	return z ^ z>>31
}

// finishBatch adds the batch's experiments to r: the run just made is the
// first; the others run here, on all cores, each on its own random stream,
// so the summary does not depend on how many cores there are.
func (n *Network) finishBatch(r *Result) error {
	if !IsBatch(&n.Cfg) || n.interrupted {
		return nil
	}
	count := max(1, n.Cfg.Run.Experiments)
	outs := make([]outcome, count)
	outs[0] = n.outcome()
	var next atomic.Int64
	var stopped atomic.Bool
	next.Store(1)
	var wg sync.WaitGroup
	errs := make([]error, runtime.GOMAXPROCS(0))
	for w := range min(len(errs), count-1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { // (a panic here would end the program with Go's status 2)
				if p := recover(); p != nil {
					errs[w] = &InternalError{Value: p, Stack: debug.Stack()}
					stopped.Store(true)
				}
			}()
			var m *Network
			for i := int(next.Add(1) - 1); i < count && !stopped.Load(); i = int(next.Add(1) - 1) {
				if m == nil || !m.restart(i) {
					if m, errs[w] = buildWith(n.Cfg, n.adjust); errs[w] != nil {
						return
					}
					m.StopOn(n.stopFlag)
					m.restart(i)
				}
				for !m.Done() {
					m.Cycle()
				}
				if m.interrupted { // (the user stopped the run: this one is left out)
					stopped.Store(true)
					return
				}
				outs[i] = m.outcome()
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	r.Experiments = summarise(outs)
	r.Experiments.Multi = summariseMulti(outs)
	if stopped.Load() {
		r.Interrupted, r.InterruptedAt = true, &r.Cycles
		Judge(r)
	}
	return nil
}

// batchResult is the run's result, with a batch's experiments.
func (n *Network) batchResult() (*Result, error) {
	r := n.Result()
	r.Multi = n.multiStats()
	if err := n.finishBatch(r); err != nil {
		return nil, err
	}
	return r, nil
}

// restart readies an idle network for experiment i (kernel.RestartIdle).
func (n *Network) restart(i int) bool {
	if !n.k.RestartIdle(n.Cfg.Run.Seed, streamOf(i), 0, 1) {
		return false
	}
	// (utilDone: an experiment's outcome reads no channel loads, so the
	// copy of every channel's count at the window's end is skipped)
	n.stall, n.stopped, n.lastProgress, n.utilDone = nil, false, 0, true
	n.hops0 = n.k.FlitHops
	n.k.Violations = Violations{}
	if n.buildTraffic(xbar.SAF) != nil { // (batches are the packet router's)
		return false
	}
	n.flow, n.backlogStop = shortfall{start: n.start, end: n.end}, nil
	return true
}

func (n *Network) outcome() outcome {
	o := outcome{ran: true, viol: n.k.Violations, multi: n.multiStats(), hops: n.k.FlitHops - n.hops0}
	st := n.k.Stats().Counts()
	if n.k.Deadlock == nil && n.stall == nil && st.MeasuredDone+st.MeasuredDropped == st.Measured {
		o.phases = n.k.PacketMeasures()
	}
	return o
}

func summarise(outs []outcome) *Experiments {
	e := &Experiments{}
	var p1, p2, tot [4][]int64
	for _, o := range outs {
		if !o.ran {
			continue
		}
		e.Count++
		e.PacketHops += o.hops
		v := &e.Violations
		v.ChannelOverUse += o.viol.ChannelOverUse
		v.OutOfOrder += o.viol.OutOfOrder
		v.Misdelivered += o.viol.Misdelivered
		v.Overflow += o.viol.Overflow
		if o.phases == nil {
			e.Incomplete++
			continue
		}
		var t, pop, q, qp int64
		for i, ph := range o.phases {
			t += ph.Time
			pop = max(pop, int64(ph.MaxPopulation))
			q = max(q, int64(ph.MaxQueue))
			qp = max(qp, int64(ph.MaxQueuedPopulation))
			add := func(s *[4][]int64) {
				s[0] = append(s[0], ph.Time)
				s[1] = append(s[1], int64(ph.MaxPopulation))
				s[2] = append(s[2], int64(ph.MaxQueue))
				s[3] = append(s[3], int64(ph.MaxQueuedPopulation))
			}
			switch {
			case len(o.phases) > 1 && i == 0:
				add(&p1)
			case len(o.phases) > 1 && i == 1:
				add(&p2)
			}
		}
		tot[0], tot[1], tot[2], tot[3] = append(tot[0], t), append(tot[1], pop), append(tot[2], q), append(tot[3], qp)
	}
	stats := func(s [4][]int64) PhaseStats {
		return PhaseStats{measure(s[0]), measure(s[1]), measure(s[2]), measure(s[3])}
	}
	if len(p1[0]) > 0 {
		a, b := stats(p1), stats(p2)
		e.Phase1, e.Phase2 = &a, &b
	}
	e.Total = stats(tot)
	return e
}

func measure(xs []int64) Measure {
	m := Measure{Histogram: map[int64]int64{}}
	if len(xs) == 0 {
		return m
	}
	sum := 0.0
	m.Max = math.MinInt64
	for _, x := range xs {
		sum += float64(x)
		m.Max = max(m.Max, x)
		m.Histogram[x]++
	}
	m.Mean = sum / float64(len(xs))
	if len(xs) > 1 {
		ss := 0.0
		for _, x := range xs {
			d := float64(x) - m.Mean
			ss += d * d
		}
		m.Variance = ss / float64(len(xs)-1)
	}
	return m
}
