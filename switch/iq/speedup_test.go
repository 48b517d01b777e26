package iq_test

import (
	"testing"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/network"
	xbar "github.com/flitsim/flitsim/switch"
	"github.com/flitsim/flitsim/switch/iq"
	"github.com/flitsim/flitsim/switch/model"
)

// speedups is bars(vcs) with router.input_speedup in and
// router.output_speedup out.
func speedups(vcs, in, out int) network.Config {
	c := bars(vcs)
	c.Router.InputSpeedup, c.Router.OutputSpeedup = &in, &out
	return c
}

// On the 8×8 mesh with 2 VCs, each speedup lowers the latency at load
// 0.3 and raises what the network accepts offered 0.5 (beyond its
// saturation, about 0.37 without speedup), as in BookSim2 (docs/booksim.md).
func TestSpeedupsRaiseThroughput(t *testing.T) {
	at := func(in, out int, load float64) *network.Result {
		c := speedups(2, in, out)
		c.Traffic.Load = load
		c.Run.Warmup, c.Run.Measure, c.Run.Drain, c.Run.MaxBacklog = 1000, 4000, 0, 0
		return run(t, c)
	}
	base3, base5 := at(1, 1, 0.3), at(1, 1, 0.5)
	for _, s := range []struct {
		in, out int
		gain    float64 // the least gain in accepted throughput offered 0.5
	}{{2, 1, 1.04}, {1, 2, 1.01}, {2, 2, 1.08}} {
		r3, r5 := at(s.in, s.out, 0.3), at(s.in, s.out, 0.5)
		if r5.Violations.Total() != 0 || r3.Violations.Total() != 0 || r5.Deadlock != nil {
			t.Fatalf("speedups %d/%d: violations %+v %+v, deadlock %v", s.in, s.out, r3.Violations, r5.Violations, r5.Deadlock)
		}
		if r3.Latency.Mean >= base3.Latency.Mean {
			t.Errorf("speedups %d/%d: latency at 0.3 %.2f, without %.2f: want lower", s.in, s.out, r3.Latency.Mean, base3.Latency.Mean)
		}
		if r5.Throughput < s.gain*base5.Throughput {
			t.Errorf("speedups %d/%d: accepted %.4f offered 0.5, without %.4f: want ×%.2f at least", s.in, s.out, r5.Throughput, base5.Throughput, s.gain)
		}
		t.Logf("speedups %d/%d: latency at 0.3 %.2f (without %.2f), accepted offered 0.5 %.4f (without %.4f)",
			s.in, s.out, r3.Latency.Mean, base3.Latency.Mean, r5.Throughput, base5.Throughput)
	}
}

// A lone packet meets no other: its latency is the pipeline's, whatever
// the speedups (an output buffer it crosses alone sends it at once).
func TestSpeedupsZeroLoad(t *testing.T) {
	for _, s := range [][3]int{{2, 2, 1}, {2, 1, 2}, {4, 3, 4}} {
		c := speedups(s[0], s[1], s[2])
		pairs := []lone{{0, 1, 1, 1}, {0, 63, 14, 8}, {27, 36, 2, 4}}
		spaced(&c, pairs)
		r := run(t, c)
		if len(r.Deliveries) != len(pairs) {
			t.Fatalf("%v: %d deliveries, want %d", s, len(r.Deliveries), len(pairs))
		}
		p := model.Params{VCAllocDelay: 1, SWAllocDelay: 1, STFinalDelay: 1, LinkLatency: 1}
		for i, d := range r.Deliveries {
			q := pairs[i]
			if want := iq.ZeroLoadLatency(p, q.hops, q.flits); d.Latency != want {
				t.Errorf("%v: %d→%d: latency %d, the pipeline says %d", s, q.src, q.dst, d.Latency, want)
			}
		}
	}
}

// With speedups every packet of a burst that fills the network is
// delivered flit for flit (several flits of one input, or into one output,
// in a cycle), on the mesh and the dateline torus, VCs more and fewer than
// the speedup.
func TestSpeedupsConserve(t *testing.T) {
	for _, s := range [][3]int{{2, 2, 2}, {4, 3, 4}, {16, 4, 2}, {2, 16, 16}} {
		for _, kind := range []string{"mesh", "torus"} {
			c := speedups(s[0], s[1], s[2])
			c.Topology = network.TopologyConfig{Kind: kind, K: 4, N: 2}
			if kind == "torus" {
				c.Routing = "dor-dateline"
			}
			flits := burst(&c)
			c.Run.Warmup, c.Run.Measure = 0, 10
			r := run(t, c)
			if r.Status != network.StatusOK || r.DeliveredPackets != 480 || r.DeliveredFlits != flits || r.Violations.Total() != 0 {
				t.Errorf("%s, %v: %s, %d of 480 packets and %d of %d flits delivered, violations %+v",
					kind, s, r.Status, r.DeliveredPackets, r.DeliveredFlits, flits, r.Violations)
			}
		}
	}
}

// portMoves counts, from a kernel trace, the most flits that left one
// input buffer (a router's input port, all its VCs) in one cycle.
type portMoves struct {
	cycle int64
	n     map[int32]int
	most  int
}

func (p *portMoves) Granted(int64, int32, int32, int32, xbar.PortSet)            {}
func (p *portMoves) Blocked(int64, flit.Flit, int32, network.Wait, int32, int32) {}
func (p *portMoves) Delivered(int64, *flit.Worm, int32, int32)                   {}
func (p *portMoves) EndCycle(int64)                                              { clear(p.n) }
func (p *portMoves) Move(c int64, _ flit.Flit, from, _, _ int32, _ int64) {
	if from < 0 {
		return
	}
	p.n[from]++
	p.most = max(p.most, p.n[from])
}

// Without input speedup at most one flit leaves an input port a cycle;
// with router.input_speedup: 2, two flits of one input port (on VCs 0 and
// 1, crossbar inputs 0 and 1) cross the switch in one cycle, and never
// more than two.
func TestInputSpeedupTwoFlitsAPort(t *testing.T) {
	for _, in := range []int{1, 2} {
		c := speedups(2, in, 1)
		c.Traffic.Load = 0.35
		c.Run.Warmup, c.Run.Measure = 0, 2000
		n, err := network.Build(c)
		if err != nil {
			t.Fatal(err)
		}
		pm := &portMoves{n: map[int32]int{}}
		n.SetTracer(pm)
		if _, err := n.RunPlain(); err != nil {
			t.Fatal(err)
		}
		if pm.most != in {
			t.Errorf("input speedup %d: at most %d flits left one input port in a cycle, want %d", in, pm.most, in)
		}
	}
}
