package collective

import "github.com/flitsim/flitsim/internal/kernel"

// meshPMNB is one mesh PMNB (§3.4, digest §5.7–5.9) loaded on the router:
// its schedule from slot 0 and its delivery check. The static task runs one
// (setupPMNB); dynamic broadcasting one per period (dynamic_mesh.go).
type meshPMNB struct {
	sched *meshSched
	ck    *checker
	end   int64 // the schedule's last slot + 1 (prefix, packing, broadcast)
	split int64 // router slots per time unit
	round int64 // slots per broadcast round (R)
	mc    int   // packets per class (M')
}

// newMeshPMNB loads the PMNB of the active nodes act (sorted) by algorithm
// alg (a0, split or nosplit), with the rank computation on the router
// first when tp > 0.
func newMeshPMNB(k *kernel.Kernel, g *grid, act []int, alg string, tp int) *meshPMNB {
	halves, ring, classes := meshPMNBShape(g, alg)
	pk := &meshPackets{}
	sched := &meshSched{pk: pk}
	members := meshPMNBMembers(g, act, alg, classes)
	lens, round, mc := meshPMNBLens(g, alg, ring, len(act))
	split := int64(halves * classes)
	if alg == "nosplit" {
		split = 1
	}
	var start int64
	if tp > 0 {
		sched.pre = meshRanks(g, act, alg, members, int64(tp)*split)
		start = sched.pre.slots()
	}
	end := meshPMNBClasses(g, sched, members, lens, halves, ring, start)
	ck := meshPMNBPlace(k, g, sched)
	if sched.pre != nil {
		sched.pre.base = len(pk.origin)
		sched.pre.load(k)
	}
	return &meshPMNB{sched: sched, ck: ck, end: end, split: split, round: round, mc: mc}
}
