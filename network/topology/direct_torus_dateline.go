package topology

import "github.com/flitsim/flitsim/flit"

// ClassRouter is a Router whose packets take their virtual channels from
// classes that change along the path (a dateline): a switch model with
// virtual channels (router.model: iq) splits each input's channels into
// Classes() equal shares, class c taking share c, and asks Class which
// share a head must take in the buffer its output port leads to.
type ClassRouter interface {
	Router
	// Classes is the number of classes the routing needs; it needs at
	// least that many virtual channels.
	Classes() int
	// Class is the class of the buffer that output port out of switch sw
	// leads to, for the head of packet w that arrived on input port in in
	// class cls: cls < 0 when the head holds no VC of the routing's
	// classes (an adaptive VC: it enters them as if injected at sw).
	Class(sw, in, out, cls int, w *flit.Worm) int
}

// newDateline is dimension-order routing on a torus with a dateline on
// two VC classes, read as Dally & Towles (Principles and Practices of
// Interconnection Networks, §14.2) and BookSim's dim_order_torus do: a
// packet takes its class for a dimension when it enters it, class 1 when
// its way round that ring will cross the wraparound link (between nodes
// side−1 and 0), class 0 otherwise, and keeps it until it leaves the
// dimension. Class 0 never uses a wraparound link; class 1 holds only
// packets whose minimal way (at most half the ring) includes it, so no
// packet on class 1 covers the links opposite the wraparound: neither
// class's channels close a cycle on a ring, and dimension order keeps the
// dimensions acyclic: deadlock-free with two virtual channels.
//
// (flitsim first moved a packet to class 1 only on the wraparound link
// itself, deadlock-free too; but under tornado traffic on the 8×8 torus it
// accepted 0.050 flits/node/cycle past saturation where BookSim2 accepts
// 0.087 and this reading 0.124 (docs/vc.md), and with adaptive routing,
// whose packets re-enter the escape VCs past the wraparound on class 0,
// it closed a cycle in Duato's extended channel dependencies: class 0 up
// to the wraparound, class 1 across it, class 0 again beyond.)
func newDateline(t *Topology, s Spec) (Router, error) {
	r, err := newDOR(t, s)
	if err != nil {
		return nil, err
	}
	d := r.(*dorRouter)
	d.name = "dor-dateline" + d.name[len("dor"):]
	return &datelineRouter{dorRouter: d}, nil
}

type datelineRouter struct{ *dorRouter }

func (r *datelineRouter) Classes() int { return 2 }

func (r *datelineRouter) Class(sw, in, out, cls int, w *flit.Worm) int {
	return r.classTo(sw, in, out, cls, int(w.Dst))
}

// classTo is Class for a packet bound for node dst (a leg's end).
func (r *datelineRouter) classTo(sw, in, out, cls, dst int) int {
	if out >= 2*r.n {
		return 0 // ejection: no virtual channels
	}
	i := out / 2
	if cls >= 0 && in < 2*r.n && in/2 == i {
		return cls // on along the dimension: the class it entered on
	}
	x, d := r.coord[sw*r.n+i], r.coord[dst*r.n+i]
	if out&1 == 1 && d < x || out&1 == 0 && d > x {
		return 1 // its way round crosses the wraparound link
	}
	return 0
}
