package topology

import (
	"math/rand/v2"

	"github.com/flitsim/flitsim/flit"
)

func init() {
	RegisterRouting("torus", Routing{Name: "rlb", New: newRLB,
		Desc: "load-balanced oblivious: each dimension the long way round with probability (its short distance)/k, through the long way's midpoint; ugal's two legs and four classes (buffers.vcs ≥ 4, router.model: iq)"})
}

// newRLB is load-balanced oblivious routing on the torus after Singh,
// Dally, Towles and Gupta's RLB (Dally & Towles ch. 9): in each dimension
// whose short way is Δ hops a packet goes the long way round (k − Δ hops)
// with probability Δ/k and the short way otherwise, which spreads a
// tornado's load over both directions of every ring (on the 8-ary
// 2-cube it allows 8/15 ≈ 0.53 flits/node/cycle where any minimal
// routing allows 1/3). RLB then routes through an intermediate node drawn
// uniformly in the quadrant the directions span; here the intermediate is
// the midpoint of each long way instead (and the source's coordinate in a
// dimension going the short way), so each of the two legs is a minimal
// dimension-order route of at most half a ring and runs on ugal's leg
// classes, deadlock-free with four VCs. (RLB's legs may exceed half a ring,
// which a dateline's two classes do not keep free of cycles; and drawn
// uniformly in the quadrant the intermediate cost tornado a third of
// the throughput on this router: docs/vc.md.) It is oblivious: the
// switch model's UGAL choice is not asked (Options says there is none)
// and every packet goes through its intermediate.
func newRLB(t *Topology, s Spec) (Router, error) {
	r, err := newDateline(t, s)
	if err != nil {
		return nil, err
	}
	d := r.(*datelineRouter)
	d.name = "rlb" + d.name[len("dor-dateline"):]
	return &rlbRouter{ugalRouter{datelineRouter: d}}, nil
}

type rlbRouter struct{ ugalRouter }

// Init draws the directions and keeps the intermediate above the tie bits
// in Aux, as ugal does.
func (r *rlbRouter) Init(w *flit.Worm, rng *rand.Rand) {
	r.datelineRouter.Init(w, rng)
	m, p := 0, 1
	s, d := int(w.Src), int(w.Dst)
	for i := range r.n {
		k := r.sides[i]
		x := int(r.coord[s*r.n+i])
		up := (int(r.coord[d*r.n+i]) - x + k) % k
		short, dir := up, 1
		if 2*up > k {
			short, dir = k-up, -1
		}
		if short > 0 && rng.IntN(k) < short {
			x = (x - dir*((k-short+1)/2) + k) % k // the long way's midpoint
		}
		m += x * p
		p *= k
	}
	w.Aux = w.Aux&(1<<32-1) | uint64(m)<<32
}

// Options offers no choice: the route is fixed at Init.
func (r *rlbRouter) Options(sw int, w *flit.Worm) (minPort, minHops, nonPort, nonHops int, ok bool) {
	p := r.portTo(sw, int(w.Dst), w.Aux)
	return p, 0, p, 0, false
}

// Choose sends every packet that goes the long way in some dimension
// through its intermediate, whatever it is told; the others (intermediate
// = source) go minimally, on the first leg's classes as ugal's minimal
// packets do, which keeps both class pairs in use.
func (r *rlbRouter) Choose(w *flit.Worm, _ bool) {
	w.Route.Phase = minimal
	if mid(w) != int(w.Src) {
		w.Route.Phase = toMid
	}
}
