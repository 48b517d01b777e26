package kernel_test

import (
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/network/memory"
)

// scaleCase is one size of BenchmarkScale (issue 29): uniform traffic,
// 4-flit packets (benchConfig), one thread.
type scaleCase struct {
	name string
	topo network.TopologyConfig
	load float64
}

// scaleWarmup is how many cycles a network runs before it is timed: at
// load 0.05 a 4-flit packet crosses the 20-cube in well under 100
// cycles, so by then the flits in flight are those of the steady state.
const scaleWarmup = 200

// scaleCycles bounds the run the memory estimate is asked about: the
// warm-up and a benchmark's cycles (-benchtime 300x is the documented
// setting; the default 1 s takes fewer cycles at 64 K and 1 M).
const scaleCycles = 2000

var scaleCases = []scaleCase{
	{"256", network.TopologyConfig{Kind: "mesh", K: 16, N: 2}, 0.05},
	{"4K", network.TopologyConfig{Kind: "hypercube", D: 12}, 0.05},
	{"64K", network.TopologyConfig{Kind: "hypercube", D: 16}, 0.05},
	// The million-node setting: the 20-cube at load 0.01.
	{"1M", network.TopologyConfig{Kind: "hypercube", D: 20}, 0.01},
}

// BenchmarkScale times the same traffic on networks from 256 to a million
// terminals (issue 29): ns per flit-hop should grow little with the size.
// Each size is built once (build-s, its live heap per port in bytes/port,
// the memory estimate's per-port cost in est-B/port) and warmed up; b.N
// counts cycles. A size whose estimate exceeds the memory available now
// (MemAvailable) is skipped, saying so. Run it as
//
//	go test ./internal/kernel -run X -bench Scale -cpu 1 -benchtime 300x
func BenchmarkScale(b *testing.B) {
	for _, sc := range scaleCases {
		var st *scaleState // built on the first call, reused as b.N grows
		b.Run(sc.name, func(b *testing.B) {
			if st == nil {
				st = newScaleState(b, sc)
			}
			st.run(b)
		})
		st = nil
		runtime.GC() // (the next size starts without this one's heap)
	}
}

// scaleState is a built, warmed-up network and what its build measured.
type scaleState struct {
	n                  *network.Network
	k                  *kernel.Kernel
	buildSec, heapPort float64
	estPort            float64
}

func newScaleState(b *testing.B, sc scaleCase) *scaleState {
	c := benchConfig(sc.topo, sc.load)
	ec := c // the estimate's run: warm-up and timed cycles, not Measure's 2^40
	ec.Run.Measure = scaleCycles
	est, err := memory.ForRun(&ec)
	if err != nil {
		b.Fatal(err)
	}
	if avail := memory.Available(); avail > 0 && est.Total() > float64(avail) {
		b.Skipf("%s: estimated peak memory %s > %s available now (MemAvailable); largest term: %s",
			sc.name, network.ByteSize(est.Total()).Human(), network.ByteSize(avail).Human(), est.Largest().What)
	}
	ports := float64(est.Size.Ports)
	heap0 := liveHeap()
	t0 := time.Now()
	n, err := network.Build(c)
	if err != nil {
		b.Fatal(err)
	}
	st := &scaleState{n: n, k: kernel.Of(n), buildSec: time.Since(t0).Seconds()}
	st.heapPort = float64(liveHeap()-heap0) / ports
	net := est.Terms[1] // (after "the program": the network's term)
	st.estPort = net.Bytes / ports
	for range scaleWarmup {
		n.Cycle()
	}
	return st
}

// run times b.N cycles and reports the rates and the build's figures.
func (st *scaleState) run(b *testing.B) {
	hops0 := st.k.FlitHops
	b.ResetTimer()
	cpu0 := cpuNanos(b)
	for range b.N {
		st.n.Cycle()
	}
	cpu := cpuNanos(b) - cpu0
	reportRates(b, st.k, hops0)
	hops := float64(st.k.FlitHops - hops0)
	if hops == 0 {
		b.Fatal("no flit crossed a switch: nothing was timed")
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/hops, "ns/flit-hop")
	// On a shared machine the wall clock counts the time other programs
	// held the core; the process's CPU time does not.
	b.ReportMetric(float64(cpu)/hops, "cpu-ns/flit-hop")
	b.ReportMetric(st.heapPort, "bytes/port")
	b.ReportMetric(st.estPort, "est-B/port")
	b.ReportMetric(st.buildSec, "build-s")
}

// cpuNanos is the CPU time (user and system) the process has used so far.
func cpuNanos(b *testing.B) int64 {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		b.Fatal(err)
	}
	return u.Utime.Nano() + u.Stime.Nano()
}

// liveHeap is the heap in use after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// The cases are the sizes.
func TestScaleCases(t *testing.T) {
	want := map[string]int64{"256": 256, "4K": 4096, "64K": 65536, "1M": 1 << 20}
	for _, sc := range scaleCases {
		c := benchConfig(sc.topo, sc.load)
		est, err := memory.ForRun(&c)
		if err != nil {
			t.Fatal(err)
		}
		if got := est.Size.Terminals; got != want[sc.name] {
			t.Errorf("%s: %d terminals, want %d", sc.name, got, want[sc.name])
		}
		if !strings.HasPrefix(est.Terms[1].What, "the network") {
			t.Errorf("%s: estimate's second term is %q, not the network's", sc.name, est.Terms[1].What)
		}
	}
}
