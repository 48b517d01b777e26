package collective

import (
	"testing"

	"github.com/flitsim/flitsim/network/topology"
)

// BenchmarkTE10 is total exchange on the 10-cube (N = 1024, 1 047 552
// packets, 512 slots): slots/s and packet-hops/s (no timing assertions).
func BenchmarkTE10(b *testing.B) {
	for range b.N {
		r, err := Run(topology.Spec{Kind: "hypercube", D: 10}, "te", nil, 1)
		if err != nil || !r.Delivered || r.Slots != 512 {
			b.Fatalf("%v %+v", err, r)
		}
		b.ReportMetric(float64(r.Slots)/b.Elapsed().Seconds()*float64(b.N), "slots/s")
		b.ReportMetric(float64(r.Transmissions)/b.Elapsed().Seconds()*float64(b.N), "packet-hops/s")
	}
}
