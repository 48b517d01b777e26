package collective

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/flitsim/flitsim/network/stats"
)

// result summarises the run against Eq. 4.1.
func (r *dynRun) result() *DynResult {
	e, p := r.e, r.p
	res := &DynResult{Task: "dynamic", Nodes: r.g.N, Rho: p.Rho, Lambda: r.lambda, Tp: p.Tp,
		X: e.X, V: e.V, Periods: p.Periods, Warmup: p.Warmup, Time: r.now,
		Served: r.served, MaxPeriod: r.maxPeriod, MaxHardware: r.maxHw,
		Transmissions: r.hops, Missing: r.missing, Duplicates: r.dup, Stray: r.stray,
		Threshold: e.Threshold(), TheoremM: e.Mbar(p.Rho)}
	res.Algorithm = p.Algorithm
	if f, ok := r.fam.(*cubeDynIII); ok {
		x := PrintedThresholdIII(f.c.d, p.Tp)
		res.ThresholdPrinted = &x
	}
	res.Intervals = "hardware"
	if p.Fixed {
		res.Intervals = "fixed"
	}
	res.Delivered = r.missing == 0 && r.dup == 0 && r.stray == 0
	if r.served > 0 {
		res.MeanDelay = r.sum / float64(r.served)
	}
	res.DelayCI95 = r.batchCI()
	res.MeanM = r.sumM / float64(p.Periods-p.Warmup)
	if p.Rho < res.Threshold {
		res.TheoremLow, res.TheoremHigh = e.Range(p.Rho)
		res.TheoremBound = e.Upper(p.Rho)
		res.WithinBound = res.MeanDelay <= res.TheoremBound
		setEq6(res, e, r.fam)
	} else {
		res.TheoremLow, res.TheoremHigh, res.TheoremBound = math.Inf(1), math.Inf(1), math.Inf(1)
		res.TheoremM = math.Inf(1) // (no steady state)
		res.WithinBound = true     // (no finite bound to exceed)
	}
	r.arrive(r.now)
	for _, q := range r.queue {
		res.BacklogEnd += int64(len(q))
		for _, a := range q {
			if a >= r.measureFrom {
				res.Unserved++
			}
		}
	}
	for i := range r.q {
		res.Backlog = append(res.Backlog, r.q[i].mean())
	}
	if den := r.gN*r.gTT - r.gT*r.gT; den > 0 {
		res.Growth = (r.gN*r.gTQ - r.gT*r.gQ) / den
	}
	if r.satN > 0 {
		res.SatPeriods = r.satN
		res.SatPeriod, res.SatHardware = r.satSum/float64(r.satN), r.satHw/float64(r.satN)
		res.SatThreshold = float64(r.g.N) * e.X / res.SatPeriod
	}
	res.Verdict, res.StableText = r.verdict(res.BacklogEnd)
	res.Stable = res.Verdict == "stable"
	prefix := "2d·t_p"
	if pt, ok := r.fam.(interface{ prefixText() string }); ok {
		prefix = pt.prefixText()
	}
	res.Reading = r.fam.Describe() + fmt.Sprintf("; requests Poisson at λ = ρ/(NX) per node per packet time; reservation = prefix %s (its time counted, not run on the router) + packing; %s", prefix, intervalText(p.Fixed))
	return res
}

// partial is the result of a run interrupted after r.done periods: the
// delays, deliveries and backlog so far, Periods the periods run, and no
// stability verdict (the quarters it compares were not all run).
func (r *dynRun) partial() *DynResult {
	res := r.result()
	res.Status, res.PeriodsRun = StatusInterrupted, r.done
	res.MeanM = 0
	if n := r.done - r.p.Warmup; n > 0 {
		res.MeanM = r.sumM / float64(n)
	}
	res.Verdict, res.Stable = "undecided", false
	res.StableText = fmt.Sprintf("interrupted after %d of %d periods: no verdict", r.done, r.p.Periods)
	return res
}

func intervalText(fixed bool) string {
	if fixed {
		return "periods of the scheme's fixed length V + XM (§4.2), the router's PMNB checked to fit"
	}
	return "a period ends when the router's PMNB does"
}

// verdict judges the queues. From a saturated start (task.backlog > 0)
// every period serves all N nodes while the queues last, so the backlog
// changes by the arrivals (Poisson, variance = mean) less N per period:
// z = (backlog at the end − at the start)/√(expected arrivals) above 3 is
// growth (unstable), below −3 draining (stable), in between undecided.
// From empty queues the run is unstable when the backlog grew between the
// second and the last quarter by more than one request per node and by
// more than three standard deviations of its fluctuation inside those
// quarters (a growing backlog's quarter means differ by about seven).
func (r *dynRun) verdict(end int64) (string, string) {
	n := float64(r.g.N)
	if b := r.p.Backlog; b > 0 {
		start := n * float64(b)
		arr := n * r.lambda * r.now
		z := (float64(end) - start) / math.Sqrt(math.Max(arr, 1))
		text := fmt.Sprintf("saturated start: backlog %.0f → %d requests over %d periods, z = %+.1f (arrivals' sd %.1f)", start, end, r.p.Periods, z, math.Sqrt(arr))
		switch {
		case z > 3:
			return "unstable", text
		case z < -3:
			return "stable", text
		case float64(end) < start && r.unsat2 > 0:
			return "stable", text + fmt.Sprintf("; drained: %d periods of the second half had idle nodes", r.unsat2)
		}
		return "undecided", text + "; |z| ≤ 3: run more periods"
	}
	q2, q4 := r.q[1], r.q[3]
	grow := q4.mean() - q2.mean()
	sd := math.Sqrt((q2.variance() + q4.variance()) / 2)
	if grow > n && grow > 3*sd {
		return "unstable", fmt.Sprintf("backlog grew from %.1f to %.1f requests (second to last quarter; fluctuation sd %.1f)", q2.mean(), q4.mean(), sd)
	}
	return "stable", fmt.Sprintf("backlog %.1f → %.1f requests (second to last quarter; fluctuation sd %.1f; growth needs > N = %d and > 3 sd)", q2.mean(), q4.mean(), sd, r.g.N)
}

// batchCI is the 95 % half-width of the mean delay from batch means, by
// the rule every batch-means interval follows (stats.MeanCI95): NaN with
// fewer than stats.MinBatches non-empty batches.
func (r *dynRun) batchCI() float64 {
	var ms []float64
	for i := range r.bSum {
		if r.bCnt[i] > 0 {
			ms = append(ms, r.bSum[i]/float64(r.bCnt[i]))
		}
	}
	return stats.MeanCI95(ms)
}

// MarshalJSON writes the theorem's figures as null where they are
// infinite (at or above the threshold) and the interval as null when it
// could not be estimated.
func (r DynResult) MarshalJSON() ([]byte, error) {
	type plain DynResult
	fin := func(x float64) *float64 {
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return nil
		}
		return &x
	}
	return json.Marshal(struct {
		plain
		DelayCI95    *float64 `json:"delay_ci95"`
		TheoremLow   *float64 `json:"theorem_t_low"`
		TheoremHigh  *float64 `json:"theorem_t_high"`
		TheoremBound *float64 `json:"theorem_bound"`
		TheoremM     *float64 `json:"theorem_m"`
	}{plain(r), fin(r.DelayCI95), fin(r.TheoremLow), fin(r.TheoremHigh), fin(r.TheoremBound), fin(r.TheoremM)})
}
