package collective

import (
	"fmt"
	"syscall"
	"testing"

	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network/memory"
	"github.com/flitsim/flitsim/network/topology"
)

// collScaleCase is one size of BenchmarkCollectiveScale (issue 29 §4):
// TE on the scheduled packet router, MNB on the lock-step hardware, each
// at a small and a large cube, so that the cost per packet-hop at the
// large size can be set against the small one's.
type collScaleCase struct {
	task string // "te" (router) or "mnb" (lock-step)
	d    int
}

var collScaleCases = []collScaleCase{{"te", 8}, {"te", 12}, {"te", 14}, {"mnb", 8}, {"mnb", 14}, {"mnb", 16}}

// teBytesPerPacket is what TE holds per packet at its peak (every packet
// exists at slot 0): the router's record and the schedule's row slot.
const teBytesPerPacket = 20 + 4

// collScaleEstimate is the case's peak memory by its largest terms: TE's
// N(N−1) packets; MNB's registers (a valid bit per node each, about 0.28·N
// of them: their keys are kept as one offset per register) and the
// checker's bit per (node, origin).
func collScaleEstimate(c collScaleCase) float64 {
	n := float64(int64(1) << c.d)
	if c.task == "te" {
		return n * (n - 1) * teBytesPerPacket
	}
	return 0.28*n*n/8 + n*n/8
}

// BenchmarkCollectiveScale runs TE on the scheduled packet router
// (task.hardware does not apply: it has only the router) and MNB on the
// lock-step hardware on the 8-cube and on the largest cubes they take,
// each run whole (setup included) b.N times. It reports packet-hops/s,
// ns/packet-hop (wall clock), cpu-ns/packet-hop (the process's CPU time:
// on a shared machine it leaves out the time others held the core) and
// maxrss-MB (the process's peak resident set so far: the case's own only
// when it runs alone, as the large ones should). A case whose estimated
// peak memory exceeds MemAvailable is skipped, saying so. TE on the
// 14-cube runs past collective's limit for te (13), which exists for the
// memory it takes. Run a large case alone:
//
//	go test ./network/collective -run X -bench 'CollectiveScale/te-d14$' -benchtime 1x
func BenchmarkCollectiveScale(b *testing.B) {
	for _, c := range collScaleCases {
		b.Run(fmt.Sprintf("%s-d%d", c.task, c.d), func(b *testing.B) {
			if est, avail := collScaleEstimate(c), memory.Available(); avail > 0 && est > float64(avail) {
				b.Skipf("estimated peak memory %.1f GB > %.1f GB available now (MemAvailable)", est/1e9, float64(avail)/1e9)
			}
			benchCollScale(b, c)
		})
	}
}

func benchCollScale(b *testing.B, c collScaleCase) {
	spec := topology.Spec{Kind: "hypercube", D: c.d}
	n := 1 << c.d
	want := float64(n / 2) // TE by the OCTR: N/2
	if c.task == "mnb" {
		want = float64(ceilDiv(n-1, c.d))
	}
	var hops float64
	cpu0 := cpuNanos(b)
	for range b.N {
		var r *Result
		var err error
		if c.task == "te" {
			r, err = runOn(spec, "te", 1, nil, func(k *kernel.Kernel, cb *cube, ck *checker, px *proxy, r *Result) error {
				return setup(k, cb, "te", nil, 1, ck, px, r)
			})
		} else {
			r, err = runMNBLockstep(spec, 1, nil)
		}
		if err != nil || !r.Delivered || r.Slots != want {
			b.Fatalf("%s d=%d: %v, slots %v (want %v), delivered %v", c.task, c.d, err, r.Slots, want, r != nil && r.Delivered)
		}
		hops += float64(r.Transmissions)
	}
	cpu := float64(cpuNanos(b) - cpu0)
	if wantHops := float64(b.N) * teOrMNBHops(c); hops != wantHops {
		b.Fatalf("%v packet-hops, want %v", hops, wantHops)
	}
	b.ReportMetric(hops/b.Elapsed().Seconds(), "packet-hops/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/hops, "ns/packet-hop")
	b.ReportMetric(cpu/hops, "cpu-ns/packet-hop")
	b.ReportMetric(float64(maxRSS(b))/(1<<20), "maxrss-MB")
}

// teOrMNBHops is the case's packet-hops: TE sends each of N(N−1) packets
// over its distance (N·d·N/2 hops in all), MNB each of N packets over a
// spanning tree (N−1 hops each).
func teOrMNBHops(c collScaleCase) float64 {
	n := float64(int64(1) << c.d)
	if c.task == "te" {
		return n * float64(c.d) * n / 2
	}
	return n * (n - 1)
}

// cpuNanos is the CPU time (user and system) the process has used so far.
func cpuNanos(b *testing.B) int64 {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		b.Fatal(err)
	}
	return u.Utime.Nano() + u.Stime.Nano()
}

// maxRSS is the process's peak resident set in bytes.
func maxRSS(b *testing.B) int64 {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		b.Fatal(err)
	}
	return u.Maxrss << 10 // (kB on Linux)
}
