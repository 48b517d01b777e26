package topology

import (
	"math/rand/v2"

	"github.com/flitsim/flitsim/flit"
	xbar "github.com/flitsim/flitsim/switch"
)

func init() {
	RegisterRouting("torus", Routing{Name: "ugal", New: newUGAL,
		Desc: "UGAL: at the source, dor-dateline minimal or Valiant through a random node, whichever has the shorter queue × hops; two dateline classes per phase (buffers.vcs ≥ 4, router.model: iq)"})
}

// UGALRouter is a routing that chooses at the packet's source between
// its minimal route and a non-minimal one (Singh's UGAL): the switch model
// weighs the two first ports' queues by the routes' hop counts and tells
// Choose which to take. The route state then says the packet's phase, and
// Class its VC class.
type UGALRouter interface {
	StatefulRouter
	ClassRouter
	// Options gives, at the packet's source switch sw, the first port and
	// the hop count of its minimal route and of its non-minimal one; ok
	// is false when there is no choice (the intermediate node is the
	// source or the destination).
	Options(sw int, w *flit.Worm) (minPort, minHops, nonPort, nonHops int, ok bool)
	// Choose fixes the packet's route: non-minimal or minimal.
	Choose(w *flit.Worm, nonMinimal bool)
}

// newUGAL is UGAL on the torus (Singh, Dally et al.; Dally & Towles
// §14.5 for Valiant): a packet either goes minimally by dimension order,
// or first to an intermediate node drawn uniformly when it is created and
// from there to its destination, each leg by dimension order. Each leg
// runs on dor-dateline's two classes, the minimal route and the leg
// toward the intermediate on classes 0 and 1, the leg from it on 2 and 3,
// so each set's channels close no cycle and the first set waits only on
// the second, never back: deadlock-free with four VCs, as BookSim's valiant_torus,
// whose VC split (phase × dateline) this follows. BookSim has no UGAL for
// the torus; its flattened butterfly's ugal compares used credits × hops
// at the source, as here.
func newUGAL(t *Topology, s Spec) (Router, error) {
	r, err := newDateline(t, s)
	if err != nil {
		return nil, err
	}
	d := r.(*datelineRouter)
	d.name = "ugal" + d.name[len("dor-dateline"):]
	return &ugalRouter{datelineRouter: d}, nil
}

type ugalRouter struct{ *datelineRouter }

// The route state's phase: minimal (zero, the state a packet starts in,
// unless Choose says otherwise), on the way to the intermediate node, on
// the way from it to the destination.
const (
	minimal = iota
	toMid
	fromMid
)

func (r *ugalRouter) Classes() int { return 4 }

// Init draws the intermediate node (kept above the tie bits in Aux).
func (r *ugalRouter) Init(w *flit.Worm, rng *rand.Rand) {
	r.datelineRouter.Init(w, rng)
	w.Aux = w.Aux&(1<<32-1) | uint64(rng.IntN(r.nodes))<<32
}

func mid(w *flit.Worm) int { return int(w.Aux >> 32) }

func (r *ugalRouter) Options(sw int, w *flit.Worm) (minPort, minHops, nonPort, nonHops int, ok bool) {
	m, dst := mid(w), int(w.Dst)
	minPort, minHops = r.portTo(sw, dst, w.Aux), r.hops(sw, dst)
	if m == sw || m == dst {
		return minPort, minHops, minPort, minHops, false
	}
	return minPort, minHops, r.portTo(sw, m, w.Aux), r.hops(sw, m) + r.hops(m, dst), true
}

func (r *ugalRouter) Choose(w *flit.Worm, nonMinimal bool) {
	w.Route.Phase = minimal
	if nonMinimal {
		w.Route.Phase = toMid
	}
}

// hops is the torus distance from a to b.
func (r *ugalRouter) hops(a, b int) int {
	h := 0
	for i := range r.n {
		k := r.sides[i]
		d := (int(r.coord[b*r.n+i]) - int(r.coord[a*r.n+i]) + k) % k
		h += min(d, k-d)
	}
	return h
}

func (r *ugalRouter) RouteHead(sw, in int, w *flit.Worm, st *flit.RouteState) xbar.PortSet {
	if st.Phase == toMid && sw == mid(w) {
		st.Phase = fromMid
	}
	return r.routeIn(sw, w, st.Phase)
}

// Route is RouteHead without advancing the state.
func (r *ugalRouter) Route(sw, in int, w *flit.Worm) xbar.PortSet {
	ph := w.Route.Phase
	if ph == toMid && sw == mid(w) {
		ph = fromMid
	}
	return r.routeIn(sw, w, ph)
}

func (r *ugalRouter) routeIn(sw int, w *flit.Worm, phase uint8) xbar.PortSet {
	if phase == toMid {
		return xbar.Port(r.portTo(sw, mid(w), w.Aux))
	}
	return r.dorRouter.Route(sw, 0, w)
}

// Class is the dateline class within the packet's leg (its state already
// advanced by RouteHead at sw), toward the leg's end: a minimal packet's
// and the first leg's 0 and 1, the second leg's 2 and 3; a packet that
// enters the second leg at the intermediate node (from classes 0 and 1)
// enters it as if injected there.
func (r *ugalRouter) Class(sw, in, out, cls int, w *flit.Worm) int {
	switch w.Route.Phase {
	case toMid:
		return r.classTo(sw, in, out, cls, mid(w))
	case fromMid: // (from classes 0 and 1, cls−2 < 0: entering the leg)
		return 2 + r.classTo(sw, in, out, cls-2, int(w.Dst))
	}
	return r.classTo(sw, in, out, cls, int(w.Dst))
}
