package trace

import (
	"bufio"
	"github.com/flitsim/flitsim/internal/kernel"
	"io"
	"testing"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/network"
	xbar "github.com/flitsim/flitsim/switch"
)

// benchMesh is network's BenchmarkMesh8x8 point: 8×8 mesh, wormhole, DOR,
// uniform traffic, 4-flit packets, load 0.3, measured forever.
func benchMesh() network.Config {
	c := network.Default()
	c.Topology = network.TopologyConfig{Kind: "mesh", K: 8, N: 2}
	c.Traffic.Load = 0.3
	c.Traffic.Flits = network.FlitRange{Min: 4, Max: 4}
	c.Run = network.RunConfig{Warmup: 0, Measure: 1 << 40, Drain: 0, Seed: 1, DeadlockCheck: 256}
	return c
}

// benchTrace runs the reference point with the tracer mk makes (nil: none),
// like network's benchCycles: 2000 cycles of warm-up, then b.N timed cycles.
func benchTrace(b *testing.B, mk func(w io.Writer, k *kernel.Kernel) (Writer, error)) {
	n, err := network.Build(benchMesh())
	if err != nil {
		b.Fatal(err)
	}
	var w Writer
	if mk != nil {
		if w, err = mk(bufio.NewWriter(io.Discard), kernel.Of(n)); err != nil {
			b.Fatal(err)
		}
		kernel.Of(n).SetTracer(w)
	}
	for i := 0; i < 2000; i++ {
		n.Cycle()
	}
	hops0 := kernel.Of(n).FlitHops
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n.Cycle()
	}
	b.StopTimer()
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(b.N)/sec, "cycles/s")
	b.ReportMetric(float64(kernel.Of(n).FlitHops-hops0)/sec, "flit-hops/s")
	if w != nil {
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMesh8x8 is network's reference point without a tracer, for
// comparison in the same run.
func BenchmarkMesh8x8(b *testing.B) { benchTrace(b, nil) }

// BenchmarkMesh8x8VCD traces every signal of the reference point into a
// VCD (written to io.Discard through a bufio writer).
func BenchmarkMesh8x8VCD(b *testing.B) {
	benchTrace(b, func(w io.Writer, k *kernel.Kernel) (Writer, error) { return NewVCD(w, k, Options{}) })
}

// BenchmarkMesh8x8Events logs every event of the reference point as CSV.
func BenchmarkMesh8x8Events(b *testing.B) {
	benchTrace(b, func(w io.Writer, k *kernel.Kernel) (Writer, error) { return NewEvents(w, k, CSV, Options{}) })
}

// BenchmarkMesh8x8Perfetto writes the reference point's timeline.
func BenchmarkMesh8x8Perfetto(b *testing.B) {
	benchTrace(b, func(w io.Writer, k *kernel.Kernel) (Writer, error) { return NewPerfetto(w, k, Options{}) })
}

// nop is a tracer that does nothing: what the kernel's hooks cost alone.
type nop struct{}

func (nop) Granted(int64, int32, int32, int32, xbar.PortSet)            {}
func (nop) Move(int64, flit.Flit, int32, int32, int32, int64)           {}
func (nop) Blocked(int64, flit.Flit, int32, network.Wait, int32, int32) {}
func (nop) Delivered(int64, *flit.Worm, int32, int32)                   {}
func (nop) EndCycle(int64)                                              {}
func (nop) Close() error                                                { return nil }

// BenchmarkMesh8x8Nop attaches a tracer that does nothing: the cost of the
// kernel's tracing hooks (blocked-reason classification included).
func BenchmarkMesh8x8Nop(b *testing.B) {
	benchTrace(b, func(io.Writer, *kernel.Kernel) (Writer, error) { return nop{}, nil })
}
