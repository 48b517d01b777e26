package iq_test

import (
	"strings"
	"testing"

	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/switch/iq"
	"github.com/flitsim/flitsim/switch/model"
)

func init() {
	model.Register(model.Info{Name: "iq-noescape", New: iq.NewNoEscape, VCs: true,
		Desc: "the iq router without the escape VCs of routing: adaptive (a test's)"})
}

// escapeTorus is the 8×8 torus of iq routers (3 VCs of 8 flits: the
// dateline's two escape VCs and one adaptive) under adaptive routing,
// bit-complement traffic of 16-flit packets at load 0.9, for 5000 cycles,
// checking for deadlock in every cycle.
func escapeTorus(modelName string) network.Config {
	c := network.Default()
	vcs := 3
	c.Topology = network.TopologyConfig{Kind: "torus", K: 8, N: 2}
	c.Router.Model, c.Buffers.VCs, c.Buffers.Input, c.Routing = modelName, &vcs, 8, "adaptive"
	c.Traffic.Load, c.Traffic.Flits, c.Traffic.Pattern = 0.9, network.FlitRange{Min: 16, Max: 16}, "bit-complement"
	c.Run.Warmup, c.Run.Measure, c.Run.Drain, c.Run.MaxBacklog, c.Run.DeadlockCheck = 0, 5000, 0, 0, 1
	return c
}

// Under adaptive routing the packets' waits on adaptive VCs close cycles
// that only Duato's escape VCs break: the run goes on, and the checks
// count them (Result.EscapedCycles) and name the first — the packets, their
// VCs, and the escape VC that is the way out.
func TestEscapedCycles(t *testing.T) {
	r := run(t, escapeTorus("iq"))
	e := r.EscapedCycles
	if r.Deadlock != nil || e == nil || e.Count == 0 || e.First == nil {
		t.Fatalf("deadlock %+v, escaped %+v", r.Deadlock, e)
	}
	f := e.First
	if len(f.Worms) < 2 || len(f.Resources) != len(f.Worms) || !strings.Contains(f.Escape, " may take escape VC ") {
		t.Fatalf("first escaped cycle %+v", f)
	}
	for _, res := range f.Resources {
		if !strings.Contains(res, " waits for output VC ") || !strings.Contains(res, " vc ") {
			t.Fatalf("a wait in the cycle is not one on a VC: %q", res)
		}
	}
	if again := run(t, escapeTorus("iq")); again.EscapedCycles.Count != e.Count {
		t.Fatalf("one seed, two counts: %d, %d", e.Count, again.EscapedCycles.Count)
	}
}

// The same run without the escape path deadlocks, and is reported: the
// escape VCs are what broke the cycles.
func TestNoEscapeDeadlocks(t *testing.T) {
	r := run(t, escapeTorus("iq-noescape"))
	if r.Deadlock == nil || r.Status != network.StatusDeadlock {
		t.Fatalf("without escape VCs: status %s, no deadlock", r.Status)
	}
}

// Without an escape routing there is nothing to count: no field.
func TestEscapedCyclesOnlyWithEscapeVCs(t *testing.T) {
	c := escapeTorus("iq")
	c.Routing, c.Run.Measure = "dor-dateline", 500
	if r := run(t, c); r.EscapedCycles != nil {
		t.Fatalf("dor-dateline: escaped cycles %+v", r.EscapedCycles)
	}
}
