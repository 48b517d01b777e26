package network

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/flitsim/flitsim/configs/inputerr"
)

func multiConfig(pattern string, d int) Config {
	c := Default()
	c.Topology = TopologyConfig{Kind: "hypercube", D: d}
	c.Switching, c.Valiant = "packet", "separate"
	c.Traffic.Flits = FlitRange{Min: 1, Max: 1}
	c.Traffic.Mode, c.Traffic.Pattern = "batch", pattern
	return c
}

// TestMultiRelations: the generators make partial h-relations in §3.5's
// sense: at most h operations start at a node and no node is in more than
// h destination sets (a read's set, a write's location).
func TestMultiRelations(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, h := range []int{1, 2, 5} {
		for _, fan := range []int{0, 1, 4, 64} {
			ops := multiReads(64, 2, h, fan, rng)
			start, in := make([]int, 64), make([]int, 64)
			for _, o := range ops {
				start[o.Src]++
				if fan > 0 && o.Size() != fan {
					t.Fatalf("fanout %d: a read with %d destinations", fan, o.Size())
				}
				o.Members(func(x int32) bool { in[x]++; return true })
			}
			for i := range 64 {
				if start[i] > h || in[i] > h {
					t.Fatalf("h=%d fanout %d: node %d starts %d reads and is in %d sets", h, fan, i, start[i], in[i])
				}
			}
			if len(ops) == 0 {
				t.Fatalf("h=%d fanout %d: no reads", h, fan)
			}
		}
		c := multiConfig("multi-write", 6)
		c.Traffic.H, c.Traffic.Locations = h, 3*h
		ops, err := multiWrites(&c, 64, h, rng)
		if err != nil {
			t.Fatal(err)
		}
		locs, perNode := map[[2]int32]bool{}, map[int32]int{}
		for _, o := range ops {
			if k := [2]int32{o.Dst, o.Addr}; !locs[k] {
				locs[k] = true
				perNode[o.Dst]++
			}
		}
		for nd, l := range perNode {
			if l > h {
				t.Fatalf("h=%d: node %d holds %d locations", h, nd, l)
			}
		}
		if len(ops) != 64*h || len(locs) > 3*h {
			t.Fatalf("h=%d: %d writes to %d locations", h, len(ops), len(locs))
		}
	}
}

// TestMultiRuns: multi-read and multi-write batches through the whole
// network, several experiments each, every operator: each delivery
// checked, every operation delivered for the kernel's statistics, the
// same result for the same seed.
func TestMultiRuns(t *testing.T) {
	for _, tc := range []struct{ pattern, combine, valiant, queue string }{
		{"multi-read", "", "separate", ""}, {"multi-read", "", "merged", ""}, {"multi-read", "", "off", ""},
		{"multi-read", "", "separate", "hop"}, {"multi-read", "", "merged-priority", "shared"}, {"multi-read", "", "separate", "random"},
		{"multi-write", "or", "separate", ""}, {"multi-write", "and", "merged-priority", ""}, {"multi-write", "sum", "off", ""},
		{"multi-write", "lowest", "separate", "hop"}, {"multi-write", "random-winner", "merged", "shared"},
		{"multi-write", "or", "separate", "furthest-first"}, {"multi-read", "", "separate", "dshuffle"},
	} {
		c := multiConfig(tc.pattern, 5)
		c.Valiant, c.Traffic.Combine, c.Traffic.H, c.Run.Experiments = tc.valiant, tc.combine, 2, 8
		switch tc.queue {
		case "hop":
			c.Queue.Routes = "hop"
		case "shared":
			c.Queue.Shared = true
		case "random", "furthest-first":
			c.Queue.Discipline = tc.queue
		case "dshuffle":
			c.Topology, c.Traffic.Fanout = TopologyConfig{Kind: "dshuffle", D: 4, N: 3}, 16
		}
		c.Traffic.Fanout = 4
		r, err := Run(c)
		if err != nil {
			t.Fatal(err)
		}
		m, e := r.Multi, r.Experiments
		if r.Status != StatusOK || m == nil || !m.OK || e == nil || e.Multi == nil || e.Multi.Failed != 0 || e.Count != 8 {
			t.Fatalf("%+v: status %s, multi %+v, experiments %+v", tc, r.Status, m, e)
		}
		if r.MeasuredPackets != int64(m.Reads+m.Writes) || r.MeasuredDelivered != r.MeasuredPackets {
			t.Fatalf("%+v: %d of %d operations delivered, %d reads %d writes", tc, r.MeasuredDelivered, r.MeasuredPackets, m.Reads, m.Writes)
		}
		if tc.pattern == "multi-read" && m.Copies != int64(c.Traffic.Fanout-1)*int64(m.Reads) || tc.pattern == "multi-write" && m.Deliveries+m.Merges != int64(m.Writes) {
			t.Fatalf("%+v: multi %+v", tc, m)
		}
		again, err := Run(c)
		if err != nil || *again.Multi != *m || again.Experiments.Multi.CompletionTime.Mean != e.Multi.CompletionTime.Mean {
			t.Fatalf("%+v: not reproducible: %+v vs %+v (%v)", tc, again.Multi, m, err)
		}
	}
}

// TestMultiKeyErrors: bad multi settings are one input error naming the
// key.
func TestMultiKeyErrors(t *testing.T) {
	for _, tc := range []struct {
		key string
		set func(c *Config)
	}{
		{"traffic.combine", func(c *Config) { c.Traffic.Combine = "xor" }},
		{"traffic.fanout", func(c *Config) { c.Traffic.Fanout = 6 }},
		{"traffic.fanout", func(c *Config) { c.Traffic.Fanout = 64 }},
		{"traffic.locations", func(c *Config) { c.Traffic.Pattern, c.Traffic.Locations = "multi-write", 33 }},
		{"topology.kind", func(c *Config) { c.Topology = TopologyConfig{Kind: "torus", K: 4, N: 2} }},
		{"traffic.pattern", func(c *Config) { c.Traffic.Mode, c.Valiant = "open", "off" }},
		{"traffic.pattern", func(c *Config) { c.Switching, c.Valiant, c.Traffic.Mode = "wormhole", "off", "open" }},
		{"queue.full", func(c *Config) { c.Queue.Full, c.Buffers.Output = "backpressure", 4 }},
		{"queue.discipline", func(c *Config) { c.Queue.Discipline = "furthest-first" }},
	} {
		c := multiConfig("multi-read", 5)
		tc.set(&c)
		_, err := Run(c)
		var ie *inputerr.Error
		if !errors.As(err, &ie) || ie.Key != tc.key {
			t.Errorf("%s: got %v", tc.key, err)
		}
	}
}

// TestMultiWriteOrOfNDeliveries: the OR of N elements (every node writes
// to node 0) through the network, 6-cube, e-cube routes, phases separate:
// the number of packets landing at node 0 is at most one per distance
// 0..d (the derivation is in kernel's TestMultiWriteOrOfN) and far below N.
func TestMultiWriteOrOfNDeliveries(t *testing.T) {
	c := multiConfig("multi-write", 6)
	c.Routing = "ecube"
	c.Run.Experiments = 20
	r, err := Run(c)
	if err != nil {
		t.Fatal(err)
	}
	x := r.Experiments.Multi
	if r.Status != StatusOK || x.Failed != 0 || x.Deliveries.Max > 7 || x.Merges.Mean+x.Deliveries.Mean != 64 {
		t.Fatalf("status %s, multi %+v", r.Status, x)
	}
}
