package traffic

import (
	"math"
	"math/rand/v2"
)

// NewBatch returns a batch workload (Brebner's experiments): at cycle 0
// each of the n terminals creates h one-flit packets, in terminal order,
// each with its destination drawn from pat; nothing after. A packet whose
// destination is its source is created too (it arrives at once).
func NewBatch(n, h int, pat Pattern, rng *rand.Rand) Generator {
	return &batchGen{n: n, h: h, pat: pat, rng: rng}
}

type batchGen struct {
	n, h int
	pat  Pattern
	rng  *rand.Rand
	done bool
}

func (g *batchGen) NextAt(now int64) int64 {
	if g.done {
		return math.MaxInt64
	}
	return now
}

func (g *batchGen) Generate(now int64, e Emitter) {
	if g.done {
		return
	}
	g.done = true
	for src := range g.n {
		for range g.h {
			e.Emit(src, g.pat.Dest(src, g.rng), 1)
		}
	}
}
