package kernel_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network"
)

// packetScaleLoad is BenchmarkPacketScale's load: BenchmarkScale's, in
// one-unit packets per terminal per cycle.
const packetScaleLoad = 0.05

// BenchmarkPacketScale is BenchmarkScale for the packet router (issue 29
// §4): open uniform traffic of one-unit packets at load 0.05, one thread,
// on the 16×16 mesh (256 terminals, its default routing), the 12-cube
// (4 K) and the 16-cube (64 K; e-cube), each built once and warmed up,
// b.N cycles timed. It reports packet-hops/s, ns/packet-hop (wall),
// cpu-ns/packet-hop (the process's CPU time), bytes/port (live heap after
// the build) and build-s, and fails unless the router's fast step took
// every timed cycle. Run it as
//
//	go test ./internal/kernel -run X -bench PacketScale -cpu 1 -benchtime 2000x
func BenchmarkPacketScale(b *testing.B) {
	for _, sc := range scaleCases[:3] {
		var st *packetScaleState
		b.Run(sc.name, func(b *testing.B) {
			if st == nil {
				st = newPacketScaleState(b, sc.topo)
			}
			st.run(b)
		})
		st = nil
		runtime.GC()
	}
}

type packetScaleState struct {
	n                  *network.Network
	k                  *kernel.Kernel
	buildSec, heapPort float64
}

func newPacketScaleState(b *testing.B, t network.TopologyConfig) *packetScaleState {
	c := benchConfig(t, packetScaleLoad)
	c.Switching = "packet"
	c.Traffic.Flits = network.FlitRange{Min: 1, Max: 1}
	heap0 := liveHeap()
	t0 := time.Now()
	n, err := network.Build(c)
	if err != nil {
		b.Fatal(err)
	}
	st := &packetScaleState{n: n, k: kernel.Of(n), buildSec: time.Since(t0).Seconds()}
	st.heapPort = float64(liveHeap()-heap0) / float64(ports(st.k))
	for range scaleWarmup {
		n.Cycle()
	}
	return st
}

func (st *packetScaleState) run(b *testing.B) {
	hops0, fast0 := st.k.FlitHops, st.k.PacketFastSteps()
	b.ResetTimer()
	cpu0 := cpuNanos(b)
	for range b.N {
		st.n.Cycle()
	}
	cpu := cpuNanos(b) - cpu0
	b.StopTimer()
	hops := float64(st.k.FlitHops - hops0)
	if hops == 0 {
		b.Fatal("no packet crossed a link: nothing was timed")
	}
	if got := st.k.PacketFastSteps() - fast0; got != int64(b.N) {
		b.Fatalf("the fast step took %d of %d cycles", got, b.N)
	}
	b.ReportMetric(hops/b.Elapsed().Seconds(), "packet-hops/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/hops, "ns/packet-hop")
	b.ReportMetric(float64(cpu)/hops, "cpu-ns/packet-hop")
	b.ReportMetric(st.heapPort, "bytes/port")
	b.ReportMetric(st.buildSec, "build-s")
}

// ports counts the network's switch ports.
func ports(k *kernel.Kernel) int {
	n := 0
	for _, sw := range k.Topo.Switches {
		n += len(sw.Out)
	}
	return n
}
