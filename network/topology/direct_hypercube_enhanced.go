package topology

import (
	"math/bits"
	"math/rand/v2"

	"github.com/flitsim/flitsim/flit"
	xbar "github.com/flitsim/flitsim/switch"
)

// The enhanced cube E_d (Varvarigos 1992 Definition 2, §7.2): the binary
// d-cube plus one unidirectional extra link per node, to a node drawn
// uniformly from all 2^d (the link string *…*: itself or a cube
// neighbour included). The folded cube is the member whose extra links
// all go to s ⊕ 1…1. Ports 0..d−1 are the cube's, port d the extra link,
// port d+1 the terminal; extra in-links beyond the first arrive on ports
// d+2, ….

func init() {
	Register(KindSpec{
		Name:   "enhanced-cube",
		Desc:   "random enhanced cube E_d (Varvarigos 1992 §7.2): the d-cube plus one extra unidirectional link per node to a node drawn from run.seed",
		Params: []Param{cubeDParam(), orderParam(func(s Spec) int { return s.D })},
		Routings: []Routing{
			{Name: "greedy", New: newEnhanced(false),
				Desc: "to the neighbour (extra link included) at the smallest Hamming distance from the destination; on a tie a cube link, in topology.order"},
			{Name: "valiant", Aliases: []string{"one-phase-valiant"}, New: newEnhanced(true),
				Desc: "first hop over the source's extra link, then the cube's differing bits in topology.order (Valiant's scheme with one phase)"},
		},
		Build: buildEnhancedCube,
		Size:  func(s Spec) Size { return uniform(1<<s.D, s.D+3) }, // (in-degree varies)
	})
}

// enhancedCubeSalt separates the enhanced cube's draws.
const enhancedCubeSalt = 0x454e_4843_5542 // "ENHCUB"

func buildEnhancedCube(s Spec) (*Topology, error) {
	d := s.D
	rng := classRNG(s, enhancedCubeSalt)
	out := make([][]int32, 1<<d)
	for v := range out {
		out[v] = make([]int32, d+1)
		for j := range d {
			out[v][j] = int32(v ^ 1<<j)
		}
		out[v][d] = int32(rng.IntN(1 << d))
	}
	return buildDirected(d, d+1, out, append(dimNames(d), "x"), s.Seed)
}

func newEnhanced(valiant bool) func(*Topology, Spec) (Router, error) {
	return func(t *Topology, s Spec) (Router, error) {
		r := &enhancedRouter{d: s.D, order: orderOf(s.Order, s.D), valiant: valiant, name: "greedy",
			extra: make([]int32, len(t.Switches))}
		if valiant {
			r.name = "valiant"
		}
		if !isIdentity(r.order) {
			r.name += " order=" + joinInts(r.order)
		}
		for v := range t.Switches {
			r.extra[v] = t.Switches[v].Out[s.D].Switch
		}
		return r, nil
	}
}

// enhancedRouter routes on an enhanced cube. Greedy: the extra link when
// its far end is strictly nearer the destination in Hamming distance than
// a cube neighbour can be (h−1), else the first differing bit in order;
// every hop lowers the Hamming distance, so a route has at most d hops.
// Valiant: a packet entering from its terminal takes the extra link; from
// then on (any other input port, even back at the source) only cube links
// in order — the input port tells the phase, so Route stays pure. That
// route uses channels in the order extra, order[0], …: it cannot deadlock
// under wormhole. Greedy routes may (extra links join the cube's
// dimension order at any point).
type enhancedRouter struct {
	d       int
	order   []int
	valiant bool
	name    string
	extra   []int32 // extra[s]: the far end of s's extra link
}

func (r *enhancedRouter) Name() string                { return r.name }
func (r *enhancedRouter) Init(*flit.Worm, *rand.Rand) {}

func (r *enhancedRouter) Route(sw, in int, w *flit.Worm) xbar.PortSet {
	dst := int(w.Dst)
	if r.valiant && in == r.d+1 {
		return xbar.Port(r.d)
	}
	diff := sw ^ dst
	if diff == 0 {
		return xbar.Port(r.d + 1)
	}
	if !r.valiant && bits.OnesCount(uint(int(r.extra[sw])^dst)) < bits.OnesCount(uint(diff))-1 {
		return xbar.Port(r.d)
	}
	for _, j := range r.order {
		if diff>>j&1 != 0 {
			return xbar.Port(j)
		}
	}
	return 0
}
