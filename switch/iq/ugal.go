package iq

import "github.com/flitsim/flitsim/network/topology"

// UGAL (routing: ugal, topology.UGALRouter): the choice at the source
// between the minimal and the non-minimal route, and the VC class a
// packet takes by its leg.

// choose decides, for the head of packet wi routed at switch s on input
// in, minimal or non-minimal if s is its source: the route whose first
// port has fewer flits queued downstream (its used credits, BookSim's
// GetUsedCredit, over all the port's VCs) times its hop count, the
// minimal one on a tie.
func (r *router) choose(s, in int, wi int32) {
	w := r.h.Packet(wi)
	if int(r.t.InSwitch[w.Src]) != s || int(r.t.InPort[w.Src]) != in {
		return
	}
	mp, mh, np, nh, ok := r.ug.Options(s, w)
	r.ug.Choose(w, ok && r.queued(s, mp)*mh > r.queued(s, np)*nh)
}

// queued is the flits sent through output port o of switch s whose
// credits are not back.
func (r *router) queued(s, o int) int {
	ob := (r.base[s] + int32(o)) * int32(r.v)
	n := 0
	for u := range int32(r.v) {
		n += r.d - int(r.cred[ob+u])
	}
	return n
}

// ugalOf is the routing's UGALRouter, or nil.
func ugalOf(t *topology.Topology) topology.UGALRouter {
	ug, _ := t.Router.(topology.UGALRouter)
	return ug
}
