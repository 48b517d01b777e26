package topology

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/inputerr"
	xbar "github.com/flitsim/flitsim/switch"
)

// Direct networks: one router per terminal, router i serves terminal i.

// buildHypercube wires a binary d-cube. Port j (0 ≤ j < d) of node i leads
// along dimension j to node i^(1<<j), arriving on its port j; port d is local.
func buildHypercube(s Spec) (*Topology, error) {
	d := s.D
	if d < 1 || d > 20 {
		return nil, inputerr.New("topology.d", itoa(d), "an integer from 1 to 20 (2^d ≤ %d terminals)", MaxTerminals)
	}
	order, err := checkOrder(s.Order, d)
	if err != nil {
		return nil, err
	}
	name, err := routingName(s, "hypercube", map[string]string{
		"ecube": "ecube", "dor": "ecube", "e-cube": "ecube",
		"ecube-random": "ecube-random", "ecube-random-start": "ecube-random",
	})
	if err != nil {
		return nil, err
	}
	n := 1 << d
	t := &Topology{
		Switches: newSwitches(n, d+1),
		InSwitch: make([]int32, n),
		InPort:   make([]int32, n),
		Radix:    2,
		Digits:   d,
	}
	for i := range t.Switches {
		sw := &t.Switches[i]
		sw.Label = fmt.Sprintf("n%d", i)
		for j := 0; j < d; j++ {
			sw.Out[j] = End{Switch: int32(i ^ 1<<j), Port: int32(j), Terminal: -1}
		}
		sw.Out[d] = End{Switch: -1, Terminal: int32(i)}
		t.InSwitch[i] = int32(i)
		t.InPort[i] = int32(d)
	}
	t.PortNames = make([]string, d+1)
	for j := 0; j < d; j++ {
		t.PortNames[j] = fmt.Sprintf("d%d", j)
	}
	t.PortNames[d] = "local"
	r := &ecubeRouter{d: d, order: order, random: name == "ecube-random", name: name}
	if !r.random && !isIdentity(order) {
		r.name = name + " order=" + joinInts(order)
	}
	t.Router = r
	return t, nil
}

func isIdentity(o []int) bool {
	for i, x := range o {
		if x != i {
			return false
		}
	}
	return true
}

// ecubeRouter is e-cube routing on a hypercube: correct the bits in which the
// router and the destination differ, in dimension order `order`, or (random)
// in descending cyclic order from a per-packet random start dimension held in
// w.Aux.
type ecubeRouter struct {
	d      int
	order  []int
	random bool
	name   string
}

func (r *ecubeRouter) Name() string { return r.name }

func (r *ecubeRouter) Init(w *flit.Worm, rng *rand.Rand) {
	if r.random {
		w.Aux = uint64(rng.IntN(r.d))
	}
}

func (r *ecubeRouter) Route(sw, in int, w *flit.Worm) xbar.PortSet {
	diff := sw ^ int(w.Dst)
	if diff == 0 {
		return xbar.Port(r.d)
	}
	if r.random {
		j := int(w.Aux % uint64(r.d))
		for range r.d {
			if diff>>j&1 != 0 {
				return xbar.Port(j)
			}
			if j--; j < 0 {
				j = r.d - 1
			}
		}
		return 0
	}
	for _, j := range r.order {
		if diff>>j&1 != 0 {
			return xbar.Port(j)
		}
	}
	return 0
}

// buildMeshTorus wires a k-ary n-mesh or n-torus. Node id = Σ x_i k^i.
// Port 2i leads toward x_i−1 and port 2i+1 toward x_i+1; a link leaving port
// 2i+1 arrives on the neighbour's port 2i and vice versa. Port 2n is local.
// Mesh edge ports are unconnected (End{Switch: -1, Terminal: -1}).
func buildMeshTorus(s Spec, torus bool) (*Topology, error) {
	kind := "mesh"
	if torus {
		kind = "torus"
	}
	k, n := s.K, s.N
	if k < 2 || k > MaxTerminals {
		return nil, inputerr.New("topology.k", itoa(k), "an integer from 2 to %d (nodes per dimension)", MaxTerminals)
	}
	maxN := 0
	for p := 1; p*k <= MaxTerminals && maxN < 31; p *= k {
		maxN++
	}
	if n < 1 || n > maxN {
		return nil, inputerr.New("topology.n", itoa(n), "an integer from 1 to %d for k = %d (k^n ≤ %d terminals, router radix 2n+1 ≤ %d)", maxN, k, MaxTerminals, xbar.MaxPorts)
	}
	order, err := checkOrder(s.Order, n)
	if err != nil {
		return nil, err
	}
	name, err := routingName(s, kind, map[string]string{"dor": "dor", "dimension-order": "dor", "xy": "dor"})
	if err != nil {
		return nil, err
	}
	pow := make([]int, n+1)
	pow[0] = 1
	for i := 1; i <= n; i++ {
		pow[i] = pow[i-1] * k
	}
	nodes := pow[n]
	ports := 2*n + 1
	t := &Topology{
		Switches: newSwitches(nodes, ports),
		InSwitch: make([]int32, nodes),
		InPort:   make([]int32, nodes),
		Radix:    k,
		Digits:   n,
	}
	var b strings.Builder
	for id := range t.Switches {
		sw := &t.Switches[id]
		b.Reset()
		b.WriteString("r(")
		for i := 0; i < n; i++ {
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
	r := &dorRouter{k: k, n: n, torus: torus, order: order, name: name}
	// Coordinates are precomputed: Route runs per head flit, and integer
	// division would dominate its cost.
	r.coord = make([]int32, t.Terminals()*n)
	for v := 0; v < t.Terminals(); v++ {
		for i := 0; i < n; i++ {
			r.coord[v*n+i] = int32(v / pow[i] % k)
		}
	}
	if r.nodes = t.Terminals(); r.nodes <= tableNodes {
		r.port = make([]uint8, r.nodes*r.nodes)
		for sw := range r.nodes {
			for dst := range r.nodes {
				r.port[sw*r.nodes+dst] = uint8(r.portTo(sw, dst))
			}
		}
	}
	if !isIdentity(order) {
		r.name = name + " order=" + joinInts(order)
	}
	t.Router = r
	return t, nil
}

// dorRouter is dimension-order routing on a mesh or torus: correct the
// coordinates in `order`; in a torus take the shorter way round, and on a
// tie (distance k/2) go +.
type dorRouter struct {
	k, n  int
	torus bool
	order []int
	coord []int32 // coordinate i of node v at v*n+i
	name  string
	nodes int
	port  []uint8 // port at sw towards dst at sw*nodes+dst (≤ tableNodes nodes), or nil
}

func (r *dorRouter) Name() string { return r.name }

func (r *dorRouter) Init(*flit.Worm, *rand.Rand) {}

func (r *dorRouter) Route(sw, in int, w *flit.Worm) xbar.PortSet {
	if r.port != nil {
		return xbar.Port(int(r.port[sw*r.nodes+int(w.Dst)]))
	}
	return xbar.Port(r.portTo(sw, int(w.Dst)))
}

// portTo is the output port at switch sw towards node dst.
func (r *dorRouter) portTo(sw, dst int) int {
	if sw == dst {
		return 2 * r.n
	}
	cs, cd := r.coord[sw*r.n:sw*r.n+r.n], r.coord[dst*r.n:dst*r.n+r.n]
	for _, i := range r.order {
		x, d := int(cs[i]), int(cd[i])
		if x == d {
			continue
		}
		// The direction is computed, not branched on (it is a coin toss
		// to the CPU): + when the destination lies ahead (on a torus,
		// within half the ring ahead).
		up := d > x
		if r.torus {
			delta := d - x + r.k&-b2i(d < x)
			up = 2*delta <= r.k
		}
		return 2*i + b2i(up)
	}
	return 0
}

// tableNodes is the most nodes for which Route looks its answer up in a
// table (nodes² bytes: 64 KiB) instead of comparing coordinates: a head's
// next port is then one load, with none of the jumps on coordinates the
// CPU cannot predict.
const tableNodes = 256

// b2i is 1 for true and 0 for false (a flag move, no jump).
func b2i(c bool) int {
	var i int
	if c {
		i = 1
	}
	return i
}
