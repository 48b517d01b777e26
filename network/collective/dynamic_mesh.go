package collective

import (
	"fmt"

	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network/topology"
)

// meshDyn is the p-ary d-dimensional array's (γ = 1) or torus's (γ = 2)
// PMNB as the dynamic scheme runs it (Varvarigos §4.5, digest 000a §6.7):
// the split algorithm of Theorem 6 (§3.4.1; mesh_pmnb.go with alg split) —
// each packet split into d classes of mini-packets, class c carried out by
// 𝒜_c, and on the torus each halved for the two ring directions — on each
// period's active set, from slot 0. The router runs one slot per 1/(γd)
// time unit.
//
// Its bound is X·M + V with X = (N−1)/(γdN) (4.16) and V = 2d(p−1)t_p +
// (1 + 1/γ)(p−1) (4.17): Theorem 6's (3.9)/(3.10), the reservation interval
// being the rank computation (2d(p−1) prefix hops of t_p, counted, not run
// on the router) and the packing ((p−1) time units), the broadcast's
// rounding ((p−1)/γ) lumped into V. The load is ρ = λ(N−1)/(γd) (4.18).
type meshDyn struct {
	g   *grid
	tp  float64
	cur *meshPMNB
}

func newMeshDyn(spec topology.Spec, net *Net, tp float64, torus bool) (dynPMNB, error) {
	g, err := newGrid(net, spec.K, spec.N, torus)
	if err != nil {
		return nil, err
	}
	return &meshDyn{g: g, tp: tp}, nil
}

func (f *meshDyn) gamma() int {
	if f.g.torus {
		return 2
	}
	return 1
}

// Split is the router slots per time unit: γd (Theorem 6's mini-packets).
func (f *meshDyn) Split() int { return f.gamma() * f.g.d }

func (f *meshDyn) Bound() Eq41 {
	p, d, n, gm := float64(f.g.p), float64(f.g.d), f.g.N, float64(f.gamma())
	return Eq41{N: n, X: float64(n-1) / (gm * d * float64(n)), V: 2*d*(p-1)*f.tp + (1+1/gm)*(p-1)}
}

// Prefix is the rank computation: 2d(p−1) hops of t_p (§3.4.1).
func (f *meshDyn) Prefix() float64 { return 2 * float64(f.g.d*(f.g.p-1)) * f.tp }

func (f *meshDyn) Describe() string {
	kind := "array"
	if f.g.torus {
		kind = "torus"
	}
	return fmt.Sprintf("%d-ary %d-dimensional %s, the split PMNB of Theorem 6 (§3.4.1, §4.5): %s", f.g.p, f.g.d, kind, meshAlgText(f.g, "split"))
}

// Period loads the active nodes' packets and returns the split PMNB; its
// length is its phase clock: packing d(p−1)·halves slots, broadcast
// subphases (p−1)·⌈M/p^{d−l+1}⌉ (every node knows M from the prefix).
func (f *meshDyn) Period(k *kernel.Kernel, active []int) (kernel.SlotScheduler, int64) {
	f.cur = newMeshPMNB(k, f.g, active, "split", 0)
	// (a worm-view schedule: the proxy fills the view from the store)
	return &proxy{SlotScheduler: f.cur.sched, pk: k.ScheduledPackets()}, f.cur.end
}

// Settle tallies the period's deliveries; a packet still travelling when
// its subphase ended (a schedule error) counts as stray.
func (f *meshDyn) Settle(active []int) (missing, dup, stray int64) {
	missing, dup, stray, _ = f.cur.ck.tally()
	over, _ := f.cur.sched.overrun()
	return missing, dup, stray + int64(over)
}

func (f *meshDyn) prefixText() string { return "2d(p−1)·t_p" }
