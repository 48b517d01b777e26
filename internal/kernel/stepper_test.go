package kernel

import (
	"strings"
	"testing"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/network/topology"
	xbar "github.com/flitsim/flitsim/switch"
)

// recorder is a switch model for the seam's test: the general flit crossbar
// under another name, counting what the kernel asks of it.
type recorder struct {
	generalStepper
	nSteps, nMoves, nRules *int
}

func (r recorder) step(k *Kernel) { *r.nSteps++; r.generalStepper.step(k) }

func (r recorder) moves(k *Kernel, b int32) bool {
	*r.nMoves++
	return r.generalStepper.moves(k, b)
}

func (r recorder) rule(k *Kernel, b int32, h *holds) bool {
	*r.nRules++
	return r.generalStepper.rule(k, b, h)
}

// TestSwitchModelSeam: a switch model registered in switchModels is the
// one a kernel built with its name steps; the kernel's injection, ejection
// and statistics carry its packets, and the deadlock detector and the
// tracer ask it (not the flit crossbar) which flits move and what blocked
// ones wait for. An unknown model is refused with the names allowed.
func TestSwitchModelSeam(t *testing.T) {
	var steps, moves, rules int
	switchModels["test-recorder"] = func(*Kernel) Stepper { return recorder{nSteps: &steps, nMoves: &moves, nRules: &rules} }
	defer delete(switchModels, "test-recorder")
	topo, err := topology.Build(topology.Spec{Kind: "mesh", K: 4, N: 2, Routing: "dor"})
	if err != nil {
		t.Fatal(err)
	}
	spec := KernelSpec{Mode: xbar.Wormhole, InDepth: 2, Latency: 1, Reuse: true, Policy: xbar.RoundRobin, Seed: 1, Model: "test-recorder"}
	k, err := NewKernel(topo, spec)
	if err != nil {
		t.Fatal(err)
	}
	k.CollectStats(0, 1<<40, false)
	delivered := 0
	k.Hooks.Delivered = func(*flit.Worm, int64) { delivered++ }
	for src := range 15 {
		k.Enqueue(src, 15, 8) // all to one corner: worms block one another
	}
	for i := 0; i < 1000 && !k.Idle(); i++ {
		k.CheckDeadlock = true
		k.Step()
	}
	if delivered != 15 || k.Stats().Counts().DeliveredPackets != 15 || k.Deadlock != nil {
		t.Fatalf("delivered %d (statistics %d), deadlock %v", delivered, k.Stats().Counts().DeliveredPackets, k.Deadlock)
	}
	if steps != int(k.Now()) || moves == 0 || rules == 0 {
		t.Fatalf("%d cycles, the model stepped %d; the detector asked it %d times which flits move and %d times what they wait for", k.Now(), steps, moves, rules)
	}
	spec.Model = "no-such-model"
	if _, err := NewKernel(topo, spec); err == nil || !strings.Contains(err.Error(), "flit-crossbar") {
		t.Fatalf("unknown model: %v", err)
	}
}
