package collective

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/flitsim/flitsim/internal/kernel"
)

// dynBatches is the number of batches the measured periods are cut into
// for the delay's confidence interval.
const dynBatches = 20

// dynRun is the state of a dynamic-broadcasting run.
type dynRun struct {
	k      *kernel.Kernel
	g      *Net
	fam    dynPMNB
	sch    *dynSlots
	p      DynParams
	stop   *Options // the caller's Stop (nil: none)
	e      Eq41
	lambda float64
	rng    *rand.Rand
	queue  [][]float64 // per node: arrival times of its waiting requests, FIFO
	next   []float64   // per node: its next arrival
	now    float64     // the current period's start (packet times)

	measureFrom          float64 // arrivals from here on are measured
	sum                  float64
	served               int64
	bSum                 [dynBatches]float64
	bCnt                 [dynBatches]int64
	sumM                 float64
	q                    [4]qStats // backlog at period starts, per quarter
	gN, gT, gQ, gTT, gTQ float64   // least squares of backlog on time, second half
	maxPeriod, maxHw     float64
	satN                 int     // periods with all N nodes active
	satSum, satHw        float64 // their total length and the router's
	unsat2               int     // periods of the second half with M < N
	hops                 int64
	missing, dup, stray  int64
	done                 int // periods run to their end
}

type qStats struct{ n, sum, sq float64 }

func (s *qStats) add(x float64) { s.n, s.sum, s.sq = s.n+1, s.sum+x, s.sq+x*x }
func (s *qStats) mean() float64 { return s.sum / math.Max(s.n, 1) }
func (s *qStats) variance() float64 {
	if s.n < 2 {
		return 0
	}
	m := s.mean()
	return math.Max(0, s.sq/s.n-m*m)
}

func newDynRun(k *kernel.Kernel, g *Net, fam dynPMNB, sch *dynSlots, p DynParams, seed uint64) *dynRun {
	r := &dynRun{k: k, g: g, fam: fam, sch: sch, p: p, e: fam.Bound()}
	r.lambda = r.e.Lambda(p.Rho)
	r.rng = rand.New(rand.NewPCG(seed, 0x64796e62))
	r.queue, r.next = make([][]float64, g.N), make([]float64, g.N)
	for v := range r.next {
		r.next[v] = r.rng.ExpFloat64() / r.lambda
		for range p.Backlog {
			r.queue[v] = append(r.queue[v], math.NaN()) // (NaN: not measured)
		}
	}
	return r
}

// arrive queues every request that arrived before t.
func (r *dynRun) arrive(t float64) {
	for v := range r.next {
		for r.next[v] < t {
			r.queue[v] = append(r.queue[v], r.next[v])
			r.next[v] += r.rng.ExpFloat64() / r.lambda
		}
	}
}

func (r *dynRun) loop() error {
	active := make([]int, 0, r.g.N)
	for per := 0; per < r.p.Periods; per++ {
		if r.stop.stopped() {
			return &Interrupted{Task: "dynamic", Slot: r.k.Now() - 1}
		}
		if per == r.p.Warmup {
			r.measureFrom = r.now
		}
		r.arrive(r.now)
		active = active[:0]
		backlog := 0
		for v, q := range r.queue {
			if len(q) > 0 {
				active = append(active, v)
				backlog += len(q)
			}
		}
		r.sample(per, float64(backlog))
		hw, err := r.runPMNB(active)
		if err != nil {
			return fmt.Errorf("dynamic broadcasting, period %d (M = %d): %w", per, len(active), err)
		}
		dur := hw
		if r.p.Fixed {
			dur = r.e.V + r.e.X*float64(len(active))
			if hw > dur+1e-9 {
				return fmt.Errorf("dynamic broadcasting, period %d: the router's PMNB of M = %d took %.4f packet times, more than the scheme's V + XM = %.4f", per, len(active), hw, dur)
			}
		}
		r.maxPeriod, r.maxHw = math.Max(r.maxPeriod, dur), math.Max(r.maxHw, hw)
		if len(active) == r.g.N {
			r.satN, r.satSum, r.satHw = r.satN+1, r.satSum+dur, r.satHw+hw
		} else if per >= r.p.Periods/2 {
			r.unsat2++
		}
		end := r.now + dur
		r.serve(per, active, end)
		r.now = end
		r.done = per + 1
	}
	return nil
}

// runPMNB runs one period's PMNB on the router and returns its length in
// packet times, the prefix included.
func (r *dynRun) runPMNB(active []int) (float64, error) {
	k := r.k
	cur, length := r.fam.Period(k, active)
	r.sch.cur, r.sch.base = cur, k.Now()
	end := r.sch.base + length
	for k.Now() < end {
		if k.Idle() {
			k.SkipTo(end) // (the phase clock runs on; nothing left to send)
			break
		}
		before := k.FlitHops
		k.Step()
		r.hops += k.FlitHops - before
		if err := k.ScheduleError(); err != nil {
			return 0, err
		}
	}
	if !k.Idle() {
		return 0, fmt.Errorf("packets still queued after the PMNB's %d slots", length)
	}
	if v := k.Violations; v.Total() > 0 {
		return 0, fmt.Errorf("the router counted violations %+v", v)
	}
	m, d, s := r.fam.Settle(active)
	r.missing, r.dup, r.stray = r.missing+m, r.dup+d, r.stray+s
	return r.fam.Prefix() + float64(length)/float64(r.fam.Split()), nil
}

// serve ends the period at end: every active node's head request is served.
func (r *dynRun) serve(per int, active []int, end float64) {
	b := -1
	if per >= r.p.Warmup {
		b = (per - r.p.Warmup) * dynBatches / (r.p.Periods - r.p.Warmup)
		r.sumM += float64(len(active))
	}
	for _, v := range active {
		a := r.queue[v][0]
		r.queue[v] = r.queue[v][1:]
		if len(r.queue[v]) == 0 {
			r.queue[v] = r.queue[v][:0:0] // (let the backing array go)
		}
		if b < 0 || a < r.measureFrom || math.IsNaN(a) {
			continue
		}
		r.sum += end - a
		r.served++
		r.bSum[b] += end - a
		r.bCnt[b]++
	}
}

// sample records the backlog at the start of period per.
func (r *dynRun) sample(per int, backlog float64) {
	r.q[per*4/r.p.Periods].add(backlog)
	if per >= r.p.Periods/2 {
		r.gN, r.gT, r.gQ = r.gN+1, r.gT+r.now, r.gQ+backlog
		r.gTT, r.gTQ = r.gTT+r.now*r.now, r.gTQ+r.now*backlog
	}
}
