package topology

import (
	"fmt"
	"math/rand/v2"

	"github.com/flitsim/flitsim/flit"
	xbar "github.com/flitsim/flitsim/switch"
)

// The binary hypercube: one router per terminal, router i serves terminal i.

func init() {
	Register(KindSpec{
		Name: "hypercube",
		Desc: "binary d-cube, 2^d routers each with one terminal; ecube corrects differing bits in `order` (alias dor); ecube-random starts at a random dimension per packet and goes in descending cyclic order (alias ecube-random-start)",
		Params: []Param{
			{Key: "d", Default: "4", Allowed: fmt.Sprintf("an integer from 1 to 20 (2^d ≤ %d terminals)", MaxTerminals),
				Desc: "dimension: 2^d nodes",
				Check: func(s Spec) string {
					if s.D < 1 || s.D > 20 {
						return fmt.Sprintf("an integer from 1 to 20 (2^d ≤ %d terminals)", MaxTerminals)
					}
					return ""
				}},
			orderParam(func(s Spec) int { return s.D }),
		},
		Routings: []Routing{
			{Name: "ecube", Aliases: []string{"dor", "e-cube"}, New: newEcube(false),
				Desc: "correct the differing address bits in topology.order"},
			{Name: "ecube-random", Aliases: []string{"ecube-random-start"}, New: newEcube(true),
				Desc: "correct them in descending cyclic order from a random start dimension per packet"},
		},
		Build: buildHypercube,
		Size:  func(s Spec) Size { return uniform(1<<s.D, s.D+1) },
	})
}

// buildHypercube wires a binary d-cube. Port j (0 ≤ j < d) of node i leads
// along dimension j to node i^(1<<j), arriving on its port j; port d is local.
func buildHypercube(s Spec) (*Topology, error) { return wireCube(s.D, nil), nil }

// wireCube wires the binary d-cube (port j < d of node i to port j of
// i^(1<<j), named dj), then the extra ports, named by extra and wired by the
// caller (the folded cube's complement link), then the local port.
func wireCube(d int, extra []string) *Topology {
	n := 1 << d
	local := d + len(extra)
	t := &Topology{
		Switches: newSwitches(n, local+1),
		InSwitch: make([]int32, n),
		InPort:   make([]int32, n),
		Radix:    2,
		Digits:   d,
	}
	numberLabels(t.Switches, "n")
	for i := range t.Switches {
		sw := &t.Switches[i]
		for j := 0; j < d; j++ {
			sw.Out[j] = End{Switch: int32(i ^ 1<<j), Port: int32(j), Terminal: -1}
		}
		sw.Out[local] = End{Switch: -1, Terminal: int32(i)}
		t.InSwitch[i] = int32(i)
		t.InPort[i] = int32(local)
	}
	t.PortNames = make([]string, local+1)
	for j := 0; j < d; j++ {
		t.PortNames[j] = fmt.Sprintf("d%d", j)
	}
	copy(t.PortNames[d:], extra)
	t.PortNames[local] = "local"
	return t
}

// newEcube builds e-cube routing in s's order, or (random) from a random
// start dimension.
func newEcube(random bool) func(*Topology, Spec) (Router, error) {
	return func(_ *Topology, s Spec) (Router, error) {
		order := orderOf(s.Order, s.D)
		r := &ecubeRouter{d: s.D, order: order, random: random, ident: isIdentity(order), name: "ecube"}
		if random {
			r.name = "ecube-random"
		} else if !isIdentity(order) {
			r.name += " order=" + joinInts(order)
		}
		return r, nil
	}
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
	ident  bool // order is 0, 1, …, d−1 (Path)
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
