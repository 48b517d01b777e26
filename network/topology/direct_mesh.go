package topology

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/flitsim/flitsim/flit"
	xbar "github.com/flitsim/flitsim/switch"
)

// The k-ary n-mesh and n-torus (k-ary n-cube): one router per terminal,
// router i serves terminal i.

func init() {
	for _, torus := range []bool{false, true} {
		k := KindSpec{
			Name: "mesh",
			Desc: "k-ary n-mesh, k^n routers each with one terminal; dimension-order routing in `order`",
			Params: []Param{
				{Key: "k", Default: "8", Allowed: fmt.Sprintf("an integer from 2 to %d, or a list of n such sides, dimension 0 first (4,8: a 4×8 grid; n may then be omitted)", MaxTerminals),
					Desc: "nodes per dimension", Check: checkMeshK, Sides: true},
				{Key: "n", Default: "2", Allowed: fmt.Sprintf("an integer from 1 up to k^n ≤ %d terminals; with a list for k, its length (or omitted)", MaxTerminals),
					Desc: "dimensions", Check: checkMeshN},
				orderParam(func(s Spec) int { return s.N }),
			},
			Routings: []Routing{{Name: "dor", Aliases: []string{"dimension-order", "xy", "strict"}, New: newDOR,
				Desc: "dimension-order routing: correct the coordinates in topology.order (on a torus the shorter way round, ties by topology.tie)"}},
			Build: func(s Spec) (*Topology, error) { return buildMeshTorus(s, torus), nil },
			Size:  func(s Spec) Size { return uniform(int64(meshStrides(s)[s.N]), 2*s.N+1) },
		}
		if !torus {
			k.Routings = append(k.Routings, Routing{Name: "adaptive", New: newAdaptive,
				Desc: "minimal adaptive: any port nearer the destination, VC 0 kept for dimension order (Duato's escape; buffers.vcs ≥ 2, router.model: iq)"})
		}
		if torus {
			k.Params = append(k.Params, tieParam)
			k.Routings = append(k.Routings, Routing{Name: "adaptive", New: newTorusAdaptive,
				Desc: "minimal adaptive: any port on a shortest way, VCs 0 and 1 kept for dor-dateline (Duato's escape; buffers.vcs ≥ 3, router.model: iq)"})
			k.Routings = append(k.Routings, Routing{Name: "dor-dateline", New: newDateline,
				Desc: "dimension-order routing on two virtual-channel classes, class 1 along a ring whose way round crosses the wraparound link (deadlock-free; buffers.vcs ≥ 2, router.model: iq)"})
			k.Name = "torus"
			k.Desc = "k-ary n-cube with wraparound links; dimension-order routing the shorter way round (at half a ring as topology.tie says)"
		}
		Register(k)
	}
}

func checkMeshK(s Spec) string {
	if s.Rectangular() {
		return checkSides(s)
	}
	if s.K < 2 || s.K > MaxTerminals {
		return fmt.Sprintf("an integer from 2 to %d (nodes per dimension)", MaxTerminals)
	}
	return ""
}

func checkMeshN(s Spec) string {
	if s.Rectangular() {
		return "" // checkSides, run first, checked n against the list
	}
	maxN := 0
	for p := 1; p*s.K <= MaxTerminals && maxN < 31; p *= s.K {
		maxN++
	}
	if s.N < 1 || s.N > maxN {
		return fmt.Sprintf("an integer from 1 to %d for k = %d (k^n ≤ %d terminals, router radix 2n+1 ≤ %d)", maxN, s.K, MaxTerminals, xbar.MaxPorts)
	}
	return ""
}

// buildMeshTorus wires a k-ary n-mesh or n-torus, or a rectangular one
// with s.Side(i) nodes along dimension i. Node id = Σ x_i k^i (with
// per-dimension sides: Σ x_i Π_{j<i} side_j).
// Port 2i leads toward x_i−1 and port 2i+1 toward x_i+1; a link leaving port
// 2i+1 arrives on the neighbour's port 2i and vice versa. Port 2n is local.
// Mesh edge ports are unconnected (End{Switch: -1, Terminal: -1}).
func buildMeshTorus(s Spec, torus bool) *Topology {
	n := s.N
	pow := meshStrides(s)
	nodes := pow[n]
	ports := 2*n + 1
	t := &Topology{
		Switches: newSwitches(nodes, ports),
		InSwitch: make([]int32, nodes),
		InPort:   make([]int32, nodes),
		Radix:    s.K,
		Digits:   n,
	}
	var b strings.Builder
	for id := range t.Switches {
		sw := &t.Switches[id]
		b.Reset()
		b.WriteString("r(")
		for i := 0; i < n; i++ {
			k := s.Side(i)
			x := id / pow[i] % k
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(itoa(x))
			minus, plus := x-1, x+1
			if torus {
				minus = (minus + k) % k
				plus %= k
			}
			if minus >= 0 {
				sw.Out[2*i] = End{Switch: int32(id + (minus-x)*pow[i]), Port: int32(2*i + 1), Terminal: -1}
			} else {
				sw.Out[2*i] = End{Switch: -1, Terminal: -1}
			}
			if plus < k {
				sw.Out[2*i+1] = End{Switch: int32(id + (plus-x)*pow[i]), Port: int32(2 * i), Terminal: -1}
			} else {
				sw.Out[2*i+1] = End{Switch: -1, Terminal: -1}
			}
		}
		b.WriteByte(')')
		sw.Label = b.String()
		sw.Out[2*n] = End{Switch: -1, Terminal: int32(id)}
		t.InSwitch[id] = int32(id)
		t.InPort[id] = int32(2 * n)
	}
	if s.Rectangular() {
		// No Radix^Digits address shape: digit patterns (transpose, ...)
		// refuse; uniform and the others work.
		t.Radix, t.Digits = 0, 0
	}
	t.PortNames = make([]string, ports)
	for i := 0; i < n; i++ {
		dim := fmt.Sprintf("x%d", i)
		if n <= 3 {
			dim = string("xyz"[i])
		}
		t.PortNames[2*i] = dim + "-"
		t.PortNames[2*i+1] = dim + "+"
	}
	t.PortNames[2*n] = "local"
	return t
}

// newDOR builds dimension-order routing for a mesh or torus t.
func newDOR(t *Topology, s Spec) (Router, error) {
	n := s.N
	pow := meshStrides(s)
	order := orderOf(s.Order, n)
	r := &dorRouter{sides: meshSides(s), n: n, torus: t.Kind == "torus", order: order, name: "dor"}
	r.tieRandom = r.torus && anyEvenSide(s) && tieRandom(s)
	// Coordinates are precomputed: Route runs per head flit, and integer
	// division would dominate its cost.
	r.coord = make([]int32, t.Terminals()*n)
	for v := 0; v < t.Terminals(); v++ {
		for i := 0; i < n; i++ {
			r.coord[v*n+i] = int32(v / pow[i] % r.sides[i])
		}
	}
	// A random tie depends on the packet's draw: no table then.
	if r.nodes = t.Terminals(); r.nodes <= tableNodes && !r.tieRandom {
		r.port = make([]uint8, r.nodes*r.nodes)
		for sw := range r.nodes {
			for dst := range r.nodes {
				r.port[sw*r.nodes+dst] = uint8(r.portTo(sw, dst, 0))
			}
		}
	}
	if !isIdentity(order) {
		r.name += " order=" + joinInts(order)
	}
	if r.tieRandom {
		r.name += " tie=random"
	}
	return r, nil
}

// dorRouter is dimension-order routing on a mesh or torus: correct the
// coordinates in `order`; in a torus take the shorter way round, and on a
// tie (distance side/2) go + or, with tie random, the way bit i of w.Aux says
// for dimension i (drawn once per packet).
type dorRouter struct {
	sides     []int // nodes along each dimension
	n         int
	torus     bool
	tieRandom bool
	order     []int
	coord     []int32 // coordinate i of node v at v*n+i
	name      string
	nodes     int
	port      []uint8 // port at sw towards dst at sw*nodes+dst (≤ tableNodes nodes), or nil
}

func (r *dorRouter) Name() string { return r.name }

func (r *dorRouter) Init(w *flit.Worm, rng *rand.Rand) {
	if r.tieRandom {
		w.Aux = rng.Uint64()
	}
}

func (r *dorRouter) Route(sw, in int, w *flit.Worm) xbar.PortSet {
	if r.port != nil {
		return xbar.Port(int(r.port[sw*r.nodes+int(w.Dst)]))
	}
	return xbar.Port(r.portTo(sw, int(w.Dst), w.Aux))
}

// portTo is the output port at switch sw towards node dst (aux: the
// packet's tie bits, used when tieRandom).
func (r *dorRouter) portTo(sw, dst int, aux uint64) int {
	if sw == dst {
		return 2 * r.n
	}
	cs, cd := r.coord[sw*r.n:sw*r.n+r.n], r.coord[dst*r.n:dst*r.n+r.n]
	for _, i := range r.order {
		x, d := int(cs[i]), int(cd[i])
		if x == d {
			continue
		}
		// + when the destination lies ahead (on a torus, within half the
		// ring ahead).
		up := d > x
		if r.torus {
			k := r.sides[i]
			delta := d - x + k&-b2i(d < x)
			up = 2*delta <= k
			if r.tieRandom && 2*delta == k {
				up = aux>>uint(i)&1 != 0
			}
		}
		return 2*i + b2i(up)
	}
	return 0
}

// tableNodes is the most nodes for which Route looks its answer up in a
// table (nodes² bytes: 64 KiB) instead of comparing coordinates (see
// internal/kernel/speed.md).
const tableNodes = 256

// b2i is 1 for true and 0 for false.
func b2i(c bool) int {
	var i int
	if c {
		i = 1
	}
	return i
}
