package kernel_test

import (
	"fmt"
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
}

var scaleCases = []scaleCase{
	{"256", network.TopologyConfig{Kind: "mesh", K: 16, N: 2}},
	{"4K", network.TopologyConfig{Kind: "hypercube", D: 12}},
	{"64K", network.TopologyConfig{Kind: "hypercube", D: 16}},
	{"1M", network.TopologyConfig{Kind: "hypercube", D: 20}},
}

// scaleLoads are the loads tried, in turn, until the memory estimate
// fits: the 0.05 at every size, and where that does not fit (the
// 20-cube on most machines) the million-node setting, 0.01.
var scaleLoads = []float64{0.05, 0.01}

// scaleWarmup is how many cycles a network runs before it is timed: at
// load 0.05 a 4-flit packet crosses the 20-cube in well under 100
// cycles, so by then the flits in flight are those of the steady state.
const scaleWarmup = 100

// scaleCycles is the run the memory estimate is asked about: the warm-up
// and the documented -benchtime 300x. (With no run.max_backlog the
// estimate counts every packet generated as alive.)
const scaleCycles = scaleWarmup + 300

// BenchmarkScale times the same traffic on networks from 256 to a million
// terminals (issue 29): ns per flit-hop should grow little with the size.
// Each size is built once (build-s, its live heap per port in bytes/port,
// the memory estimate's per-port cost in est-B/port) and warmed up; b.N
// counts cycles. A size whose estimate exceeds the memory available now
// (MemAvailable) at load 0.05 runs at 0.01 (named so), and is skipped,
// saying why, if that does not fit either. Run it as
//
//	go test ./internal/kernel -run X -bench Scale -cpu 1 -benchtime 300x
func BenchmarkScale(b *testing.B) {
	for _, sc := range scaleCases {
		c, est, skip := scaleFit(b, sc)
		name := sc.name
		if c.Traffic.Load != scaleLoads[0] {
			name = fmt.Sprintf("%s-load%g", sc.name, c.Traffic.Load)
		}
		var st *scaleState // built on the first call, reused as b.N grows
		b.Run(name, func(b *testing.B) {
			if skip != "" {
				b.Skip(skip)
			}
			if st == nil {
				st = newScaleState(b, c, est)
			}
			st.run(b)
		})
		st = nil
		runtime.GC() // (the next size starts without this one's heap)
	}
}

// scaleFit is sc's configuration at the first of scaleLoads whose memory
// estimate fits in the memory available now, or why none does.
func scaleFit(b *testing.B, sc scaleCase) (network.Config, *memory.Estimate, string) {
	avail := memory.Available()
	var why []string
	for _, load := range scaleLoads {
		c := benchConfig(sc.topo, load)
		ec := c // the estimate's run: scaleCycles, not Measure's 2^40
		ec.Run.Measure = scaleCycles
		est, err := memory.ForRun(&ec)
		if err != nil {
			b.Fatal(err)
		}
		if avail <= 0 || est.Total() <= float64(avail) {
			return c, est, ""
		}
		why = append(why, fmt.Sprintf("at load %g estimated peak memory %s > %s available now (MemAvailable); largest term: %s",
			load, network.ByteSize(est.Total()).Human(), network.ByteSize(avail).Human(), est.Largest().What))
	}
	return network.Config{}, nil, sc.name + ": " + strings.Join(why, "; ")
}

// scaleState is a built, warmed-up network and what its build measured.
type scaleState struct {
	n                  *network.Network
	k                  *kernel.Kernel
	buildSec, heapPort float64
	estPort            float64
}

func newScaleState(b *testing.B, c network.Config, est *memory.Estimate) *scaleState {
	ports := float64(est.Size.Ports)
	heap0 := liveHeap()
	t0 := time.Now()
	n, err := network.Build(c)
	if err != nil {
		b.Fatal(err)
	}
	st := &scaleState{n: n, k: kernel.Of(n), buildSec: time.Since(t0).Seconds()}
	st.heapPort = float64(liveHeap()-heap0) / ports
	st.estPort = est.Terms[1].Bytes / ports // (after "the program": the network's term)
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
		c := benchConfig(sc.topo, scaleLoads[0])
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
