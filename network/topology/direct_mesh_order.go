package topology

import (
	"math/bits"
	"math/rand/v2"

	"github.com/flitsim/flitsim/flit"
	xbar "github.com/flitsim/flitsim/switch"
)

// Brebner's (1983 §3.6) "random" grid strategy on the mesh and torus: the
// unit moves a packet needs, in a uniformly random interleaving; and the
// torus's direction at exactly half a ring (topology.tie).

// tieParam is the torus's tie rule. The default stays plus, the rule
// flitsim has always used (so every existing run is unchanged); Brebner's
// reference reading draws the direction at random (digest §3.3 item 5).
var tieParam = Param{Key: "tie", Default: "plus", Allowed: "plus or random",
	Desc: "direction at exactly half a ring (even k): plus, or random (drawn once per packet and dimension)",
	Check: func(s Spec) string {
		switch norm(s.Tie) {
		case "", "plus", "random":
			return ""
		}
		return "plus or random (the direction at exactly half a ring)"
	}}

func tieRandom(s Spec) bool { return norm(s.Tie) == "random" }

func init() {
	for _, kind := range []string{"mesh", "torus"} {
		RegisterRouting(kind, Routing{Name: "random-order", Aliases: []string{"random-interleave"}, New: newMeshOrder,
			Desc: "the needed unit moves in a uniformly random interleaving (Brebner's random strategy; on a torus each dimension the shorter way)"})
	}
}

func newMeshOrder(t *Topology, s Spec) (Router, error) {
	n := s.N
	r := &meshOrderRouter{sides: meshSides(s), stride: meshStrides(s)[:n], n: n, torus: t.Kind == "torus"}
	r.tieRandom = r.torus && anyEvenSide(s) && tieRandom(s)
	r.coord = make([]int32, t.Terminals()*n)
	for v := 0; v < t.Terminals(); v++ {
		x := v
		for i, k := range r.sides {
			r.coord[v*n+i] = int32(x % k)
			x /= k
		}
	}
	return r, nil
}

// meshOrderRouter routes a uniformly random interleaving of the unit moves
// to the destination. At each hop it picks dimension i with probability
// (moves left in i)/(moves left): choosing so hop by hop is drawing a
// uniformly random interleaving. The draws are a hash of the packet's
// random w.Aux and the router, so Route stays a pure function (a minimal
// route never revisits a router); bit i of w.Aux is the tie direction of
// dimension i with tie random.
type meshOrderRouter struct {
	sides     []int // nodes along each dimension
	stride    []int // place value of each coordinate (Path's moves)
	n         int
	torus     bool
	tieRandom bool
	coord     []int32
}

func (r *meshOrderRouter) Name() string {
	if r.tieRandom {
		return "random-order tie=random"
	}
	return "random-order"
}

func (r *meshOrderRouter) Init(w *flit.Worm, rng *rand.Rand) { w.Aux = rng.Uint64() }

func (r *meshOrderRouter) Route(sw, _ int, w *flit.Worm) xbar.PortSet {
	var left, port [maxMeshDims]int
	total := 0
	cs := r.coord[sw*r.n : sw*r.n+r.n]
	cd := r.coord[int(w.Dst)*r.n : int(w.Dst)*r.n+r.n]
	for i := 0; i < r.n; i++ {
		left[i], port[i] = r.moves(int(cs[i]), int(cd[i]), i, w.Aux)
		total += left[i]
	}
	if total == 0 {
		return xbar.Port(2 * r.n)
	}
	u, _ := bits.Mul64(mix64(w.Aux^uint64(sw)*0x9e3779b97f4a7c15), uint64(total))
	for i := 0; i < r.n; i++ {
		if int(u) < left[i] {
			return xbar.Port(port[i])
		}
		u -= uint64(left[i])
	}
	return 0
}

// maxMeshDims bounds n (every side ≥ 2 and their product ≤ MaxTerminals).
const maxMeshDims = 20

// moves is the number of unit moves dimension i needs from x to d, and the
// port that makes them (2i toward −, 2i+1 toward +).
func (r *meshOrderRouter) moves(x, d, i int, aux uint64) (int, int) {
	if !r.torus {
		if d >= x {
			return d - x, 2*i + 1
		}
		return x - d, 2 * i
	}
	k := r.sides[i]
	f := (d - x + k) % k // hops the + way
	g := k - f           // the − way
	if f == 0 {
		return 0, 2*i + 1
	}
	up := 2*f < k || (2*f == k && (!r.tieRandom || aux>>uint(i)&1 != 0))
	if up {
		return f, 2*i + 1
	}
	return g, 2 * i
}

// mix64 is SplitMix64's finaliser: a well-spread hash of x.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}
