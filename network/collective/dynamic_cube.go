package collective

import (
	"fmt"

	"github.com/flitsim/flitsim/internal/kernel"
)

// cubeDyn is the hypercube's PMNB as the dynamic scheme runs it:
// Algorithm II (§3.6.2, Theorem 8; digest 000a §5.11.2) — each packet split
// into d mini-packets, class c carried out by 𝒜_c (pmnb.go's pmnbSched with
// rotation c) — on the active set of each period. The router runs one slot
// per mini-slot (1/d time unit).
//
// Its bound is X·M + V with X = (N−1)/(dN) and V = 2dt_p + 2 (§4.2, digest
// §6.2): the reservation interval is the rank computation (2d prefix hops
// of t_p) and the packing (d mini-slots), the "+1" of the broadcast phase
// lumped into V.
type cubeDyn struct {
	c   *cube
	ck  *checker // this period's: rows nodes, columns origin × class
	tp  float64
	cls []*pmnbSched // per class, reused from period to period
}

func newCubeDyn(g *Net, tp float64) (dynPMNB, error) {
	c, err := newCube(g.Topo)
	if err != nil {
		return nil, err
	}
	if c.d < 1 || c.d > MaxD {
		return nil, fmt.Errorf("dynamic broadcasting needs a hypercube of dimension 1 to %d", MaxD)
	}
	return &cubeDyn{c: c, tp: tp}, nil
}

func (f *cubeDyn) Split() int { return f.c.d }

func (f *cubeDyn) Bound() Eq41 {
	d, n := float64(f.c.d), f.c.n
	return Eq41{N: n, X: float64(n-1) / (d * float64(n)), V: 2*d*f.tp + 2}
}

// Prefix is the rank computation: 2d hops of t_p (§3.6.1 Phase 1).
func (f *cubeDyn) Prefix() float64 { return 2 * float64(f.c.d) * f.tp }

func (f *cubeDyn) Describe() string {
	return "hypercube Algorithm II (§3.6.2): packets split into d mini-packets, class c by 𝒜_c; the router runs one slot per mini-slot (1/d)"
}

// Period loads the active nodes' packets, one each, as d classes of
// mini-packets and returns their schedule; its length is the nodes' phase
// clock: packing d mini-slots, broadcast Σ_k ⌈M/2^k⌉ (every node knows M
// from the prefix).
func (f *cubeDyn) Period(k *kernel.Kernel, active []int) (kernel.SlotScheduler, int64) {
	if f.cls == nil {
		for cl := 0; cl < f.c.d; cl++ {
			f.cls = append(f.cls, &pmnbSched{c: f.c, broadcast: true, ck: f.ck, rot: cl, classes: f.c.d,
				moving: make([][]int32, f.c.n), held: make([][]int32, f.c.n), rank: make([]int, f.c.n), start: make([]int64, f.c.d+2)})
		}
	}
	f.ck = newCheckerCols(f.c.n, f.c.n*f.c.d) // (a fresh delivery check per period)
	for _, s := range f.cls {
		s.ck = f.ck
		s.activate(active)
		s.load(k)
		for _, h := range s.held { // (a packet held from the start: there since slot 0)
			for _, wi := range h {
				s.setArrived(wi, 0)
			}
		}
	}
	return &pmnbSplit{cls: f.cls}, f.cls[0].formula()
}

// Settle tallies the period's deliveries: every node receives every
// mini-packet once.
func (f *cubeDyn) Settle(active []int) (missing, dup, stray int64) {
	missing, dup, stray, _ = f.ck.tally()
	return missing, dup, stray
}

// activate readies s (a class of pmnbSched, pmnb.go) for a PMNB of the
// given active origins, as newPmnbClass does for a random set: ranks by
// rotated label, subphase lengths from M.
func (s *pmnbSched) activate(active []int) {
	c := s.c
	s.m, s.maxHeld = len(active), 0
	for v := range s.moving {
		s.moving[v], s.held[v] = s.moving[v][:0], s.held[v][:0]
	}
	for i := range s.rank {
		s.rank[i] = -1
	}
	for _, a := range active {
		s.rank[a] = 0
	}
	r := 0
	for lv := range s.rank {
		if v := s.rotL(lv); s.rank[v] == 0 {
			s.rank[v], r = s.rotL(r), r+1
		}
	}
	s.start[1] = int64(c.d)
	for l := 1; l <= c.d; l++ {
		s.start[l+1] = s.start[l] + int64(ceilDiv(s.m, 1<<(c.d-l+1)))
	}
}
