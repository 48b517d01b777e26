package kernel_test

import (
	"fmt"
	"testing"

	"github.com/flitsim/flitsim/network"
)

// BenchmarkMesh8x8IQ is BenchmarkMesh8x8's network and traffic (8×8 mesh,
// DOR, uniform, 4-flit packets) on the input-queued VC router of the
// public seam (router.model: iq, switch/iq) with BookSim's runfile
// pipeline (8-flit VCs, iSLIP ×2, credit delay 2), at loads 0.2 and 0.3:
// what the public path and virtual channels cost against the wormhole
// kernel's private fast path (docs/vc.md records the figures).
func BenchmarkMesh8x8IQ(b *testing.B) {
	for _, load := range []float64{0.2, 0.3} {
		for _, vcs := range []int{1, 2, 16} {
			b.Run(fmt.Sprintf("load=%.1f/vcs=%d", load, vcs), func(b *testing.B) {
				c := benchConfig(network.TopologyConfig{Kind: "mesh", K: 8, N: 2}, load)
				two, v := 2, vcs
				c.Router = network.RouterConfig{Model: "iq", CreditDelay: 2, AllocIters: &two}
				c.Buffers.Input, c.Buffers.VCs = 8, &v
				benchCycles(b, c)
			})
		}
	}
}
