package collective

import (
	"fmt"
	"math/bits"

	"github.com/flitsim/flitsim/internal/kernel"
)

// foldedDyn is the folded cube's PMNB as the dynamic scheme runs it: the
// class PMNB without splitting (folded_pmnb.go: class r mod (d+1) runs the
// hypercube 𝒜_0 inside F_c; the paper §3, digest 000b §4.14(c)) on each
// period's active set, one router slot per packet time.
//
// Its bound is ⌈M/(d+1)⌉ + 2d − 1 ≤ X·M + V with X = 1/(d+1) and V = 2d
// + 4d·t_p (the paper's Corollary 1, digest 000b §4.14(h)): the load is
// ρ = λN/(d+1) and ρ* = 1/(1 + (d+1)(2d + 4dt_p)/N). The class and rank
// computations (4d prefix hops of t_p) are counted, not run on the router.
type foldedDyn struct {
	x  *dims
	tp float64
	ck *checker // this period's: rows nodes, columns origins
}

func newFoldedDyn(g *Net, tp float64) (dynPMNB, error) {
	d := bits.TrailingZeros(uint(g.N))
	if g.N != 1<<d || d < 2 || d > MaxFoldedD {
		return nil, fmt.Errorf("dynamic broadcasting needs a folded cube of dimension 2 to %d", MaxFoldedD)
	}
	x, err := newDims(g, d, d+1, func(v, j int) int { return v ^ foldGen(d, j) })
	if err != nil {
		return nil, err
	}
	return &foldedDyn{x: x, tp: tp}, nil
}

func (f *foldedDyn) Split() int { return 1 }

func (f *foldedDyn) Bound() Eq41 {
	d := float64(f.x.d)
	return Eq41{N: f.x.n, X: 1 / (d + 1), V: 2*d + 4*d*f.tp}
}

// Prefix is the class and the class-restricted rank computations, 2d hops
// of t_p each (§3.6.3's pattern, digest 000b §4.14(h): V's 4d·t_p).
func (f *foldedDyn) Prefix() float64 { return 4 * float64(f.x.d) * f.tp }

func (f *foldedDyn) Describe() string {
	return "folded-cube PMNB without splitting (paper §3): class r mod (d+1) runs 𝒜_0 inside the hypercube F_c, subphases aligned on ⌈M/(d+1)⌉; one router slot per packet time"
}

// Period loads the active nodes' packets and returns the class PMNB; its
// length is its phase clock d + Σ_k ⌈⌈M/(d+1)⌉/2^k⌉ (every node knows M).
func (f *foldedDyn) Period(k *kernel.Kernel, active []int) (kernel.SlotScheduler, int64) {
	f.ck = newChecker(f.x.n)
	s := newFoldedPMNB(f.x, active, f.ck)
	s.load(k)
	// (a worm-view schedule: the proxy fills the view from the store)
	return &proxy{SlotScheduler: s, pk: k.ScheduledPackets()}, s.start[f.x.d+1]
}

func (f *foldedDyn) Settle(active []int) (missing, dup, stray int64) {
	missing, dup, stray, _ = f.ck.tally()
	return missing, dup, stray
}
