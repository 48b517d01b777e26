package network

import (
	"math"
	"strings"
	"testing"
)

// brebnerBatch is a batch of Brebner's experiments on the d-cube: one-unit
// packets, random-order routes, the given input and valiant mode.
func brebnerBatch(d int, pattern, valiant string, experiments int) Config {
	c := Default()
	c.Topology = TopologyConfig{Kind: "hypercube", D: d}
	c.Switching, c.Routing, c.Valiant = "packet", "random-order", valiant
	c.Traffic.Flits = FlitRange{Min: 1, Max: 1}
	c.Traffic.Mode, c.Traffic.Pattern, c.Run.Experiments = "batch", pattern, experiments
	return c
}

func runBatch(t *testing.T, c Config) *Experiments {
	t.Helper()
	r := runPlain(t, c)
	if e := r.Experiments; e == nil || e.Incomplete != 0 || e.Count != c.Run.Experiments {
		t.Fatalf("experiments %+v", e)
	}
	return r.Experiments
}

// TestValiantKeyErrors: a bad valiant value, or two phases without the
// packet router, is one line naming the key.
func TestValiantKeyErrors(t *testing.T) {
	for _, tc := range []struct {
		set  func(*Config)
		want string
	}{
		{func(c *Config) { c.Valiant = "twice" }, "valiant: twice is not allowed (allowed: off, separate, merged-priority, merged"},
		{func(c *Config) {
			c.Switching = "wormhole"
			c.Traffic.Mode = ""
			c.Traffic.Flits = FlitRange{Min: 4, Max: 4}
		}, "valiant: separate is not allowed (allowed: off (two-phase routing only with switching: packet))"},
		{func(c *Config) { c.Valiant, c.Queue.Discipline = "merged-priority", "ftgfo" }, "valiant: merged-priority is not allowed (allowed: off, separate, merged with queue.discipline furthest-first"},
		{func(c *Config) { c.Traffic.Mode = "open"; c.Traffic.Load = 0.1 }, "valiant: separate is not allowed (allowed: off, merged-priority, merged with traffic.mode open"},
		{func(c *Config) { c.Traffic.Mode, c.Traffic.Pattern, c.Valiant = "open", "uniform", "merged" }, ""},
		{func(c *Config) { c.Traffic.Pattern = "shift" }, ""},
		{func(c *Config) { c.Valiant = "full" }, ""},
	} {
		c := brebnerBatch(3, "identity", "separate", 1)
		tc.set(&c)
		err := Validate(&c)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("unexpected %v", err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n")):
			t.Errorf("got %v, want %q", err, tc.want)
		}
	}
}

// TestValiantModes: separate reports both phases and its total is their
// sum; the merged modes report one phase (the total). On the complement
// every packet's two legs add up to exactly n hops (digest §5.5 item 6), so
// a merged run never ends before n; on the identity a separate phase can
// end at 0 only if every packet's random node is its own.
func TestValiantModes(t *testing.T) {
	const d, m = 6, 300
	sep := runBatch(t, brebnerBatch(d, "identity", "separate", m))
	if sep.Phase1 == nil || sep.Phase2 == nil {
		t.Fatalf("separate: phases missing: %+v", sep)
	}
	if got, want := sep.Total.CompletionTime.Mean, sep.Phase1.CompletionTime.Mean+sep.Phase2.CompletionTime.Mean; math.Abs(got-want) > 1e-9 {
		t.Fatalf("separate: total mean %g, phases add to %g", got, want)
	}
	for _, v := range []string{"merged", "merged-priority"} {
		e := runBatch(t, brebnerBatch(d, "complement", v, m))
		if e.Phase1 != nil || e.Phase2 != nil {
			t.Fatalf("%s: phases reported for merged phases", v)
		}
		for time := range e.Total.CompletionTime.Histogram {
			if time < d {
				t.Fatalf("%s: a complement experiment ended at %d < n = %d: %v", v, time, d, e.Total.CompletionTime.Histogram)
			}
		}
		// Brebner's 256-node figure is 10.78 (n = 8); for n = 6 the total
		// stays well under the separate phases' 2n.
		if mean := e.Total.CompletionTime.Mean; mean > sep.Total.CompletionTime.Mean-1 {
			t.Fatalf("%s complement: mean total %.2f not below separate identity %.2f", v, mean, sep.Total.CompletionTime.Mean)
		}
	}
	off := runBatch(t, brebnerBatch(d, "identity", "off", 50))
	if off.Total.CompletionTime.Max != 0 {
		t.Fatalf("off: the identity without phases moves nothing, got %+v", off.Total.CompletionTime)
	}
}

// TestBrebnerExactChecks is digest §5.5 items 2 and 3: on the 8-node CCC
// (s = 2) and the 4-node shuffle-exchange (n = 2) no two phase-1 packets
// ever share a queue (max queue 1 in every experiment); on the standard
// d-shuffle every route has n hops, so no phase ends before n.
func TestBrebnerExactChecks(t *testing.T) {
	for _, topo := range []TopologyConfig{{Kind: "ccc", N: 2}, {Kind: "shuffle-exchange", N: 2}} {
		c := brebnerBatch(2, "identity", "separate", 400)
		c.Topology, c.Routing = topo, "standard"
		e := runBatch(t, c)
		if q := e.Phase1.MaxQueue; q.Max != 1 || q.Histogram[1] != 400 {
			t.Errorf("%s: phase-1 max queue %v, want 1 in all 400", topo.Kind, q.Histogram)
		}
	}
	for _, dn := range [][2]int{{2, 4}, {3, 3}} {
		c := brebnerBatch(2, "identity", "separate", 300)
		c.Topology, c.Routing = TopologyConfig{Kind: "dshuffle", D: dn[0], N: dn[1]}, "standard"
		e := runBatch(t, c)
		for name, ph := range map[string]*PhaseStats{"phase1": e.Phase1, "phase2": e.Phase2} {
			for v := range ph.CompletionTime.Histogram {
				if v < int64(dn[1]) {
					t.Errorf("%d-shuffle n=%d %s: a phase ended at %d < n: %v", dn[0], dn[1], name, v, ph.CompletionTime.Histogram)
				}
			}
		}
	}
}
