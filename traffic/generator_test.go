package traffic

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

type recorder struct {
	cycle int64
	pkts  []Packet
}

func (r *recorder) Emit(src, dst, flits int) {
	r.pkts = append(r.pkts, Packet{Cycle: r.cycle, Src: src, Dst: dst, Flits: flits})
}

type counter struct{ n, flits int }

func (c *counter) Emit(src, dst, flits int) { c.n++; c.flits += flits }

func run(g Generator, from, to int64, r *recorder) {
	for now := from; now < to; now++ {
		r.cycle = now
		g.Generate(now, r)
	}
}

func TestLength(t *testing.T) {
	rng := newRng(1)
	if l := (Length{4, 4}); l.Draw(rng) != 4 || l.Mean() != 4 {
		t.Error("fixed length")
	}
	l := Length{2, 5}
	if l.Mean() != 3.5 {
		t.Errorf("Mean = %v", l.Mean())
	}
	var seen [6]int
	for i := 0; i < 40000; i++ {
		seen[l.Draw(rng)]++
	}
	for v := 2; v <= 5; v++ {
		if seen[v] < 9500 || seen[v] > 10500 {
			t.Errorf("length %d drawn %d times of 40000", v, seen[v])
		}
	}
	if seen[0]+seen[1] != 0 {
		t.Error("length below Min")
	}
}

// TestBernoulliRate checks the packet rate per terminal per cycle against
// p = load/mean length. With n·cycles = 64·50000 = 3.2e6 trials and p = 0.05
// the standard error is ≈ 1.2e-4; the tolerance is 5% of p (≈ 20 sd).
// Flit rate is checked against load the same way.
func TestBernoulliRate(t *testing.T) {
	const n, cycles = 64, 50000
	for _, c := range []struct {
		load float64
		l    Length
	}{{0.2, Length{4, 4}}, {0.5, Length{1, 1}}, {0.9, Length{2, 10}}, {1, Length{1, 1}}, {0.01, Length{1, 1}}} {
		for _, mode := range []byte{'g', 't'} {
			pat := mustPattern(t, "uniform", Shape{N: n})
			g := newBernoulli(n, c.load, c.l, pat, newRng(42), mode)
			var cnt counter
			for now := int64(0); now < cycles; now++ {
				g.Generate(now, &cnt)
			}
			p := c.load / c.l.Mean()
			rate := float64(cnt.n) / (n * cycles)
			if math.Abs(rate-p) > 0.05*p {
				t.Errorf("%c load %v %v: %.5f packets/node/cycle, want %.5f ± 5%%", mode, c.load, c.l, rate, p)
			}
			frate := float64(cnt.flits) / (n * cycles)
			if math.Abs(frate-c.load) > 0.05*c.load {
				t.Errorf("%c load %v %v: %.5f flits/node/cycle, want %.5f ± 5%%", mode, c.load, c.l, frate, c.load)
			}
		}
	}
}

// At load 1 with 1-flit packets every terminal sends every cycle, in order.
func TestBernoulliFull(t *testing.T) {
	const n = 8
	for _, g := range []Generator{newBernoulli(n, 1, Length{1, 1}, mustPattern(t, "bit-complement", Shape{N: n}), newRng(1), 'g'), NewBernoulli(n, 1, Length{1, 1}, mustPattern(t, "bit-complement", Shape{N: n}), newRng(1))} {
		var r recorder
		run(g, 10, 13, &r)
		if len(r.pkts) != 3*n {
			t.Fatalf("%d packets, want %d", len(r.pkts), 3*n)
		}
		for i, p := range r.pkts {
			if p.Cycle != int64(10+i/n) || p.Src != i%n || p.Dst != n-1-i%n || p.Flits != 1 {
				t.Fatalf("packet %d = %+v", i, p)
			}
		}
	}
}

func TestBernoulliOrderAndDeterminism(t *testing.T) {
	const n = 32
	for _, load := range []float64{0.6, 0.05} { // trials, geometric
		mk := func(seed uint64) []Packet {
			rng := newRng(seed)
			g := NewBernoulli(n, load, Length{1, 3}, mustPattern(t, "uniform", Shape{N: n}), rng)
			var r recorder
			run(g, 0, 2000, &r)
			return r.pkts
		}
		a, b := mk(9), mk(9)
		if len(a) != len(b) {
			t.Fatal("not deterministic")
		}
		for i := range a {
			if !reflect.DeepEqual(a[i], b[i]) {
				t.Fatal("not deterministic")
			}
			if i > 0 && a[i].Cycle == a[i-1].Cycle && a[i].Src <= a[i-1].Src {
				t.Fatalf("terminals out of order in cycle %d", a[i].Cycle)
			}
			if a[i].Src == a[i].Dst || a[i].Flits < 1 || a[i].Flits > 3 {
				t.Fatalf("bad packet %+v", a[i])
			}
		}
	}
}

// Skipping to NextAt gives the same packets as calling every cycle.
func TestBernoulliNextAt(t *testing.T) {
	const n = 16
	for _, load := range []float64{0.05, 0.4} { // p = 0.00625 geometric, 0.05 trials
		mk := func() Generator {
			return NewBernoulli(n, load, Length{8, 8}, mustPattern(t, "tornado", Shape{16, 4, 2}), newRng(5))
		}
		var every recorder
		run(mk(), 100, 20000, &every)
		g := mk()
		var skip recorder
		calls := 0
		for now := g.NextAt(100); now < 20000; now = g.NextAt(now + 1) {
			skip.cycle = now
			g.Generate(now, &skip)
			calls++
		}
		if len(every.pkts) == 0 || len(every.pkts) != len(skip.pkts) {
			t.Fatalf("%d vs %d packets", len(every.pkts), len(skip.pkts))
		}
		for i := range every.pkts {
			if !reflect.DeepEqual(every.pkts[i], skip.pkts[i]) {
				t.Fatalf("packet %d: %+v vs %+v", i, every.pkts[i], skip.pkts[i])
			}
		}
		if load == 0.05 && calls >= 19900 {
			t.Errorf("NextAt skipped nothing (%d calls)", calls)
		}
		// Skipped cycles are caught up: one call at the end emits everything.
		g = mk()
		var late recorder
		g.NextAt(100)
		late.cycle = 19999
		g.Generate(19999, &late)
		if len(late.pkts) != len(every.pkts) {
			t.Errorf("catch-up emitted %d packets, want %d", len(late.pkts), len(every.pkts))
		}
	}
	if z := NewBernoulli(n, 0, Length{4, 4}, nil, newRng(1)); z.NextAt(0) != math.MaxInt64 {
		t.Error("load 0: NextAt is not MaxInt64")
	}
}

// The inter-arrival gaps of one terminal follow the geometric law of
// Bernoulli trials: P(gap = k) = (1−p)^(k−1)·p for k ≥ 1.
func TestBernoulliGaps(t *testing.T) {
	for _, mode := range []byte{'g', 't'} {
		const p = 0.25
		g := newBernoulli(1, p, Length{1, 1}, mustPattern(t, "bit-complement", Shape{N: 2}), newRng(11), mode)
		var r recorder
		run(g, 0, 400000, &r)
		var hist [6]int
		for i := 1; i < len(r.pkts); i++ {
			if k := r.pkts[i].Cycle - r.pkts[i-1].Cycle; k < 6 {
				hist[k]++
			}
		}
		m := float64(len(r.pkts) - 1)
		for k := 1; k < 6; k++ {
			want := math.Pow(1-p, float64(k-1)) * p * m
			if math.Abs(float64(hist[k])-want) > 5*math.Sqrt(want) {
				t.Errorf("%c gap %d: %d, want ≈ %.0f", mode, k, hist[k], want)
			}
		}
	}
}

type nop struct{}

func (nop) Emit(src, dst, flits int) {}

func TestBernoulliNoAllocs(t *testing.T) {
	for _, mode := range []byte{'g', 't'} {
		g := newBernoulli(64, 0.5, Length{1, 8}, mustPattern(t, "uniform", Shape{N: 64}), newRng(1), mode)
		now := int64(0)
		if a := testing.AllocsPerRun(1000, func() { g.Generate(now, nop{}); now++ }); a != 0 {
			t.Errorf("%c: Generate allocates %v per cycle", mode, a)
		}
	}
}

func benchGen(b *testing.B, mode byte) {
	for _, n := range []int{64, 1024} {
		for _, load := range []float64{0.04, 0.08, 0.12, 0.2, 0.8} {
			b.Run(fmt.Sprintf("n=%d/load=%v", n, load), func(b *testing.B) {
				pat, _ := NewPattern("uniform", Shape{N: n}, nil, 0, newRng(1))
				g := newBernoulli(n, load, Length{4, 4}, pat, newRng(1), mode)
				b.ReportAllocs()
				now := int64(0)
				for b.Loop() {
					g.Generate(now, nop{})
					now++
				}
			})
		}
	}
}

// BenchmarkBernoulli is one cycle of NewBernoulli (sampler chosen by p);
// the Geometric and Trials variants force one sampler.
func BenchmarkBernoulli(b *testing.B)          { benchGen(b, 0) }
func BenchmarkBernoulliGeometric(b *testing.B) { benchGen(b, 'g') }
func BenchmarkBernoulliTrials(b *testing.B)    { benchGen(b, 't') }

// drawTrials creates terminals [from, to) of a cycle as t describes,
// drawing from src (coin tosses) and rng (a rand.Rand over src).
func drawTrials(t Trials, from, to int, src *rand.PCG, rng *rand.Rand, e Emitter) {
	for i := from; i < to; i++ {
		if t.All || src.Uint64() < t.Threshold {
			e.Emit(i, t.Pattern.Dest(i, rng), t.Length.Draw(rng))
		}
	}
}

// Drawing a cycle as Trials describes it, in chunks, from a copy of the
// source, then Drawn, gives the packets and the source state that Generate
// gives; and Trials refuses what Generate would not do next.
func TestBernoulliTrials(t *testing.T) {
	const n = 32
	pat := mustPattern(t, "uniform", Shape{N: n})
	ref, refSrc := newBernoulli(n, 0.5, Length{1, 3}, pat, nil, 0), rand.NewPCG(3, 4)
	ref.rng = rand.New(refSrc)
	g, src := newBernoulli(n, 0.5, Length{1, 3}, pat, nil, 0), rand.NewPCG(3, 4)
	g.rng = rand.New(src)
	var want, got recorder
	for now := int64(0); now < 300; now++ {
		want.cycle, got.cycle = now, now
		ref.Generate(now, &want)
		if now%3 == 0 { // every third cycle as Generate, the rest drawn
			g.Generate(now, &got)
			continue
		}
		tr, ok := g.Trials(now)
		if !ok {
			t.Fatalf("cycle %d: no trials", now)
		}
		cp := *src
		rng := rand.New(&cp)
		for from := 0; from < n; from += 5 {
			drawTrials(tr, from, min(from+5, n), &cp, rng, &got)
		}
		*src = cp
		g.Drawn(now)
	}
	if len(got.pkts) == 0 || !reflect.DeepEqual(got.pkts, want.pkts) || *src != *refSrc {
		t.Fatalf("drawn run differs: %d packets against %d", len(got.pkts), len(want.pkts))
	}
	geo := NewBernoulli(n, 0.01, Length{1, 1}, pat, g.rng).(TrialGenerator) // p < geomBelow: geometric gaps
	geo.NextAt(0)
	if _, ok := g.Trials(301); ok { // 300 was skipped
		t.Error("trials for a cycle that is not the next")
	}
	if _, ok := geo.Trials(0); ok {
		t.Error("trials of the geometric sampler")
	}
}
