package xbar

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkAllocator times one allocation cycle (Clear, the requests,
// Allocate) on the shapes an input-queued router on the 8×8 mesh uses: the
// 5×5 switch allocator (every input asking for about two outputs) and the
// VC allocators of 2 and 16 VCs (10×10, 80×80; each input VC asking for the
// VCs of one output port). Reports allocations/s.
func BenchmarkAllocator(b *testing.B) {
	shapes := []struct {
		name       string
		ports, vcs int
		perInput   int
	}{
		{"sw5x5", 5, 1, 2},
		{"vc10x10", 5, 2, 2},
		{"vc80x80", 5, 16, 16},
	}
	for _, kind := range AllocatorNames() {
		for _, sh := range shapes {
			b.Run(fmt.Sprintf("%s/%s", kind, sh.name), func(b *testing.B) {
				n := sh.ports * sh.vcs
				a := mustAlloc(b, kind, n, n, 2)
				r := rand.New(rand.NewPCG(3, uint64(n)))
				// 64 precomputed cycles of requests: each input asks
				// for perInput consecutive outputs of a random port.
				const cycles = 64
				reqs := make([][][2]int, cycles)
				for c := range reqs {
					for in := range n {
						if r.IntN(2) == 0 {
							continue
						}
						port := r.IntN(sh.ports)
						for k := range sh.perInput {
							reqs[c] = append(reqs[c], [2]int{in, (port*sh.vcs + k) % n})
						}
					}
				}
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					a.Clear()
					for _, q := range reqs[i%cycles] {
						a.AddRequest(q[0], q[1], 0)
					}
					a.Allocate()
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "allocations/s")
			})
		}
	}
}
