package han

import "testing"

// BenchmarkH256 routes a random permutation with H on a 256×256 mesh
// (static schedule) and reports processor-steps/s: processors × steps
// (data and integer) simulated per second.
func BenchmarkH256(b *testing.B) { benchRoute(b, AlgH, 256) }

// BenchmarkQ256 is the same with Q.
func BenchmarkQ256(b *testing.B) { benchRoute(b, AlgQ, 256) }

func benchRoute(b *testing.B, alg string, n int) {
	p, _ := Permutation("random", n, 1)
	var steps int64
	for b.Loop() {
		r, err := Run(alg, n, Buffers(alg, n), p, Static)
		if err != nil {
			b.Fatal(err)
		}
		steps = r.TotalSteps
	}
	b.ReportMetric(float64(n*n)*float64(steps)*float64(b.N)/b.Elapsed().Seconds(), "processor-steps/s")
}

// BenchmarkH1024 is issue 26's speed target: H on a 1024×1024 mesh, static
// schedule, a random permutation, in processor-steps/s.
func BenchmarkH1024(b *testing.B) { benchRoute(b, AlgH, 1024) }
