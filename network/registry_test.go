package network

import (
	"path/filepath"
	"testing"

	"github.com/flitsim/flitsim/flit"

	"github.com/flitsim/flitsim/network/topology"
)

// TestEveryRegisteredKindRuns runs every registered topology kind, built
// from its declared defaults, with each of its routing functions, at a low
// load in the kernel, and checks that every measured packet arrives with
// the invariants intact.
func TestEveryRegisteredKindRuns(t *testing.T) {
	for _, k := range topology.Kinds() {
		spec, err := k.Defaults()
		if err != nil {
			t.Fatal(err)
		}
		if spec.File != "" {
			// A topology file's default is a path from the repository's root.
			spec.File = filepath.Join("..", spec.File)
		}
		for _, r := range k.Routings {
			c := Default()
			c.Topology = spec
			c.Routing = r.Name
			c.Traffic.Load = 0.05
			c.Run.Warmup, c.Run.Measure, c.Run.Drain = 100, 400, 5000
			c.Run.Workers = 1
			if crossesALinkTwice(t, spec, r.Name) {
				// A worm crossing a link twice (the d-shuffle's and the
				// shuffle-exchange's standard routes round a self-loop) can
				// wait for the link its own tail holds: one-flit packets.
				c.Traffic.Flits = FlitRange{1, 1}
			}
			if v, iq := classesOf(t, spec, r.Name); iq {
				// A routing on VC classes (a dateline) or adaptive (one
				// port of several per head) runs on the VC router.
				c.Router.Model, c.Buffers.VCs = "iq", &v
			}
			res, err := Run(c)
			if err != nil {
				t.Fatalf("%s/%s: %v", k.Name, r.Name, err)
			}
			t.Logf("%s/%s: %d terminals, %d measured", k.Name, r.Name, res.Terminals, res.MeasuredPackets)
			if res.MeasuredPackets == 0 || res.MeasuredDelivered != res.MeasuredPackets || res.Deadlock != nil ||
				res.Violations.Total() != 0 {
				t.Errorf("%s/%s: delivered %d of %d, deadlock %v, violations %+v",
					k.Name, r.Name, res.MeasuredDelivered, res.MeasuredPackets, res.Deadlock, res.Violations)
			}
		}
	}
}

// classesOf is the number of VCs routing needs on spec (1: no classes,
// no escape VCs) and whether it needs the VC router.
func classesOf(t *testing.T, spec topology.Spec, routing string) (int, bool) {
	spec.Routing = routing
	topo, err := topology.Build(spec)
	if err != nil {
		t.Fatal(err)
	}
	if ar, ok := topo.Router.(topology.AdaptiveRouter); ok {
		return ar.EscapeVCs() + 1, true
	}
	if cr, ok := topo.Router.(topology.ClassRouter); ok {
		return cr.Classes(), cr.Classes() > 1
	}
	return 1, false
}

// crossesALinkTwice reports whether some route of spec under routing leaves
// a router by the same output port twice.
func crossesALinkTwice(t *testing.T, spec topology.Spec, routing string) bool {
	spec.Routing = routing
	topo, err := topology.Build(spec)
	if err != nil {
		t.Fatal(err)
	}
	for src := range topo.Terminals() {
		for dst := range topo.Terminals() {
			hops, err := topology.Trace(topo, &flit.Worm{Src: int32(src), Dst: int32(dst)})
			if err != nil {
				t.Fatal(err)
			}
			seen := map[[2]int]bool{}
			for _, h := range hops {
				if seen[[2]int{h.Switch, h.Out}] {
					return true
				}
				seen[[2]int{h.Switch, h.Out}] = true
			}
		}
	}
	return false
}
