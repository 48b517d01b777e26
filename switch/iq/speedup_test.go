package iq_test

import (
	"fmt"
	"testing"

	"github.com/flitsim/flitsim/network"
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

// With speedups every packet of a burst that fills the network is
// delivered flit for flit (several flits of one input, or into one output,
// in a cycle), on the mesh and the dateline torus, VCs more and fewer than
// the speedup; and a lone packet's latency is the pipeline's, as without.
func TestSpeedupsConserve(t *testing.T) {
	for _, s := range [][3]int{{2, 2, 2}, {4, 3, 4}, {16, 4, 2}, {2, 16, 16}} {
		for _, kind := range []string{"mesh", "torus"} {
			c := speedups(s[0], s[1], s[2])
			c.Topology = network.TopologyConfig{Kind: kind, K: 4, N: 2}
			if kind == "torus" {
				c.Routing = "dor-dateline"
			}
			c.Traffic.Packets = nil
			flits := int64(0)
			for src := range 16 {
				for i := range 30 {
					n := 1 + (src+i)%12
					flits += int64(n)
					c.Traffic.Packets = append(c.Traffic.Packets, fmt.Sprintf("%d,%d,%d,%d", i%3, src, (src+1+i)%16, n))
				}
			}
			c.Run.Warmup, c.Run.Measure = 0, 10
			r := run(t, c)
			if r.Status != network.StatusOK || r.DeliveredPackets != 480 || r.DeliveredFlits != flits || r.Violations.Total() != 0 {
				t.Errorf("%s, %v: %s, %d of 480 packets and %d of %d flits delivered, violations %+v",
					kind, s, r.Status, r.DeliveredPackets, r.DeliveredFlits, flits, r.Violations)
			}
		}
	}
}
