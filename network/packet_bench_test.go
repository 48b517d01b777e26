package network

import (
	"testing"
	"time"
)

// BenchmarkPacketBatch12Cube: Brebner-style batch routing on the 12-cube
// (4096 nodes, one packet each, a random permutation, one phase; strict
// e-cube or Brebner's random order of dimensions) with the
// packet-switched router: one experiment per iteration on one core
// (serial), and b.N experiments spread over all cores (experiments).
func BenchmarkPacketBatch12Cube(b *testing.B) {
	for _, routing := range []string{"ecube", "random-order"} {
		c := Default()
		c.Topology = TopologyConfig{Kind: "hypercube", D: 12}
		c.Switching, c.Routing = "packet", routing
		c.Traffic.Flits = FlitRange{Min: 1, Max: 1}
		c.Traffic.Mode, c.Traffic.Pattern = "batch", "random-permutation"
		b.Run(routing+"/serial", func(b *testing.B) { benchPacketSerial(b, c) })
		b.Run(routing+"/experiments", func(b *testing.B) { benchPacketExperiments(b, c) })
	}
}

// BenchmarkPacketValiant: Valiant's two-phase routing (valiant: separate,
// batch mode, one packet per node, identity input as in the Brebner verify
// rows) with Brebner's standard routes: random-order on the 12-cube, digit
// shifting on the 3-shuffle with n = 6 (729 nodes). serial runs one
// experiment per iteration on one core; experiments spreads b.N over all.
func BenchmarkPacketValiant(b *testing.B) {
	for _, v := range valiantBenches() {
		b.Run(v.name+"/serial", func(b *testing.B) { benchPacketSerial(b, v.c) })
		b.Run(v.name+"/experiments", func(b *testing.B) { benchPacketExperiments(b, v.c) })
	}
}

// valiantBench is a named configuration of the Valiant benchmarks.
type valiantBench struct {
	name string
	c    Config
}

// valiantBenches are PacketValiant's (and PacketBar's) configurations:
// Valiant's separate phases, batch mode, one packet per node, identity
// input, Brebner's standard routes on the 12-cube and the 3-shuffle with
// n = 6.
func valiantBenches() []valiantBench {
	var vs []valiantBench
	for _, t := range []struct {
		name    string
		topo    TopologyConfig
		routing string
	}{
		{"12cube", TopologyConfig{Kind: "hypercube", D: 12}, "random-order"},
		{"3shuffle6", TopologyConfig{Kind: "dshuffle", D: 3, N: 6}, "standard"},
	} {
		c := Default()
		c.Topology, c.Routing = t.topo, t.routing
		c.Switching, c.Valiant = "packet", "separate"
		c.Traffic.Flits = FlitRange{Min: 1, Max: 1}
		c.Traffic.Mode, c.Traffic.Pattern = "batch", "identity"
		vs = append(vs, valiantBench{t.name, c})
	}
	return vs
}

// benchPacketSerial runs b.N experiments of c one after another on one
// network (restarted between them).
func benchPacketSerial(b *testing.B, c Config) {
	n, err := Build(c)
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	for i := range b.N {
		if i > 0 && !n.restart(i) {
			b.Fatal("restart")
		}
		for !n.Done() {
			n.Cycle()
		}
	}
	s := time.Since(start).Seconds()
	b.ReportMetric(float64(n.k.FlitHops)/s, "packet-hops/s")
	b.ReportMetric(float64(b.N)/s, "experiments/s")
	b.ReportMetric(float64(n.k.FlitHops)/float64(b.N), "packet-hops/experiment")
}

// benchPacketExperiments runs b.N experiments of c as one batch
// (run.experiments, on all cores).
func benchPacketExperiments(b *testing.B, c Config) {
	c.Run.Experiments = b.N
	n, err := Build(c)
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	r, err := n.RunPlain()
	if err != nil || r.Experiments.Incomplete > 0 {
		b.Fatal(err)
	}
	s := time.Since(start).Seconds()
	b.ReportMetric(float64(b.N)/s, "experiments/s")
	b.ReportMetric(r.Experiments.Total.CompletionTime.Mean, "cycles/experiment")
	b.ReportMetric(float64(r.Experiments.PacketHops)/s, "packet-hops/s")
	b.ReportMetric(float64(r.Experiments.PacketHops)/float64(b.N), "packet-hops/experiment")
}
