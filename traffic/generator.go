package traffic

import (
	"math"
	"math/rand/v2"
)

// Length is a packet-length distribution in flits: fixed when Min == Max,
// otherwise uniform over Min..Max inclusive. Callers keep 1 ≤ Min ≤ Max.
type Length struct{ Min, Max int }

// Draw returns a packet length. A fixed length draws nothing from rng.
func (l Length) Draw(rng *rand.Rand) int {
	if l.Max <= l.Min {
		return l.Min
	}
	return l.Min + rng.IntN(l.Max-l.Min+1)
}

// Mean is the mean packet length in flits.
func (l Length) Mean() float64 {
	if l.Max <= l.Min {
		return float64(l.Min)
	}
	return (float64(l.Min) + float64(l.Max)) / 2
}

// Emitter receives generated packets.
type Emitter interface {
	Emit(src, dst, flits int)
}

// MulticastEmitter also takes packets with several destinations (from
// traces); an Emitter without it gets such packets as unicasts to the first
// destination.
type MulticastEmitter interface {
	Emitter
	EmitMulticast(src int, dsts []int, flits int)
}

// Trials describes one cycle of a Bernoulli process drawn trial by trial:
// each terminal i of N in turn creates a packet when a 64-bit draw from the
// source is below Threshold (always, and without a draw, with All), then
// draws the packet's destination from Pattern and its length from Length.
type Trials struct {
	N         int
	All       bool
	Threshold uint64
	Pattern   Pattern
	Length    Length
}

// A TrialGenerator is a Generator whose cycles are Trials, so that whoever
// holds its random source may draw a cycle's packets itself (the network
// kernel draws them ahead of time).
type TrialGenerator interface {
	Generator
	// Trials describes cycle now, if Generate(now) would draw exactly that
	// cycle's trials next; ok is false otherwise.
	Trials(now int64) (t Trials, ok bool)
	// Drawn records that cycle now's packets were created by the caller,
	// drawn as Trials(now) describes from the generator's source, in
	// place of Generate(now).
	Drawn(now int64)
}

// Generator creates packets over time.
type Generator interface {
	// Generate emits the packets created at cycle now, and any still due
	// from earlier cycles that were skipped (those are emitted late, in
	// order of their cycle and then as within a cycle). Calls must pass
	// non-decreasing cycles.
	Generate(now int64, e Emitter)
	// NextAt is the earliest cycle ≥ now at which Generate may emit, or
	// math.MaxInt64 if it never will again. Cycles before it can be skipped.
	NextAt(now int64) int64
}

// NewBernoulli returns the Bernoulli injection process: in every cycle each
// of the n terminals independently creates a packet with probability
// load/length.Mean() (load is the offered load in flits per terminal per
// cycle, 0 ≤ load ≤ 1; the probability is clamped to [0, 1]). Packets of one
// cycle are emitted in increasing terminal order; each draws its destination
// from pat and then its length from length.
//
// The process starts at the first cycle passed to NextAt or Generate. Two
// exact samplers are used, chosen by p = load/length.Mean() (both are
// deterministic per rng seed; which one runs depends only on p):
//
//   - p < 0.03: each terminal samples the gap to its next packet from the
//     geometric distribution (exactly the law of the Bernoulli trials'
//     inter-arrival times) and the terminals wait in a heap ordered by
//     (cycle, terminal). A cycle costs O(packets · log n), not n draws, and
//     NextAt lets the caller skip idle cycles.
//   - p ≥ 0.03: one 64-bit draw per terminal per cycle compared with
//     ⌊p·2^64⌋ (Trials); NextAt is always now. (The threshold is where the
//     two run equally fast: see BenchmarkBernoulli*.)
//
// Generate does not allocate.
func NewBernoulli(n int, load float64, length Length, pat Pattern, rng *rand.Rand) Generator {
	return newBernoulli(n, load, length, pat, rng, 0)
}

// newBernoulli forces the sampler when mode is 'g' (geometric) or 't'
// (trials); 0 chooses by p.
func newBernoulli(n int, load float64, length Length, pat Pattern, rng *rand.Rand, mode byte) *bernoulli {
	p := load / length.Mean()
	if !(p > 0) || n <= 0 { // also NaN
		p = 0
	}
	if p > 1 {
		p = 1
	}
	g := &bernoulli{n: n, p: p, lq: math.Log1p(-p), length: length, pat: pat, rng: rng}
	if p >= 1 || mode == 't' || mode == 0 && p >= geomBelow {
		g.trials = true
		g.all = p >= 1
		if !g.all {
			g.thr = uint64(p * (1 << 64))
		}
	} else if p > 0 {
		g.next = make([]int64, n)
		g.heap = make([]int32, n)
	}
	return g
}

// geomBelow is the injection probability below which geometric gaps beat
// per-cycle trials (see BenchmarkBernoulli*).
const geomBelow = 0.03

type bernoulli struct {
	n       int
	p       float64
	lq      float64 // ln(1 − p)
	length  Length
	pat     Pattern
	rng     *rand.Rand
	started bool

	// per-cycle trials
	trials bool
	all    bool   // p = 1
	thr    uint64 // ⌊p·2^64⌋
	done   int64  // last cycle whose trials ran

	// geometric gaps
	next []int64 // next packet cycle of each terminal
	heap []int32 // terminals, min-heap on (next, terminal)
}

// never is a gap beyond any run; sums with it cannot overflow.
const never = int64(1) << 62

// gap is the number of failed trials before the next success.
func (g *bernoulli) gap() int64 {
	if g.p >= 1 {
		return 0
	}
	u := 1 - g.rng.Float64() // (0, 1]
	k := math.Floor(math.Log(u) / g.lq)
	if k >= float64(never) {
		return never
	}
	return int64(k)
}

func (g *bernoulli) start(now int64) {
	g.started = true
	g.done = now - 1
	if g.p == 0 || g.trials {
		return
	}
	for i := range g.next {
		g.next[i] = sat(now, g.gap())
		g.heap[i] = int32(i)
	}
	for i := len(g.heap)/2 - 1; i >= 0; i-- {
		g.down(i)
	}
}

func sat(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

func (g *bernoulli) less(a, b int32) bool {
	ta, tb := g.next[a], g.next[b]
	return ta < tb || ta == tb && a < b
}

func (g *bernoulli) down(i int) {
	h := g.heap
	n := len(h)
	x := h[i]
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && g.less(h[c+1], h[c]) {
			c++
		}
		if !g.less(h[c], x) {
			break
		}
		h[i] = h[c]
		i = c
	}
	h[i] = x
}

func (g *bernoulli) NextAt(now int64) int64 {
	if !g.started {
		g.start(now)
	}
	if g.p == 0 {
		return math.MaxInt64
	}
	if g.trials {
		return max(g.done+1, now)
	}
	t := g.next[g.heap[0]]
	if t == math.MaxInt64 {
		return t
	}
	return max(t, now)
}

// Trials: only the trials sampler keeps no state but the last cycle done.
func (g *bernoulli) Trials(now int64) (Trials, bool) {
	if !g.started || !g.trials || g.done != now-1 {
		return Trials{}, false
	}
	return Trials{N: g.n, All: g.all, Threshold: g.thr, Pattern: g.pat, Length: g.length}, true
}

func (g *bernoulli) Drawn(now int64) { g.done = now }

func (g *bernoulli) Generate(now int64, e Emitter) {
	if !g.started {
		g.start(now)
	}
	if g.p == 0 {
		return
	}
	if g.trials {
		for ; g.done < now; g.done++ {
			for i := 0; i < g.n; i++ {
				if g.all || g.rng.Uint64() < g.thr {
					e.Emit(i, g.pat.Dest(i, g.rng), g.length.Draw(g.rng))
				}
			}
		}
		return
	}
	for {
		src := g.heap[0]
		t := g.next[src]
		if t > now {
			return
		}
		s := int(src)
		dst := g.pat.Dest(s, g.rng)
		e.Emit(s, dst, g.length.Draw(g.rng))
		g.next[src] = sat(sat(t, 1), g.gap())
		g.down(0)
	}
}
