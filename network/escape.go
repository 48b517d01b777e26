package network

import "github.com/flitsim/flitsim/network/topology"

// EscapedCycles is Result.EscapedCycles: under an adaptive routing with
// escape VCs (routing: adaptive), the deadlock checks (every
// run.deadlock_check cycles, and any cycle in which no flit moved) that
// found packets waiting in a cycle on adaptive VCs which only an escape VC
// broke, and the first such cycle.
type EscapedCycles struct {
	Count int64         `json:"count"`
	First *EscapedCycle `json:"first"`
}

// escapeResult fills Result.EscapedCycles for a routing with escape VCs on
// a model that reports them (nil otherwise: nothing to break).
func (n *Network) escapeResult(r *Result) {
	ar, ok := n.k.Topo.Router.(topology.AdaptiveRouter)
	if !ok || ar.EscapeVCs() == 0 || n.Cfg.Router.Model == "" {
		return
	}
	count, first := n.k.EscapedCycles()
	r.EscapedCycles = &EscapedCycles{Count: count, First: first}
}
