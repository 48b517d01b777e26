package network

import (
	"math"
	"math/bits"

	"github.com/flitsim/flitsim/network/stats"
)

// A run's status (Result.Status), from worst to best. The command line maps
// each to its exit status.
const (
	StatusInterrupted = "interrupted" // stopped by the user (SIGINT, SIGTERM)
	StatusDeadlock    = "deadlock"    // a wait-for cycle stopped the run
	StatusStall       = "stall"       // nothing moved for run.stall_limit cycles
	StatusSaturated   = "saturated"   // accepted less than offered (see Judge)
	StatusIncomplete  = "incomplete"  // measured packets not all delivered
	StatusOK          = "ok"
)

// BacklogStop reports an open-loop run stopped because its backlog passed
// run.max_backlog in cycle Cycle (the last simulated): Packets generated and
// not delivered, more than Limit (almost all waiting in source queues).
type BacklogStop struct {
	Cycle   int64 `json:"cycle"`
	Packets int64 `json:"packets"`
	Limit   int64 `json:"limit"`
}

// Judge sets r.Incomplete, r.Saturated and r.Status from r's other fields.
// It is the one place the verdict is made:
//   - incomplete: a measured packet (message) was not delivered, whatever
//     stopped the run;
//   - saturated: the run was stopped by run.max_backlog, or the accepted
//     throughput fell short of the offered load by more than the half-width
//     of the shortfall's 95 % confidence interval (ShortfallCI95; open-loop
//     runs only, batch means over the measurement window);
//   - the status is the first that holds of interrupted, deadlock, stall,
//     saturated, incomplete, else ok;
//   - r.Warnings says what the status does not (see warnings).
func Judge(r *Result) {
	r.Incomplete = r.MeasuredDelivered+r.MeasuredDropped < r.MeasuredPackets
	r.Saturated = r.BacklogStop != nil ||
		r.ShortfallCI95 >= 0 && r.Offered-r.Throughput > r.ShortfallCI95
	switch {
	case r.Interrupted:
		r.Status = StatusInterrupted
	case r.Deadlock != nil:
		r.Status = StatusDeadlock
	case r.Stall != nil:
		r.Status = StatusStall
	case r.Saturated:
		r.Status = StatusSaturated
	case r.Incomplete:
		r.Status = StatusIncomplete
	default:
		r.Status = StatusOK
	}
	r.Warnings = warnings(r)
}

// shortfall counts, per batch of the measurement window, the flits offered
// minus the flits accepted (ejected), for the confidence interval of the
// throughput's shortfall. The batches are those of the latency's batch
// means.
type shortfall struct {
	start, end      int64
	diff            [batches]int64
	lastGen, lastEj int64
}

// add takes the window's running counts after cycle now.
func (s *shortfall) add(now, gen, ej int64) {
	dg, de := gen-s.lastGen, ej-s.lastEj
	if dg == de {
		return // (both 0 outside the window)
	}
	s.lastGen, s.lastEj = gen, ej
	if now >= s.start && now < s.end {
		s.diff[mulDiv(now-s.start, batches, s.end-s.start)] += dg - de
	}
}

// shortfallCI95 is the run's ShortfallCI95 and ShortfallCI95Note: the
// interval over the batches that ended by now, or −1 and why there is
// none.
func (n *Network) shortfallCI95() (float64, string) {
	switch {
	case n.trace:
		return -1, "a trace (or traffic.packets) has no offered rate"
	case n.external:
		return -1, "endpoints set the traffic"
	}
	return n.flow.ci95(n.k.Topo.Terminals(), n.k.Now())
}

// ci95 is the half-width of the 95 % confidence interval of the mean
// shortfall per terminal and cycle, over the batches that ended by cycle
// upTo (the run may have stopped early); −1 and why if fewer than
// stats.MinBatches did.
func (s *shortfall) ci95(terminals int, upTo int64) (float64, string) {
	w := s.end - s.start
	var xs []float64
	for i := int64(0); i < batches; i++ {
		// Batch i covers [start+⌈i·w/B⌉, start+⌈(i+1)·w/B⌉).
		lo, hi := s.start+ceilMulDiv(i, w, batches), s.start+ceilMulDiv(i+1, w, batches)
		if hi <= lo || hi > upTo {
			continue
		}
		xs = append(xs, float64(s.diff[i])/float64(terminals)/float64(hi-lo))
	}
	if ci := stats.MeanCI95(xs); !math.IsNaN(ci) {
		return ci, ""
	}
	return -1, stats.TooFewBatches(len(xs), batches)
}

// mulDiv is ⌊a·b/c⌋ and ceilMulDiv ⌈a·b/c⌉ for a, b, c ≥ 0 (c > 0) and a
// result that fits, without overflow of a·b (a window may be long).
func mulDiv(a, b, c int64) int64 {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	q, _ := bits.Div64(hi, lo, uint64(c))
	return int64(q)
}

func ceilMulDiv(a, b, c int64) int64 {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	q, r := bits.Div64(hi, lo, uint64(c))
	if r != 0 {
		q++
	}
	return int64(q)
}

// backlogLimit is the most packets an open-loop run may hold generated and
// not delivered before it is stopped as saturated: run.max_backlog per
// terminal; 0 for no limit (trace runs, endpoint-driven runs, or
// run.max_backlog 0) and batches (which hold all their packets at once).
func (n *Network) backlogLimit() int64 {
	if n.trace || n.external || n.Cfg.Run.MaxBacklog == 0 || IsBatch(&n.Cfg) {
		return 0
	}
	return n.Cfg.Run.MaxBacklog * int64(n.k.Topo.Terminals())
}

// checkBacklog stops the run if its backlog passed the limit in cycle now. A run below
// saturation holds a bounded number of packets; a saturated open-loop run's
// source queues grow without bound (by the shortfall every cycle), and so
// would its memory and its drain.
func (n *Network) checkBacklog(now int64) {
	if n.maxLive == 0 || n.backlogStop != nil {
		return
	}
	if live := int64(n.k.Pool.Live()); live > n.maxLive {
		n.backlogStop = &BacklogStop{Cycle: now, Packets: live, Limit: n.maxLive}
	}
}
