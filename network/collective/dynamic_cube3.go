package collective

import (
	"fmt"

	"github.com/flitsim/flitsim/internal/kernel"
)

// cubeDynIII is the hypercube's PMNB as the dynamic scheme runs it with
// task.algorithm=iii: Algorithm III (§3.6.3; digest 000a §5.11.3), no
// splitting — class r_s mod d runs 𝒜_c on labels rotated by c, subphases
// aligned on ⌈M/d⌉ (pmnb_classes.go's pmnbAlg) — on each period's active
// set, one router slot per packet time.
//
// Its bound is ⌈M/d⌉ + 2d + 4d·t_p − 1 ≤ X·M + V with X = 1/d and V = 2d
// + 4d·t_p (§4.2, digest §6.2): the reservation interval is the class and
// the class-restricted rank computations (4d prefix hops of t_p, counted,
// not run on the router) and the packing (d slots). The load is ρ = λNX =
// λN/d and the threshold ρ* = 1/(1 + V/(NX)) = 1/(1 + (2d + 4dt_p)d/N).
// §4.4 prints 1/(1 + (2d + 2dt_p)d/N) (digest §9 item 25): with V = 2d +
// 4dt_p that is a typo, which the threshold rows show on the router
// (Threshold, PrintedThreshold).
type cubeDynIII struct {
	c  *cube
	tp float64
	ck *checker // this period's: rows nodes, columns origins
}

func newCubeDynIII(g *Net, tp float64) (dynPMNB, error) {
	c, err := newCube(g.Topo)
	if err != nil {
		return nil, err
	}
	if c.d < 1 || c.d > MaxD {
		return nil, fmt.Errorf("dynamic broadcasting needs a hypercube of dimension 1 to %d", MaxD)
	}
	return &cubeDynIII{c: c, tp: tp}, nil
}

func (f *cubeDynIII) Split() int { return 1 }

func (f *cubeDynIII) Bound() Eq41 {
	d := float64(f.c.d)
	return Eq41{N: f.c.n, X: 1 / d, V: 2*d + 4*d*f.tp}
}

// Prefix is the class computation and the rank within the class, 2d hops
// of t_p each.
func (f *cubeDynIII) Prefix() float64 { return 4 * float64(f.c.d) * f.tp }

func (f *cubeDynIII) prefixText() string { return "4d·t_p (class, then rank within the class)" }

func (f *cubeDynIII) Describe() string {
	return fmt.Sprintf("hypercube Algorithm III (§3.6.3): no splitting, class r_s mod d runs 𝒜_c on labels rotated by c, subphases aligned on ⌈M/d⌉; one router slot per packet time; X = 1/d, V = 2d + 4d·t_p; ρ* = 1/(1 + (2d+4dt_p)d/N) = %.5f (§4.4 prints 2dt_p for 4dt_p, digest 000a §9 item 25: that reading gives %.5f)",
		f.Bound().Threshold(), PrintedThresholdIII(f.c.d, f.tp))
}

// PrintedThresholdIII is §4.4's stability threshold for Algorithm III as
// printed, 1/(1 + (2d + 2dt_p)d/N): the derivation with V = 2d + 4dt_p
// gives Eq41.Threshold's 1/(1 + (2d + 4dt_p)d/N).
func PrintedThresholdIII(d int, tp float64) float64 {
	df := float64(d)
	return 1 / (1 + (2*df+2*df*tp)*df/float64(int(1)<<d))
}

// Period loads the active nodes' packets and returns Algorithm III's
// schedule; its length is the nodes' phase clock d + Σ_k ⌈⌈M/d⌉/2^k⌉
// (every node knows M from the prefix).
func (f *cubeDynIII) Period(k *kernel.Kernel, active []int) (kernel.SlotScheduler, int64) {
	f.ck = newChecker(f.c.n)
	act := make([]bool, f.c.n)
	for _, v := range active {
		act[v] = true
	}
	s := newPmnbAlgOn(f.c, "iii", act, len(active), 0, f.ck)
	s.load(k)
	// (a worm-view schedule: the proxy fills the view from the store)
	return &proxy{SlotScheduler: s, pk: k.ScheduledPackets()}, s.length()
}

func (f *cubeDynIII) Settle(active []int) (missing, dup, stray int64) {
	missing, dup, stray, _ = f.ck.tally()
	return missing, dup, stray
}
