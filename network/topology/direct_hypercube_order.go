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
		f := uint64(1)
		for i := 2; i <= s.D; i++ {
			f *= uint64(i) // d ≤ 20: 20! < 2^62
		}
		r := &cubeOrderRouter{d: s.D, semi: semi, perms: f}
		if d := uint64(s.D); !semi && d >= 2 && d <= 16 {
			r.first2, r.recip2 = cubeFirst2(d), ^uint64(0)/(d*(d-1))+1
		}
		return r, nil
	}
}

// cubeOrderRouter keeps its per-packet draw in w.Aux: for random-order the
// rank (0 ≤ Aux < d!) of a uniformly random permutation of all d dimensions
// in the factorial number system, for semi-strict the start dimension. The
// packet corrects its differing dimensions in that permutation's order; the
// permutation restricted to the differing ones is uniform, which is
// Brebner's random order. Route decodes it at each hop, so it stays a pure
// function of the router, the destination and Aux.
type cubeOrderRouter struct {
	d     int
	semi  bool
	perms uint64 // d!
	// Path's table of the first two digits (cubeFirst2) and ⌈2^64/d(d−1)⌉
	// (exact for ranks below 16!: see cubeRecip); nil for d > 16.
	first2 []uint64
	recip2 uint64
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

// nth is the first dimension of diff in the order of permutation rank:
// digit i of rank in base (d−i) picks among the d−i dimensions not yet
// placed.
func (r *cubeOrderRouter) nth(diff, rank uint64) int {
	if rank >= r.perms {
		rank %= r.perms // (not Init's: the digits depend on rank mod d! alone)
	}
	avail := uint64(1)<<uint(r.d) - 1
	for m := uint64(r.d); m > 0; m-- {
		var idx uint64
		rank, idx = cubeDigit(rank, m) // (not a division: see cubeRecip)
		dim := selectBit(avail, int(idx))
		if diff>>uint(dim)&1 != 0 {
			return dim
		}
		avail &^= 1 << uint(dim)
	}
	return 0
}

// selectBit is the position of the k-th (from 0) set bit of x.
func selectBit(x uint64, k int) int {
	for range k {
		x &= x - 1
	}
	return bits.TrailingZeros64(x)
}
