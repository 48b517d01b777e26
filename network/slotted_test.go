package network

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/network/analytic"
)

// slottedConfig is a slotted-router run: d-cube, scheme, k, p0.
func slottedConfig(d int, scheme, k string, p0 float64, measure int64) Config {
	c := Default()
	c.Topology = TopologyConfig{Kind: "hypercube", D: d}
	c.Switching = "slotted"
	c.Slotted = SlottedConfig{Scheme: scheme, K: k}
	c.Traffic.P0 = p0
	c.Run.Warmup, c.Run.Measure = 100, measure
	return c
}

// runPlain builds c and runs it to the end (RunPlain), failing the test
// on an error.
func runPlain(t *testing.T, c Config) *Result {
	t.Helper()
	n, err := Build(c)
	if err != nil {
		t.Fatal(err)
	}
	r, err := n.RunPlain()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestSlottedUnbufferedTakesExactlyD: without buffers a packet is never
// held, so every delivered packet left exactly d slots after it entered,
// at its destination; packets are conserved (entered = delivered + dropped
// + on links) and the throughput is 2d·p_d.
func TestSlottedUnbufferedTakesExactlyD(t *testing.T) {
	for _, scheme := range []string{"simple", "priority"} {
		for d := 2; d <= 7; d++ {
			r := runPlain(t, slottedConfig(d, scheme, "0", 0.6, 300))
			if len(r.DeliverySlots) != 1 || r.DeliverySlots[0].Slots != int64(d) || r.DeliverySlots[0].Packets == 0 {
				t.Errorf("%s d=%d: delivery slots %v, want all at %d", scheme, d, r.DeliverySlots, d)
			}
			if r.Violations.Misdelivered != 0 {
				t.Errorf("%s d=%d: %d packets delivered away from their destination", scheme, d, r.Violations.Misdelivered)
			}
			if r.InjectedPackets != r.DeliveredPackets+*r.Dropped+r.Backlog || r.Backlog > int64(2*d<<d) {
				t.Errorf("%s d=%d: entered %d ≠ delivered %d + dropped %d + on links %d", scheme, d,
					r.InjectedPackets, r.DeliveredPackets, *r.Dropped, r.Backlog)
			}
			if _, ok := r.DroppedByCause["conflict"]; !ok || len(r.DroppedByCause) != 1 {
				t.Errorf("%s d=%d: drops by cause %v, want only conflicts", scheme, d, r.DroppedByCause)
			}
			if got := 2 * float64(d) * r.PType[d-1]; math.Abs(got-*r.ThroughputPerNode) > 1e-12 {
				t.Errorf("%s d=%d: 2d·p_d = %g, throughput %g", scheme, d, got, *r.ThroughputPerNode)
			}
			if r.Status != StatusOK {
				t.Errorf("%s d=%d: status %s", scheme, d, r.Status)
			}
		}
	}
}

// TestSlottedAgainstTheAnalysis: the simulation lands where the thesis's
// analysis (and its own simulation) put it: Table 5.1's peak row and
// p0 ≈ 1 (within 1 %), Table 5.2's row p0 = 0.302901 (3 %), the unbuffered
// priority scheme at p0 = 1 (1 %), and k = inf's closed form 2d·p0/(1 +
// p0(d−1)) (1 %). Priority beats simple.
func TestSlottedAgainstTheAnalysis(t *testing.T) {
	cases := []struct {
		d      int
		scheme string
		k      string
		p0     float64
		want   float64
		tol    float64
	}{
		{8, "simple", "0", 0.3642, 0.6883, 0.01},     // Table 5.1, simulation column
		{8, "simple", "0", 0.9983, 0.6331, 0.01},     // Table 5.1, simulation column
		{7, "simple", "1", 0.302901, 1.345433, 0.03}, // Table 5.2, analytic column
		{7, "simple", "inf", 0.1, 14 * 0.1 / 1.6, 0.01},
	}
	pr, err := analytic.PriorityUnbuffered(8, 1)
	if err != nil {
		t.Fatal(err)
	}
	cases = append(cases, struct {
		d      int
		scheme string
		k      string
		p0     float64
		want   float64
		tol    float64
	}{8, "priority", "0", 1, pr.ThroughputPerNode, 0.01})
	for _, tc := range cases {
		r := runPlain(t, slottedConfig(tc.d, tc.scheme, tc.k, tc.p0, 1500))
		got := *r.ThroughputPerNode
		if math.Abs(got-tc.want) > tc.tol*tc.want {
			t.Errorf("d=%d %s k=%s p0=%g: throughput/node %.4f, want %.4f ± %g %%", tc.d, tc.scheme, tc.k, tc.p0, got, tc.want, 100*tc.tol)
		}
	}
	simple := runPlain(t, slottedConfig(8, "simple", "0", 1, 1000))
	prio := runPlain(t, slottedConfig(8, "priority", "0", 1, 1000))
	if *prio.ThroughputPerNode <= *simple.ThroughputPerNode*1.3 {
		t.Errorf("p0 = 1, d = 8: priority %.4f is not well above simple %.4f", *prio.ThroughputPerNode, *simple.ThroughputPerNode)
	}
}

// TestSlottedDeterministic: a run is a function of its seed.
func TestSlottedDeterministic(t *testing.T) {
	for _, scheme := range []string{"priority", "deflection-simple"} {
		k := "2"
		if scheme != "priority" {
			k = "0"
		}
		slottedDeterministic(t, slottedConfig(5, scheme, k, 0.4, 400))
	}
}

func slottedDeterministic(t *testing.T, c Config) {
	t.Helper()
	a, _ := json.Marshal(runPlain(t, c))
	b, _ := json.Marshal(runPlain(t, c))
	if string(a) != string(b) {
		t.Fatal("two runs of one seed differ")
	}
	c.Run.Seed = 2
	if x, _ := json.Marshal(runPlain(t, c)); string(x) == string(a) {
		t.Fatal("runs of two seeds are identical")
	}
}

// TestSlottedBuffersHold: with k ≥ 1 losers wait (some packets take more
// than d slots; a waiting packet yields to every continuing one, so a wait
// has no bound) and a buffer-full drop is the only cause; k = inf drops
// nothing.
func TestSlottedBuffersHold(t *testing.T) {
	r := runPlain(t, slottedConfig(6, "simple", "1", 0.9, 400))
	last := r.DeliverySlots[len(r.DeliverySlots)-1].Slots
	if r.DeliverySlots[0].Slots != 6 || last <= 6 {
		t.Errorf("k = 1: delivery slots %v, want from 6 up", r.DeliverySlots)
	}
	if _, ok := r.DroppedByCause["buffer_full"]; !ok || len(r.DroppedByCause) != 1 {
		t.Errorf("k = 1: drops by cause %v, want buffer_full only", r.DroppedByCause)
	}
	r = runPlain(t, slottedConfig(6, "priority", "inf", 0.3, 400))
	if *r.Dropped != 0 || r.InjectedPackets != r.DeliveredPackets+r.Backlog {
		t.Errorf("k = inf: %d dropped, entered %d, delivered %d, in flight %d", *r.Dropped, r.InjectedPackets, r.DeliveredPackets, r.Backlog)
	}
}

// TestSlottedBadInput: each bad setting is refused naming its key.
func TestSlottedBadInput(t *testing.T) {
	for _, tc := range []struct {
		key  string
		edit func(*Config)
	}{
		{"traffic.p0", func(c *Config) { c.Traffic.P0 = 1.5 }},
		{"traffic.p0", func(c *Config) { c.Traffic.P0 = -0.1 }},
		{"traffic.p0", func(c *Config) { c.Traffic.P0 = math.NaN() }},
		{"slotted.k", func(c *Config) { c.Slotted.K = "-1" }},
		{"slotted.k", func(c *Config) { c.Slotted.K = "two" }},
		{"slotted.scheme", func(c *Config) { c.Slotted.Scheme = "bogus" }},
		{"topology.kind", func(c *Config) { c.Topology = TopologyConfig{Kind: "mesh", K: 4, N: 2} }},
		{"topology.kind", func(c *Config) { c.Topology = TopologyConfig{Kind: "folded-cube", D: 4} }},
		{"traffic.mode", func(c *Config) { c.Traffic.Mode = "batch" }},
	} {
		c := slottedConfig(4, "simple", "0", 0.5, 100)
		tc.edit(&c)
		_, err := Build(c)
		e, ok := inputerr.As(err)
		if !ok || e.Key != tc.key {
			t.Errorf("want an error naming %s, got %v", tc.key, err)
		}
	}
}

// TestSlottedSlotAllocatesNothing: a slot in steady state allocates
// nothing (k = 0 and k = 2; packets live in typed slices by value).
func TestSlottedSlotAllocatesNothing(t *testing.T) {
	for _, sc := range [][2]string{{"priority", "0"}, {"priority", "2"}, {"deflection-priority", "0"}, {"deflection-simple", "0"}} {
		scheme, k := sc[0], sc[1]
		n, err := Build(slottedConfig(6, scheme, k, 0.7, 100))
		if err != nil {
			t.Fatal(err)
		}
		for range 50 {
			n.k.Step()
		}
		if a := testing.AllocsPerRun(100, n.k.Step); a != 0 {
			t.Errorf("%s k = %s: %g allocations per slot", scheme, k, a)
		}
	}
}

// TestSlottedConfigOmitted: a run of another model writes none of the
// slotted router's fields (the JSON of every other run is unchanged).
func TestSlottedConfigOmitted(t *testing.T) {
	c := Default()
	c.Run.Warmup, c.Run.Measure = 10, 50
	n, err := Build(c)
	if err != nil {
		t.Fatal(err)
	}
	r, err := n.RunPlain()
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	b, _ := json.Marshal(r)
	_ = json.Unmarshal(b, &m)
	for _, k := range []string{"throughput_per_node", "p_type", "delivery_slots", "dropped_by_cause", "pi"} {
		if _, ok := m[k]; ok {
			t.Errorf("%s in the JSON of a wormhole run", k)
		}
	}
	cfg := m["config"].(map[string]any)
	if _, ok := cfg["slotted"]; ok || !reflect.DeepEqual(cfg["traffic"].(map[string]any)["p0"], nil) {
		t.Errorf("slotted keys in the JSON config of a wormhole run: %v", cfg)
	}
}

// TestSlottedFullLoadFillsEveryLink: at p0 = 1 a buffer with nothing to
// send always takes a new packet, so every link carries a packet in every
// slot after the first (Σ p_type = 1, the analysis's e = 0), whatever the
// scheme and k; at p0 = 0 nothing ever moves.
func TestSlottedFullLoadFillsEveryLink(t *testing.T) {
	for _, k := range []string{"0", "1", "inf"} {
		for _, scheme := range []string{"simple", "priority"} {
			r := runPlain(t, slottedConfig(5, scheme, k, 1, 200))
			sum := 0.0
			for _, p := range r.PType {
				sum += p
			}
			if math.Abs(sum-1) > 1e-12 {
				t.Errorf("%s k=%s p0=1: Σ p_type = %.15f, want 1", scheme, k, sum)
			}
		}
	}
	r := runPlain(t, slottedConfig(5, "simple", "0", 0, 200))
	if r.InjectedPackets != 0 || *r.ThroughputPerNode != 0 {
		t.Errorf("p0 = 0: %d injected, throughput %g", r.InjectedPackets, *r.ThroughputPerNode)
	}
}
