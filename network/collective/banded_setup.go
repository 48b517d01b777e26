package collective

import (
	"fmt"
	"math/bits"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network/topology"
)

// bandBeta is task.beta for banded (0 ≤ β ≤ d−2) or banded-multi
// (1 ≤ β ≤ d−2); d−β = 1 is the full matrix (te).
func bandBeta(params map[string]string, d, lo int) (int, error) {
	if d < 2+lo {
		return 0, inputerr.New("topology.d", d, "at least %d for a banded transposition (d−β ≥ 2; β = d−1 is the full matrix: te)", 2+lo)
	}
	return intParam(params, "task.beta", max(lo, min(2, d-2)), lo, d-2)
}

// greedyMax bounds the packets of the second (alongside) banded run.
const greedyMax = 1 << 16

const (
	greedyReading       = "per-node greedy reading of §2.5.2: each node sends on each Gray link the packet with the most β-ones, and matches its β-only packets to the β-dimensions heaviest first (digest 000a §4.7: slower than 2^β for β ≥ 3)"
	constructionReading = "digest 000a §4.7 construction: Binary-Gray layout; step k sends every node's upper packet with β-tag τ_k (decreasing weight, then value) over its Gray link, the zero-tag ones in step 2^β−1; one symmetric β-schedule (row slots, B-rows released after their Gray hop) found offline; the diagonal element stays"
)

// setupBanded loads the banded transposition: the digest's construction,
// or (task.schedule=greedy) the per-node greedy reading; the other one
// runs too and is reported alongside.
func setupBanded(k *kernel.Kernel, c *cube, params map[string]string, seed uint64, ck *checker, px *proxy, r *Result) error {
	d, n := c.d, c.n
	beta, err := bandBeta(params, d, 0)
	if err != nil {
		return err
	}
	greedy := false
	switch v := params["task.schedule"]; v {
	case "", "construction":
	case "greedy":
		greedy = true
	default:
		return inputerr.New("task.schedule", v, "construction (the digest's global-order construction), greedy (the per-node greedy reading)")
	}
	r.Params = []string{fmt.Sprintf("task.beta=%d", beta)}
	if greedy {
		r.Params = append(r.Params, "task.schedule=greedy")
	}
	lay := bandLayout{d: d, beta: beta, lo: d - beta}
	if err := loadBanded(k, c, lay, greedy, ck, px); err != nil {
		return err
	}
	nb := 1 << beta
	r.Packets = int64(n * 2 * nb)
	f := float64(nb)
	r.Formula, r.FormulaText = &f, "2^β = (B−1)/2, B = 2^{β+1}+1 (Theorem 6, §2.5)"
	r.LowerBound, r.LowerText = theorem1(c, bandPairs(lay)), "Theorem 1: the busiest dimension's packet-hops / N, or the longest route"
	setTheorem7(r, d, beta, 1)
	if n*2*nb > greedyMax {
		r.AlternativeText = fmt.Sprintf("the %s reading alongside is run only up to %d packets", map[bool]string{true: "construction", false: "per-node greedy"}[greedy], greedyMax)
		if greedy {
			r.Reading = greedyReading
		} else {
			r.Reading = constructionReading
		}
		return nil
	}
	other, err := runOn(topology.Spec{Kind: "hypercube", D: d}, "banded", seed, nil, func(k *kernel.Kernel, c *cube, ck *checker, px *proxy, _ *Result) error {
		return loadBanded(k, c, lay, !greedy, ck, px)
	})
	if err != nil {
		return err
	}
	if !other.Delivered {
		return fmt.Errorf("banded: the %s reading did not deliver every packet", map[bool]string{true: "greedy", false: "construction"}[!greedy])
	}
	r.Alternative = &other.Slots
	if greedy {
		r.Reading = greedyReading
		r.AlternativeText = "the digest's global-order construction (task.schedule=construction)"
	} else {
		r.Reading = constructionReading
		r.AlternativeText = "the per-node greedy reading (task.schedule=greedy)"
	}
	return nil
}

// loadBanded enqueues the transposition with one of its two schedules.
func loadBanded(k *kernel.Kernel, c *cube, lay bandLayout, greedy bool, ck *checker, px *proxy) error {
	if greedy {
		s := newBandedGreedy(c, lay, ck)
		s.load(k)
		px.SlotScheduler, px.limit = s, int64(c.n*c.n)
		return nil
	}
	s, err := newBandedSched(c, lay, ck)
	if err != nil {
		return err
	}
	s.load(k)
	px.SlotScheduler, px.limit = s, int64(len(s.steps))+1
	return nil
}

// bandPairs are the transposition's (source, destination) node pairs.
func bandPairs(lay bandLayout) [][2]int {
	var out [][2]int
	for c := 0; c < 1<<lay.d; c++ {
		for _, j := range lay.band(c) {
			out = append(out, [2]int{lay.node(c), lay.node(j)})
		}
	}
	return out
}

// theorem1 is Theorem 1's bound for the packets pairs on the d-cube: the
// most packet-hops any dimension must carry, over its N links, and the
// longest route (digest 000a §4.2).
func theorem1(c *cube, pairs [][2]int) float64 {
	col := make([]int, c.d)
	far := 0
	for _, p := range pairs {
		x := p[0] ^ p[1]
		far = max(far, bits.OnesCount(uint(x)))
		for ; x != 0; x &= x - 1 {
			col[bits.TrailingZeros(uint(x))]++
		}
	}
	lb := far
	for _, s := range col {
		lb = max(lb, ceilDiv(s, c.n))
	}
	return float64(lb)
}

// setupBandedMulti loads ⌊d/β⌋ simultaneous banded transpositions.
func setupBandedMulti(k *kernel.Kernel, c *cube, params map[string]string, ck *checker, px *proxy, r *Result) error {
	d, n := c.d, c.n
	beta, err := bandBeta(params, d, 1)
	if err != nil {
		return err
	}
	r.Params = []string{fmt.Sprintf("task.beta=%d", beta)}
	nm := d / beta
	*ck = *newCheckerCols(n, n*nm)
	m := newBandedMulti(c, beta, ck)
	m.load(k)
	px.SlotScheduler, px.limit = m, int64(n*n)
	nb := 1 << beta
	r.Packets = int64(nm * n * 2 * nb)
	f := float64(2*nb + 1)
	r.Formula, r.FormulaText = &f, fmt.Sprintf("2^{β+1} + 1 = B for all ⌊d/β⌋ = %d matrices (§2.7: phase 1 2^β, phase 2 ≤ 2^β + 1)", nm)
	var pairs [][2]int
	for _, lay := range m.lays {
		pairs = append(pairs, bandPairs(lay)...)
	}
	r.LowerBound, r.LowerText = theorem1(c, pairs), "Theorem 1: the busiest dimension's packet-hops / N, or the longest route"
	setTheorem7(r, d, beta, nm)
	r.Reading = fmt.Sprintf("%d matrices, matrix j at the Binary-Gray label rotated left by jβ; phase 1: each matrix's symmetric OCTR on its β-block (%d steps); phase 2: the one Gray hop left, one packet per link per step in arrival order", nm, m.phase1())
	return nil
}
