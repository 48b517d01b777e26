package topology

import (
	"math/bits"
	"math/rand/v2"

	"github.com/flitsim/flitsim/flit"
	xbar "github.com/flitsim/flitsim/switch"
)

// Brebner's (1983 §2.2, §3.7.1) dimension orders on the hypercube, beside
// the strict e-cube order of direct_hypercube.go: random-order (his
// standard: the differing dimensions in a uniformly random order drawn once
// per packet) and semi-strict (increasing modulo d from a random start).

func init() {
	RegisterRouting("hypercube", Routing{Name: "random-order", Aliases: []string{"random"}, New: newCubeOrder(false),
		Desc: "the differing dimensions in a uniformly random order drawn once per packet (Brebner's standard)"})
	RegisterRouting("hypercube", Routing{Name: "semi-strict", Aliases: []string{"semistrict"}, New: newCubeOrder(true),
		Desc: "increasing dimension order modulo d from a uniformly random start dimension per packet (Brebner §3.7.1)"})
}

func newCubeOrder(semi bool) func(*Topology, Spec) (Router, error) {
	return func(_ *Topology, s Spec) (Router, error) {
		r := &cubeOrderRouter{d: s.D, semi: semi, perms: 1}
		for i := 2; i <= s.D; i++ {
			r.perms *= uint64(i) // d ≤ 20: 20! < 2^62
		}
		r.above[s.D] = 1 // (above[m] = d!/m!, from m = d down)
		for m := s.D - 1; m >= 0; m-- {
			r.above[m] = r.above[m+1] * uint64(m+1)
		}
		for m := range s.D + 1 {
			r.aboveInv[m] = ^uint64(0) / r.above[m]
		}
		return r, nil
	}
}

// cubeOrderRouter keeps its per-packet draw in w.Aux: for random-order a
// rank 0 ≤ Aux < d!, for semi-strict the start dimension. The rule of the
// random order: where the dimensions still to correct are a set S of m,
// the packet corrects the c-th smallest of S, c = ⌊rank/(d!/m!)⌋ mod m —
// the rank's digit at place m in the factorial number system, counted
// from the top (rank = Σ c_m·d!/m!, 0 ≤ c_m < m). The digits of a rank
// uniform below d! are independent and uniform, a leg of k differing
// dimensions uses k of them (places k, k−1, …, 1), and each sequence of
// choices is one order of the k dimensions: the order is uniform,
// Brebner's random order. The choice at a switch depends only on the rank
// and the dimensions left, so Route, hop by hop, and Path agree.
// (Before, the rank named a permutation of all d dimensions, restricted
// to the differing ones: the same distribution, but Path decoded all d
// digits a leg, a tenth of a 12-cube hop: speed.md.)
type cubeOrderRouter struct {
	d     int
	semi  bool
	perms uint64 // d!
	// above[m] = d!/m! (0 ≤ m ≤ d) and aboveInv[m] = ⌊(2^64−1)/above[m]⌋:
	// lead's division by multiplication.
	above, aboveInv [32]uint64
}

func (r *cubeOrderRouter) Name() string {
	if r.semi {
		return "semi-strict"
	}
	return "random-order"
}

func (r *cubeOrderRouter) Init(w *flit.Worm, rng *rand.Rand) {
	if r.semi {
		w.Aux = uint64(rng.IntN(r.d))
		return
	}
	w.Aux = rng.Uint64N(r.perms)
}

func (r *cubeOrderRouter) Route(sw, _ int, w *flit.Worm) xbar.PortSet {
	diff := uint64(sw ^ int(w.Dst))
	if diff == 0 {
		return xbar.Port(r.d)
	}
	if r.semi {
		// Rotate so that the start dimension is bit 0: the lowest set bit
		// is then the first differing dimension at or after it.
		st := int(w.Aux)
		if w.Aux >= uint64(r.d) {
			st = int(w.Aux % uint64(r.d)) // (not Init's: Init draws below d)
		}
		rot := (diff>>uint(st) | diff<<uint(r.d-st)) & (1<<uint(r.d) - 1)
		dim := bits.TrailingZeros64(rot) + st // (both below d)
		if dim >= r.d {
			dim -= r.d
		}
		return xbar.Port(dim)
	}
	return xbar.Port(r.nth(diff, w.Aux))
}

// nth is the first dimension of diff (not empty) in the order of rank.
func (r *cubeOrderRouter) nth(diff, rank uint64) int {
	m := uint64(bits.OnesCount64(diff))
	_, c := cubeDigit(r.lead(rank, int(m)), m)
	return selectBit(diff, int(c))
}

// lead is ⌊rank/(d!/m!)⌋ < m!, rank taken modulo d! (no draw is larger):
// the rank's digits at places m, m−1, …, 1, which the last m choices of a
// leg use. The reciprocal rounds down, so the product's high word is
// short by at most one for rank < d! < 2^62, and the test of the rest
// corrects it (rather than a 64-bit division).
func (r *cubeOrderRouter) lead(rank uint64, m int) uint64 {
	if rank >= r.perms {
		rank %= r.perms
	}
	p := r.above[m&31]
	q, _ := bits.Mul64(rank, r.aboveInv[m&31])
	if rank-q*p >= p {
		q++
	}
	return q
}

// selectBit is the position of the k-th (from 0) set bit of x.
func selectBit(x uint64, k int) int {
	for range k {
		x &= x - 1
	}
	return bits.TrailingZeros64(x)
}
