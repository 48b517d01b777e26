package kernel

import (
	"math/rand/v2"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/traffic"
)

// Presampling. On two lanes, the main thread spends part of each cycle
// waiting for the helper (at the steps of the cycle and at its end), and
// then, between cycles, draws the next cycle's traffic on its own, while the
// helper waits: on the 8×8 mesh, 64 coin tosses and the packets' draws,
// 0.36 µs of a 4.4 µs two-lane cycle (measured). The presampler moves those
// draws into the waits: it draws the next cycle's packets ahead of time, a
// few terminals per call, from a copy of the kernel's random source, and the
// next cycle emits them without drawing.
//
// The run stays the same, draw for draw. The copy starts from the source's
// state after this cycle's traffic, and the next cycle uses the draws only
// if the source is still in that state (nothing drew from it in between:
// hooks, Enqueue, a program's own use of Rand) and the generator is where it
// was (its Trials still describe that cycle); it then moves the source to
// the copy's state and tells the generator the cycle is drawn.
// Otherwise the draws are dropped and the generator runs as usual. A
// packet's per-worm draws (the router's Init) are made after its own, as
// newUnicast makes them, on a scratch worm; only its Aux is kept.
type presampler struct {
	gen    traffic.TrialGenerator
	k      *Kernel
	cycle  int64          // the cycle being drawn, or -1
	trials traffic.Trials // its trials
	next   int            // its next terminal to draw
	// from is the kernel source's state when the drawing began; cur, the
	// copy drawn from (through rng).
	from, cur rand.PCG
	rng       *rand.Rand
	pkts      []presampled
	w         flit.Worm // scratch for the router's draws
	// Cycles whose traffic came from the draws, and cycles that had to
	// drop them (for tests).
	used, dropped int64
}

type presampled struct {
	src, dst, flits int32
	aux             uint64
}

// presampleChunk is how many terminals one idle call draws: a few tens of
// nanoseconds, so a wait ends at most that much late. (On the 8×8 mesh it
// draws 55–65 % of the terminals ahead; 4 to 64 measured the same.)
const presampleChunk = 8

// StartPresampling sets the kernel up to presample g's traffic if g allows
// it and the kernel may run on two lanes (only waits for the helper give it
// time). The run control then calls EmitPresampled and Presample each cycle.
func (k *Kernel) StartPresampling(g traffic.Generator) {
	pg, ok := g.(traffic.TrialGenerator)
	if !ok || k.pair == nil {
		return
	}
	p := &presampler{gen: pg, k: k, cycle: -1}
	p.rng = rand.New(&p.cur)
	k.pre = p
	k.idle = p.step
}

// Presample starts drawing cycle c's traffic ahead (while the cycle before
// it waits for the helper), if the kernel presamples.
func (k *Kernel) Presample(c int64) {
	if k.pre != nil {
		k.pre.begin(c)
	}
}

// EmitPresampled emits cycle now's packets from the draws made ahead and
// reports whether it did; if not, the traffic generator must run.
func (k *Kernel) EmitPresampled(now int64) bool {
	return k.pre != nil && k.pre.emitDrawn(now)
}

// begin starts drawing cycle c, from the kernel source's present state.
func (p *presampler) begin(c int64) {
	t, ok := p.gen.Trials(c)
	if !ok {
		p.cycle = -1
		return
	}
	p.cycle, p.trials, p.next = c, t, 0
	p.from = *p.k.src
	p.cur = p.from
	p.pkts = p.pkts[:0]
}

// step draws the next few terminals of the cycle being drawn.
func (p *presampler) step() {
	if p.cycle < 0 || p.next >= p.trials.N {
		return
	}
	to := min(p.next+presampleChunk, p.trials.N)
	p.draw(to)
}

// draw draws terminals [p.next, to) of the cycle's trials, as
// traffic.Trials describes them: the coin tosses straight from the PCG
// (half the cost of going through rand.Rand, and the same numbers), the
// destination and length through rng.
func (p *presampler) draw(to int) {
	t := &p.trials
	for i := p.next; i < to; i++ {
		if t.All || p.cur.Uint64() < t.Threshold {
			p.emit(i, t.Pattern.Dest(i, p.rng), t.Length.Draw(p.rng))
		}
	}
	p.next = to
}

func (p *presampler) emit(src, dst, flits int) {
	w := &p.w
	*w = flit.Worm{Src: int32(src), Dst: int32(dst), Len: int32(flits), Dests: 1, GenCycle: p.cycle, InjCycle: -1}
	p.k.Topo.Router.Init(w, p.rng)
	p.pkts = append(p.pkts, presampled{src: int32(src), dst: int32(dst), flits: int32(flits), aux: w.Aux})
}

// emitDrawn emits cycle now's packets from the draws, finishing them first,
// and reports whether it did (else the generator must run).
func (p *presampler) emitDrawn(now int64) bool {
	k := p.k
	if _, ok := p.gen.Trials(now); p.cycle != now || p.from != *k.src || !ok {
		p.cycle = -1
		p.dropped++
		return false
	}
	p.draw(p.trials.N)
	for _, s := range p.pkts {
		k.enqueueDrawn(int(s.src), int(s.dst), int(s.flits), s.aux)
	}
	*k.src = p.cur
	p.gen.Drawn(now)
	p.cycle = -1
	p.used++
	return true
}
