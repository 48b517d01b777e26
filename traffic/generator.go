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

// A Presampler is a Generator whose packets for the next cycle can be drawn
// ahead of Generate by the caller, from a copy of the random source (the
// network draws them while its main thread waits for its helper): every
// draw depends on nothing but the source, the cycle and the terminal.
type Presampler interface {
	Generator
	// Terminals is the number of terminals (the range of Presample).
	Terminals() int
	// Presample draws from src what terminals [from, to) would create in
	// cycle now if Generate(now, e) came next, calling emit for each packet
	// as Generate would call e.Emit (emit may draw from src too, as the
	// emitter may). rng is a rand.Rand over src (for the draws that need
	// one; the coin tosses call src directly, at half the cost). It changes
	// nothing in the generator, and reports false, having drawn nothing, if
	// Generate(now) would do more than cycle now's draws in terminal order.
	Presample(now int64, from, to int, src *rand.PCG, rng *rand.Rand, emit func(src, dst, flits int)) bool
	// Presampled records that the caller has emitted cycle now's packets
	// from Presample's draws, in place of Generate(now).
	Presampled(now int64)
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
//     ⌊p·2^64⌋; NextAt is always now. Measured faster from about p = 0.03
//     (heap + logarithm ≈ 85–110 ns per packet vs ≈ 3 ns per trial).
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

func (g *bernoulli) Terminals() int { return g.n }

// Presample is Generate's per-cycle trials, from another source; only the
// trials sampler keeps no state but the last cycle done.
func (g *bernoulli) Presample(now int64, from, to int, src *rand.PCG, rng *rand.Rand, emit func(src, dst, flits int)) bool {
	if !g.started || !g.trials || g.done != now-1 {
		return false
	}
	for i := from; i < to; i++ {
		if g.all || src.Uint64() < g.thr {
			emit(i, g.pat.Dest(i, rng), g.length.Draw(rng))
		}
	}
	return true
}

func (g *bernoulli) Presampled(now int64) { g.done = now }

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
