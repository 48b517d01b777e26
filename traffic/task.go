package traffic

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/flitsim/flitsim/configs/inputerr"
)

// Tasks that alternate computation and multicast (Chiang 1995 §5.1, §5.6,
// Figs 5.1 and 5.9–5.11): the workloads blocking-multicast and
// non-blocking-multicast.
//
// The terminals are split into tasks by traffic.clusters (Allocate). Each
// task computes, then one of its members, drawn at random for each
// message, multicasts a message of traffic.flits flits to the rest of the
// task, then the task computes again. A computation phase before a message
// of L flits lasts C = L·(1 − R)/R cycles (rounded, at least 1), where R is
// traffic.ratio, Chiang's communication ratio R = T_comm/(T_comm + T_comp)
// with T_comm the time the message takes without contention, L cycles at
// one flit per cycle: so the contention-free system utilisation is 1 − R
// less the pipeline's few cycles per message ("the optimal utilization is
// 70% when R is 0.3", "about 69% in cube allocation").
//
//   - blocking: the task computes again only when the message's tail has
//     reached its last destination (the network calls Delivered), so a task
//     has at most one multicast in the network and no intratask contention.
//   - non-blocking: the task computes again as soon as the message is
//     handed to its source's router (queued there), so messages of one task
//     may overlap (intratask contention): the offered rate per task is
//     R/(1 − R) messages' flits per cycle, one flit per cycle at R = 0.5.
//
// Every task starts part-way through a computation phase (uniformly), so
// that the tasks do not start in step.

// The task workloads' names.
const (
	BlockingMulticast    = "blocking-multicast"
	NonBlockingMulticast = "non-blocking-multicast"
	RatioKey             = "traffic.ratio"
)

func init() {
	params := slices.Concat(clusterParams, []PatternParam{{Key: RatioKey, Desc: "communication ratio R, 0 < R < 1"}})
	for _, blocking := range []bool{true, false} {
		name, alias, what := BlockingMulticast, "blocking", "waits for the multicast's last tail before computing again"
		if !blocking {
			name, alias, what = NonBlockingMulticast, "non-blocking", "computes again as soon as the multicast is queued"
		}
		RegisterPattern(PatternSpec{Name: name, Aliases: []string{alias}, Multicast: true, Params: params,
			Desc: "tasks of traffic.cluster_size nodes placed by traffic.clusters alternate computation and one multicast to " +
				"the rest of the task, communication ratio traffic.ratio; the task " + what + " (Chiang 1995 §5.1, Figs 5.1, 5.9–5.11)",
			NewGenerator: func(a PatternArgs) (Generator, error) {
				tasks, err := a.tasks()
				if err != nil {
					return nil, err
				}
				return NewTasks(a.Shape.N, tasks, a.Ratio, a.Length, blocking, a.Rng)
			}})
	}
}

// A Completer is a Generator that waits for its packets: the network calls
// Delivered when the tail of a packet from src has reached its last
// destination, at cycle now (during the cycle's step, after Generate).
type Completer interface {
	Delivered(src int, now int64)
}

// A TaskWorkload measures Chiang's system utilisation ρ: the share of the
// measurement window [start, end) that the tasks spend computing.
type TaskWorkload interface {
	Generator
	Completer
	SetWindow(start, end int64)
	// Utilization is ρ; ok is false for non-blocking tasks (they never
	// wait, so ρ is 1 by definition and says nothing).
	Utilization() (rho float64, ok bool)
}

// NewTasks returns the task workload on n terminals split into tasks
// (Allocate's), communication ratio ratio, blocking or not.
func NewTasks(n int, tasks [][]int, ratio float64, length Length, blocking bool, rng *rand.Rand) (TaskWorkload, error) {
	if !(ratio > 0 && ratio < 1) {
		return nil, &inputerr.Error{Key: RatioKey, Value: strconv.FormatFloat(ratio, 'g', -1, 64),
			Allowed: "a communication ratio R = T_comm/(T_comm + T_comp) above 0 and below 1"}
	}
	g := &taskGen{tasks: tasks, r: ratio, length: length, blocking: blocking, rng: rng,
		at: make([]int64, len(tasks)), flits: make([]int32, len(tasks)), end: math.MaxInt64}
	g.dests, g.of = taskDests(n, tasks)
	return g, nil
}

type taskGen struct {
	tasks    [][]int
	dests    [][]int // per terminal: the rest of its task
	of       []int32 // per terminal: its task
	r        float64
	length   Length
	blocking bool
	rng      *rand.Rand

	started    bool
	at         []int64 // per task: the cycle of its next multicast (waiting: MaxInt64)
	flits      []int32 // per task: the next message's length
	next       int64   // min(at)
	start, end int64   // measurement window
	comp       int64   // task-cycles of computation in the window
}

func (g *taskGen) SetWindow(start, end int64) { g.start, g.end = start, end }

func (g *taskGen) Utilization() (float64, bool) {
	if !g.blocking || g.end <= g.start || g.end == math.MaxInt64 {
		return 0, false
	}
	return float64(g.comp) / float64(int64(len(g.tasks))*(g.end-g.start)), true
}

// compute is the computation phase before a message of l flits.
func (g *taskGen) compute(l int) int64 {
	return max(1, int64(math.Round(float64(l)*(1-g.r)/g.r)))
}

// phase starts task t's computation at cycle from.
func (g *taskGen) phase(t int, from int64) {
	l := g.length.Draw(g.rng)
	g.flits[t] = int32(l)
	g.at[t] = from + g.compute(l)
	g.account(from, g.at[t])
	g.next = min(g.next, g.at[t])
}

// account adds the computation in cycles [from, to) that falls in the
// window.
func (g *taskGen) account(from, to int64) {
	if lo, hi := max(from, g.start), min(to, g.end); hi > lo {
		g.comp += hi - lo
	}
}

// begin puts every task part-way into its first computation phase.
func (g *taskGen) begin(now int64) {
	g.started, g.next = true, math.MaxInt64
	for t := range g.tasks {
		l := g.length.Draw(g.rng)
		g.flits[t] = int32(l)
		g.at[t] = now + 1 + g.rng.Int64N(g.compute(l))
		g.account(now, g.at[t])
		g.next = min(g.next, g.at[t])
	}
}

func (g *taskGen) NextAt(now int64) int64 {
	if !g.started {
		return now
	}
	if g.next == math.MaxInt64 {
		return g.next
	}
	return max(g.next, now)
}

func (g *taskGen) Generate(now int64, e Emitter) {
	if !g.started {
		g.begin(now)
	}
	if g.next > now {
		return
	}
	g.next = math.MaxInt64
	for t, at := range g.at {
		if at > now {
			g.next = min(g.next, at)
			continue
		}
		ms := g.tasks[t]
		src := ms[g.rng.IntN(len(ms))]
		if me, ok := e.(MulticastEmitter); ok {
			me.EmitMulticast(src, g.dests[src], int(g.flits[t]))
		} else {
			e.Emit(src, g.dests[src][0], int(g.flits[t]))
		}
		if g.blocking {
			g.at[t] = math.MaxInt64
		} else {
			g.phase(t, now)
		}
	}
}

// Delivered starts the next computation of a blocking task whose multicast
// has arrived.
func (g *taskGen) Delivered(src int, now int64) {
	t := g.of[src]
	if g.blocking && g.at[t] == math.MaxInt64 {
		g.phase(int(t), now)
	}
}
