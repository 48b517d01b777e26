package network

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/network/topology"
	"github.com/flitsim/flitsim/traffic"
)

// chiangMIN is a k^n-node Delta MIN with Chiang's switch (one one-flit
// buffer per output port), synchronous multicast worms with single-flit
// headers and the clock-rotating arbiter, replaying inline packets.
func chiangMIN(kind string, k, n int, scheme string) Config {
	c := Default()
	c.Topology = TopologyConfig{Kind: kind, K: k, N: n}
	c.Buffers = BufferConfig{Input: 0, Output: 1}
	c.Arbiter = "clock"
	c.Multicast = MulticastConfig{Worm: "sync", Encoding: "single", Scheme: scheme}
	c.Run = RunConfig{Warmup: 0, Measure: 1, Drain: 1 << 20, Seed: 1, DeadlockCheck: 256}
	return c
}

func packetLine(cycle, src int, dsts []int, flits int) string {
	s := make([]string, len(dsts))
	for i, d := range dsts {
		s[i] = fmt.Sprint(d)
	}
	return fmt.Sprintf("%d,%d,%s,%d", cycle, src, strings.Join(s, " "), flits)
}

// delivery is a unicast's delivery cycle.
type delivery struct{ src, dst int32 }

// replay runs c with the inline packets and returns the network, its result
// and the delivery cycle of every unicast (by source and destination).
func replay(t *testing.T, c Config, pkts ...string) (*Network, *Result, map[delivery]int64) {
	t.Helper()
	n, r, list := replayArrivals(t, c, pkts...)
	got := map[delivery]int64{}
	for _, a := range list {
		got[a.delivery] = a.at
	}
	return n, r, got
}

// arrival is a unicast delivered at cycle at.
type arrival struct {
	delivery
	at int64
}

// replayArrivals is replay with every unicast's delivery, in delivery
// order (a pair that two messages both use appears twice).
func replayArrivals(t *testing.T, c Config, pkts ...string) (*Network, *Result, []arrival) {
	t.Helper()
	c.Traffic.Packets = pkts
	n, err := Build(c)
	if err != nil {
		t.Fatal(err)
	}
	var got []arrival
	n.k.Hooks.Delivered = func(w *flit.Worm, cycle int64) {
		if w.Cast == flit.Unicast {
			got = append(got, arrival{delivery{w.Src, w.Dst}, cycle})
		}
	}
	r, err := n.RunPlain()
	if err != nil {
		t.Fatal(err)
	}
	if v := n.k.Violations; v.Total() != 0 {
		t.Fatalf("invariant violations %+v", v)
	}
	if r.Deadlock != nil || r.Incomplete || r.MeasuredDelivered != r.MeasuredPackets {
		t.Fatalf("run did not complete: %d of %d delivered, deadlock %v", r.MeasuredDelivered, r.MeasuredPackets, r.Deadlock)
	}
	return n, r, got
}

// oracle is when every unicast of a software multicast is delivered if
// nothing ever blocks: a node has the message when the tail of its unicast
// arrives (the source at cycle 0) and sends its unicasts back to back, each
// taking t0. Back to back means flits cycles after the previous head, plus
// one cycle when both leave through the same port of the first switch (the
// kernel grants a port again in the cycle after the previous tail left it).
func oracle(topo *topology.Topology, sched []traffic.Send, src, flits int, t0 int64) map[delivery]int64 {
	has := map[int]int64{src: 0}
	last := map[int]int64{} // node → start of its previous send
	port := map[int]int{}   // node → first-switch port of its previous send
	out := map[delivery]int64{}
	for _, s := range sched { // sorted by step: senders are informed first
		p := firstPort(topo, s.From, s.To)
		at := has[s.From]
		if prev, ok := last[s.From]; ok {
			gap := int64(flits)
			if port[s.From] == p {
				gap++
			}
			at = max(at, prev+gap)
		}
		last[s.From], port[s.From] = at, p
		has[s.To] = at + t0
		out[delivery{int32(s.From), int32(s.To)}] = at + t0
	}
	return out
}

func firstPort(topo *topology.Topology, src, dst int) int {
	hops, err := topology.Trace(topo, &flit.Worm{Src: int32(src), Dst: int32(dst)})
	if err != nil {
		panic(err)
	}
	return hops[0].Out
}

func others(group []int, src int) []int {
	var d []int
	for _, v := range group {
		if v != src {
			d = append(d, v)
		}
	}
	return d
}

// A lone multicast in a 64-node cube MIN of 4×4 switches to a 16-node base
// cube: the hardware worm takes one unicast's time t0 = (n+1) + (L−1);
// C-min takes ⌈log2 16⌉ = 4 unicast times; separate addressing sends 15
// unicasts back to back through the same first-stage port (14·(L+1) + t0:
// the port is granted again one cycle after a tail left it). The start-up
// costs add per step.
func TestSoftwareMulticastZeroLoad(t *testing.T) {
	const L = 64
	group := make([]int, 16)
	for i := range group {
		group[i] = 16 + i
	}
	src := 21
	line := packetLine(0, src, others(group, src), L)
	t0 := int64(3 + 1 + L - 1)
	for _, c := range []struct {
		scheme     string
		send, recv int
		want       int64
	}{
		{"hardware", 0, 0, t0},
		{"cmin", 0, 0, 4 * t0},
		{"separate", 0, 0, 14*(L+1) + t0},
		{"cmin", 0, 100, 4 * (t0 + 100)},
		{"cmin", 10, 0, 4 * (t0 + 10)},
	} {
		cfg := chiangMIN("cube", 4, 3, c.scheme)
		cfg.Multicast.SendLatency, cfg.Multicast.ReceiveLatency = c.send, c.recv
		_, r, _ := replay(t, cfg, line)
		if r.Latency.Count != 1 || r.Latency.Mean != float64(c.want) {
			t.Errorf("%s send %d receive %d: latency %v over %d messages, want %d",
				c.scheme, c.send, c.recv, r.Latency.Mean, r.Latency.Count, c.want)
		}
		if c.scheme != "hardware" && r.DeliveredPackets != 15 {
			t.Errorf("%s: %d unicasts delivered, want 15", c.scheme, r.DeliveredPackets)
		}
	}
}

// Every unicast of a lone C-min or separate-addressing multicast on a
// 64-node cube MIN arrives exactly when the no-blocking oracle says.
func TestSoftwareMulticastMatchesOracle(t *testing.T) {
	const L = 8
	for _, scheme := range []traffic.Scheme{traffic.CMin, traffic.Separate} {
		for _, src := range []int{0, 5, 15} {
			group := make([]int, 16)
			for i := range group {
				group[i] = i
			}
			n, _, got := replay(t, chiangMIN("cube", 4, 3, scheme.String()), packetLine(0, src, others(group, src), L))
			want := oracle(n.k.Topo, traffic.Schedule(scheme, src, group), src, L, 3+L)
			for k, w := range want {
				if got[k] != w {
					t.Errorf("%s from %d: %d→%d delivered at %d, want %d", scheme, src, k.src, k.dst, got[k], w)
				}
			}
		}
	}
}

// maxLink is the most flits any switch output channel carried.
func maxLink(n *Network) (uint64, string) {
	var best uint64
	name := ""
	for i := range n.k.Links {
		if f := n.k.Links[i].Flits; f > best {
			best, name = f, n.k.PortName(int32(i))
		}
	}
	return best, name
}

// stepRuns replays each step of sched on its own, all its unicasts at
// cycle 0, and reports the first step in which a channel carried two of
// them (the channel's name), or 0.
func stepRuns(t *testing.T, c Config, sched []traffic.Send, flits int) (int, string) {
	t.Helper()
	for st := 1; ; st++ {
		var pkts []string
		for _, s := range sched {
			if s.Step == st {
				pkts = append(pkts, packetLine(0, s.From, []int{s.To}, flits))
			}
		}
		if len(pkts) == 0 {
			return 0, ""
		}
		n, _, _ := replay(t, c, pkts...)
		if f, name := maxLink(n); f > uint64(flits) {
			return st, name
		}
	}
}

// binaryCube is the 2^m addresses of n bits that agree with base outside
// the free bit positions.
func binaryCube(base int, free []int) []int {
	out := []int{}
	for x := 0; x < 1<<len(free); x++ {
		a := base
		for i, b := range free {
			a &^= 1 << b
			a |= (x >> i & 1) << b
		}
		out = append(out, a)
	}
	slices.Sort(out)
	return out
}

// Theorem 7: on cube and omega MINs, C-min to a cube-shaped group is
// stepwise contention-free (no two unicasts of a step share a channel:
// each step replayed alone, no channel carries more than one message) and
// the whole multicast runs without blocking (every unicast arrives when
// the no-blocking oracle says), for base cubes of every size and random
// binary cubes, with 2×2, 4×4 and 8×8 switches (64 nodes).
func TestCMinTheorem7(t *testing.T) {
	const L = 4
	rng := rand.New(rand.NewPCG(7, 7))
	for _, kind := range []string{"cube", "omega"} {
		for _, kn := range [][2]int{{2, 6}, {4, 3}, {8, 2}} {
			c := chiangMIN(kind, kn[0], kn[1], "cmin")
			t0 := int64(kn[1] + L)
			var groups [][]int
			for m := 1; m <= 6; m++ { // base binary m-cubes: the high bits fixed
				for base := 0; base < 64; base += 1 << m {
					groups = append(groups, binaryCube(base, []int{0, 1, 2, 3, 4, 5}[:m]))
				}
			}
			for range 12 { // binary cubes with random free bits
				m := 1 + rng.IntN(5)
				groups = append(groups, binaryCube(rng.IntN(64), rng.Perm(6)[:m]))
			}
			for _, g := range groups {
				srcs := g
				if len(g) > 8 {
					srcs = []int{g[0], g[len(g)/2+1], g[len(g)-1]}
				}
				for _, src := range srcs {
					sched := traffic.Schedule(traffic.CMin, src, g)
					if st, ch := stepRuns(t, c, sched, L); st != 0 {
						t.Fatalf("%s k=%d group %v from %d: step %d shares channel %s", kind, kn[0], g, src, st, ch)
					}
					n, r, got := replay(t, c, packetLine(0, src, others(g, src), L))
					for k, w := range oracle(n.k.Topo, sched, src, L, t0) {
						if got[k] != w {
							t.Fatalf("%s k=%d group %v from %d: %d→%d delivered at %d, want %d (blocked)", kind, kn[0], g, src, k.src, k.dst, got[k], w)
						}
					}
					if steps := bits.Len(uint(len(g) - 1)); len(g) > 1 && r.Latency.Mean < float64(int64(steps)*t0) {
						t.Fatalf("%s k=%d group %v: latency %v below %d steps", kind, kn[0], g, r.Latency.Mean, steps)
					}
				}
			}
		}
	}
}

// Lemma 15: in a 32-node baseline MIN of 2×2 switches, the base cube 000XX
// = {0, 1, 2, 3} has no stepwise contention-free C-min: its pairs share the
// channel 00000 at C_2 (output 0 of switch s2,0), so step 2 (0→1 with 2→3)
// collides there. §6.5: in the 64-node 4×4 baseline, 0→1 and 2→3 both use
// output 0 of G_1 (s1,0). Lemma 16 / Fig 7.5: a 16-node base cluster of the
// 64-node 4×4 butterfly uses 4 of the 16 channels at C_1, and C-min on it
// collides.
func TestCMinLemmas15And16(t *testing.T) {
	const L = 4
	c := chiangMIN("baseline", 2, 5, "cmin")
	sched := traffic.Schedule(traffic.CMin, 0, []int{1, 2, 3})
	if st, ch := stepRuns(t, c, sched, L); st != 2 || ch != "s2,0.out[0]" {
		t.Errorf("32-node baseline, C-min on 000XX: step %d shares %q, want step 2 at s2,0.out[0]", st, ch)
	}
	n, _, got := replay(t, chiangMIN("baseline", 4, 3, "hardware"), packetLine(0, 0, []int{1}, L), packetLine(0, 2, []int{3}, L))
	if f, ch := maxLink(n); f != 2*L || ch != "s1,0.out[0]" {
		t.Errorf("64-node 4×4 baseline, 0→1 with 2→3: busiest channel %s carried %d flits, want s1,0.out[0] with %d", ch, f, 2*L)
	}
	if a, b := got[delivery{0, 1}], got[delivery{2, 3}]; max(a, b) == int64(3+L) {
		t.Errorf("64-node 4×4 baseline, 0→1 with 2→3: both arrive unblocked (%d, %d)", a, b)
	}
	g := make([]int, 16)
	for i := range g {
		g[i] = i
	}
	c = chiangMIN("butterfly", 4, 3, "cmin")
	if st, _ := stepRuns(t, c, traffic.Schedule(traffic.CMin, 0, g), L); st == 0 {
		t.Error("64-node 4×4 butterfly, C-min on 0..15: every step contention-free, want a shared channel")
	}
	// The cluster's unicasts 0..15 → 0..15 use 4 distinct channels after G_1.
	var pkts []string
	for i := range 16 {
		pkts = append(pkts, packetLine(i*L, i, []int{(i + 1) % 16}, L))
	}
	n, _, _ = replay(t, chiangMIN("butterfly", 4, 3, "hardware"), pkts...)
	used := 0
	for i := range n.k.Links {
		if n.k.Links[i].Flits > 0 && strings.HasPrefix(n.k.PortName(int32(i)), "s1,") {
			used++
		}
	}
	if used != 4 {
		t.Errorf("64-node 4×4 butterfly, cluster 0..15: %d channels used at C_1, want 4", used)
	}
}

// Many concurrent software multicasts: every message completes, the run is
// deterministic, and the offered load (flits × destinations) matches the
// configured system load for hardware and software alike.
func TestClusterMulticastRuns(t *testing.T) {
	for _, scheme := range []string{"hardware", "separate", "umin", "cmin"} {
		c := chiangMIN("cube", 4, 3, scheme)
		c.Traffic = TrafficConfig{Pattern: "cluster-multicast", Cluster: 16, Load: 0.3, Flits: FlitRange{32, 96}}
		c.Run = RunConfig{Warmup: 1000, Measure: 20000, Drain: 100000, Seed: 3, DeadlockCheck: 256}
		var first *Result
		for range 2 {
			r, err := Run(c)
			if err != nil {
				t.Fatal(err)
			}
			if r.Incomplete || r.Deadlock != nil || r.MeasuredDelivered != r.MeasuredPackets || r.MeasuredPackets < 100 {
				t.Fatalf("%s: %d of %d messages done, deadlock %v", scheme, r.MeasuredDelivered, r.MeasuredPackets, r.Deadlock)
			}
			if r.Offered < 0.25 || r.Offered > 0.35 {
				t.Errorf("%s: offered %.3f at system load 0.3", scheme, r.Offered)
			}
			if first == nil {
				first = r
			} else if first.Latency != r.Latency || first.Cycles != r.Cycles {
				t.Errorf("%s: two runs differ: %+v vs %+v", scheme, first.Latency, r.Latency)
			}
		}
	}
}

func TestSoftwareMulticastConfigErrors(t *testing.T) {
	for _, c := range []struct {
		set  func(*Config)
		want string
	}{
		{func(c *Config) { c.Multicast.Scheme = "tree" }, "multicast.scheme: tree is not allowed"},
		{func(c *Config) { c.Multicast.SendLatency = -1 }, "multicast.send_latency: -1 is not allowed"},
		{func(c *Config) { c.Multicast.ReceiveLatency = -2 }, "multicast.receive_latency: -2 is not allowed"},
		{func(c *Config) { c.Traffic.Pattern, c.Traffic.Cluster = "cluster-multicast", 5 }, "traffic.cluster: 5 is not allowed"},
	} {
		cfg := chiangMIN("cube", 4, 3, "cmin")
		c.set(&cfg)
		if err := Validate(&cfg); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("got %v, want %s", err, c.want)
		}
	}
}

// Fig 8.8 on the simulated 8-node cube MIN: multicasts from 0 and 5 to the
// whole 3-cube at once. With C-min every step of the two is contention-free
// and both finish in 3 unicast times; with U-min node 6 receives both in
// step 2 and must forward both to 7 in step 3, one after the other, so one
// message finishes at least a message length later.
func TestFig88OnTheNetwork(t *testing.T) {
	const L = 16
	t0 := int64(3 + L)
	all := []int{0, 1, 2, 3, 4, 5, 6, 7}
	pkts := []string{packetLine(0, 0, others(all, 0), L), packetLine(0, 5, others(all, 5), L)}
	for _, c := range []struct {
		scheme   string
		min, max float64
	}{{"cmin", float64(3 * t0), float64(3 * t0)}, {"umin", float64(3 * t0), float64(3*t0 + L)}} {
		_, r, _ := replay(t, chiangMIN("cube", 2, 3, c.scheme), pkts...)
		if r.Latency.Count != 2 || r.Latency.Mean < c.min || r.Latency.Max < c.max {
			t.Errorf("%s: latency mean %v max %v over %d messages, want mean ≥ %v and max ≥ %v", c.scheme, r.Latency.Mean, r.Latency.Max, r.Latency.Count, c.min, c.max)
		}
		if c.scheme == "cmin" && r.Latency.Max != float64(3*t0) {
			t.Errorf("cmin: slowest message %v, want %d (no blocking)", r.Latency.Max, 3*t0)
		}
	}
}
