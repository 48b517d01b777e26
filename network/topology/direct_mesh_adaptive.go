package topology

import (
	"github.com/flitsim/flitsim/flit"
	xbar "github.com/flitsim/flitsim/switch"
)

// AdaptiveRouter is a Router whose Route gives every port a packet may
// take (minimal adaptive routing) and Escape the one port of a
// deadlock-free routing on which it may always fall back: a VC router
// keeps EscapeVCs() of each input's VCs for the escape routing and lets the
// others take any port Route gives (Duato's escape channels).
type AdaptiveRouter interface {
	Router
	Escape(sw, in int, w *flit.Worm) int
	EscapeVCs() int
}

// newAdaptive is minimal adaptive routing on the mesh with DOR as the
// escape routing (Duato): any port that brings the packet nearer, and
// VC 0 kept for dimension order, whose channels have no cycle, so a packet
// blocked on the adaptive VCs can always go on in order (Dally & Towles
// §14.3; BookSim's min_adapt_mesh).
func newAdaptive(t *Topology, s Spec) (Router, error) {
	r, err := newDOR(t, s)
	if err != nil {
		return nil, err
	}
	d := r.(*dorRouter)
	d.name = "adaptive" + d.name[len("dor"):]
	return &adaptiveRouter{dorRouter: d}, nil
}

type adaptiveRouter struct{ *dorRouter }

func (r *adaptiveRouter) EscapeVCs() int { return 1 }

func (r *adaptiveRouter) Escape(sw, in int, w *flit.Worm) int {
	return r.dorRouter.Route(sw, in, w).First()
}

// Route gives the productive ports: in each dimension whose coordinate is
// not yet the destination's, the one toward it (the local port at the
// destination).
func (r *adaptiveRouter) Route(sw, in int, w *flit.Worm) xbar.PortSet {
	dst := int(w.Dst)
	if sw == dst {
		return xbar.Port(2 * r.n)
	}
	var ps xbar.PortSet
	cs, cd := r.coord[sw*r.n:sw*r.n+r.n], r.coord[dst*r.n:dst*r.n+r.n]
	for i := range r.n {
		if cs[i] != cd[i] {
			ps |= xbar.Port(2*i + b2i(cd[i] > cs[i]))
		}
	}
	return ps
}

// newTorusAdaptive is minimal adaptive routing on the torus with dateline
// DOR as the escape routing: any port on a shortest way (both ways round
// at half a ring), and VCs 0 and 1 kept for dimension order on its two
// dateline classes (a ClassRouter too: Class is the escape VCs' class).
func newTorusAdaptive(t *Topology, s Spec) (Router, error) {
	r, err := newDateline(t, s)
	if err != nil {
		return nil, err
	}
	d := r.(*datelineRouter)
	d.name = "adaptive" + d.name[len("dor-dateline"):]
	return &torusAdaptive{datelineRouter: d}, nil
}

type torusAdaptive struct{ *datelineRouter }

func (r *torusAdaptive) EscapeVCs() int { return 2 }

func (r *torusAdaptive) Escape(sw, in int, w *flit.Worm) int {
	return r.dorRouter.Route(sw, in, w).First()
}

// Route gives the ports on a shortest way: in each dimension not yet
// corrected, the direction whose way round is shorter, or both at half a
// ring.
func (r *torusAdaptive) Route(sw, in int, w *flit.Worm) xbar.PortSet {
	dst := int(w.Dst)
	if sw == dst {
		return xbar.Port(2 * r.n)
	}
	var ps xbar.PortSet
	cs, cd := r.coord[sw*r.n:sw*r.n+r.n], r.coord[dst*r.n:dst*r.n+r.n]
	for i := range r.n {
		if cs[i] == cd[i] {
			continue
		}
		k := r.sides[i]
		up := (int(cd[i]) - int(cs[i]) + k) % k // hops the + way
		if 2*up <= k {
			ps |= xbar.Port(2*i + 1)
		}
		if 2*up >= k {
			ps |= xbar.Port(2 * i)
		}
	}
	return ps
}
