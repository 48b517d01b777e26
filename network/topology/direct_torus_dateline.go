package topology

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
	// leads to, for a head that arrived on input port in in class cls
	// (class 0 on the injection port).
	Class(sw, in, out, cls int) int
}

// newDateline is dimension-order routing on a torus with Dally and Seitz's
// dateline: a packet enters each dimension on class 0 and moves to class 1
// when it crosses the ring's wraparound link (between nodes side−1 and 0),
// staying there until it leaves the dimension. Class 0 never uses a
// wraparound link and class 1 holds only packets past it, so neither
// class's channels close a cycle on a ring, and dimension order keeps the
// dimensions acyclic: deadlock-free with two virtual channels (Dally &
// Towles, Principles and Practices of Interconnection Networks, §14.2).
// (BookSim's dim_order_torus instead fixes the class when the packet enters
// the dimension: 1 when its way round will cross the wraparound link.)
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

func (r *datelineRouter) Class(sw, in, out, cls int) int {
	if out >= 2*r.n {
		return 0 // ejection: no virtual channels
	}
	i := out / 2
	if in >= 2*r.n || in/2 != i {
		cls = 0 // entering dimension i
	}
	x := int(r.coord[sw*r.n+i])
	if out&1 == 1 && x == r.sides[i]-1 || out&1 == 0 && x == 0 {
		cls = 1 // the wraparound link
	}
	return cls
}
