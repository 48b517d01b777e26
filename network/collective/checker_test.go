package collective

import (
	"errors"
	"testing"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network/topology"
	xbar "github.com/flitsim/flitsim/switch"
)

// The bitset checker counts missing, duplicate and stray deliveries
// exactly, with expected pairs listed or implied (every other node).
func TestCheckerCounts(t *testing.T) {
	for _, others := range []bool{false, true} {
		ck := newChecker(4)
		if others {
			ck = newCheckerOthers(4)
		}
		for v := 0; v < 4; v++ {
			for o := 0; o < 4; o++ {
				if o != v {
					ck.expect(v, o)
				}
			}
		}
		for v := 0; v < 4; v++ {
			for o := 0; o < 4; o++ {
				if o != v && !(v == 1 && o == 2) { // (1, 2) missing
					ck.got(v, o, true)
				}
			}
		}
		ck.got(3, 0, true)  // a duplicate
		ck.got(3, 0, true)  // the same pair again: still one duplicated pair
		ck.got(2, 1, true)  // another duplicated pair
		ck.got(2, 2, true)  // stray: not expected
		ck.got(0, 1, false) // stray: stopped short
		missing, dup, stray, got := ck.tally()
		if missing != 1 || dup != 2 || stray != 2 || got != 11 {
			t.Errorf("others %v: missing %d dup %d stray %d got %d, want 1 2 2 11", others, missing, dup, stray, got)
		}
	}
}

// countTracer counts the moves and deliveries a tracer sees.
type countTracer struct{ moves, delivered int }

func (c *countTracer) Granted(int64, int32, int32, int32, xbar.PortSet)           {}
func (c *countTracer) Move(int64, flit.Flit, int32, int32, int32, int64)          { c.moves++ }
func (c *countTracer) Blocked(int64, flit.Flit, int32, kernel.Wait, int32, int32) {}
func (c *countTracer) Delivered(int64, *flit.Worm, int32, int32)                  { c.delivered++ }
func (c *countTracer) EndCycle(int64)                                             {}

// With a tracer attached, scheduled packets are materialised as worm
// records: the tracer sees every hop and every delivery, and the run is
// the same as without one.
func TestScheduledTrace(t *testing.T) {
	topo, err := topology.Build(topology.Spec{Kind: "hypercube", D: 4, Routing: "ecube"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := newCube(topo)
	if err != nil {
		t.Fatal(err)
	}
	px := &proxy{}
	k, err := kernel.NewKernel(topo, kernel.KernelSpec{Mode: xbar.SAF, OutDepth: 1, Latency: 1, Model: "packet", Packet: kernel.PacketSpec{Schedule: px}})
	if err != nil {
		t.Fatal(err)
	}
	tr := &countTracer{}
	k.SetTracer(tr)
	ck := newCheckerOthers(c.n)
	s := newBcastSched(c, mnbSteps(c.d), ck)
	all := make([]int, c.n)
	for i := range all {
		all[i] = i
	}
	s.load(k, all)
	px.native = s
	r := &Result{Task: "mnb"}
	if err := drive(k, r, 100, nil); err != nil {
		t.Fatal(err)
	}
	missing, dup, stray, got := ck.tally()
	want := c.n * (c.n - 1)
	if missing+dup+stray != 0 || got != int64(want) || r.Slots != 4 {
		t.Fatalf("traced mnb: %g slots, missing %d dup %d stray %d", r.Slots, missing, dup, stray)
	}
	// A packet a node keeps is sent on later (its offset's final send)
	// and leaves the network only where it is not kept.
	finals := 0
	for _, l := range s.last {
		if l >= 0 {
			finals++
		}
	}
	left := int(r.Transmissions) - c.n*(finals-1)
	if tr.moves != int(r.Transmissions) || tr.delivered != left || k.Pool.Live() != 0 {
		t.Errorf("tracer saw %d moves and %d deliveries, want %d and %d (%d records left)", tr.moves, tr.delivered, r.Transmissions, left, k.Pool.Live())
	}
}

// Each hypercube task refuses a d beyond its limit by naming topology.d.
func TestMaxDOf(t *testing.T) {
	for _, c := range []struct {
		task string
		d    int
	}{{"te", 14}, {"kl-exchange", 14}, {"mnb", 17}, {"snb", 17}, {"pmnb", 13}, {"wmnb", 13}} {
		if MaxDOf(c.task) != c.d-1 {
			t.Errorf("%s: limit %d, want %d", c.task, MaxDOf(c.task), c.d-1)
		}
		_, err := Run(topology.Spec{Kind: "hypercube", D: c.d}, c.task, nil, 1)
		var ie *inputerr.Error
		if !errors.As(err, &ie) || ie.Key != "topology.d" {
			t.Errorf("%s d=%d: error %v, want one for topology.d", c.task, c.d, err)
		}
	}
}
