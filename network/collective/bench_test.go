package collective

import (
	"testing"

	"github.com/flitsim/flitsim/network/topology"
)

// benchRun runs task on the d-cube b.N times and reports slots/s and
// packet-hops/s (transmissions: packets or copies crossing a link), with
// the schedule's setup (OCTR, the MNB tree) included in the time. It
// fails unless every run delivers in want slots.
func benchRun(b *testing.B, task string, d int, want float64) { benchRunWith(b, task, d, want, nil) }

func benchRunWith(b *testing.B, task string, d int, want float64, params map[string]string) {
	b.ReportAllocs()
	var slots, hops float64
	for range b.N {
		r, err := Run(topology.Spec{Kind: "hypercube", D: d}, task, params, 1)
		if err != nil || !r.Delivered || r.Slots != want {
			b.Fatalf("%s d=%d: %v, %+v", task, d, err, r)
		}
		slots += r.Slots
		hops += float64(r.Transmissions)
	}
	b.ReportMetric(slots/b.Elapsed().Seconds(), "slots/s")
	b.ReportMetric(hops/b.Elapsed().Seconds(), "packet-hops/s")
}

// TE on the 10-cube: N = 1024, 1 047 552 packets, 512 slots.
func BenchmarkTE10(b *testing.B) { benchRun(b, "te", 10, 512) }

// TE on the 12-cube: N = 4096, N(N−1) = 16 773 120 packets (about 2^24),
// 2048 slots, 100 663 296 packet-hops.
func BenchmarkTE12(b *testing.B) { benchRun(b, "te", 12, 2048) }

// MNB on the 12-cube: 342 slots, 16 773 120 packet-hops (on the lock-step
// hardware, the default; MNB12Router: the same schedule node by node on
// the scheduled router).
func BenchmarkMNB12(b *testing.B) { benchRun(b, "mnb", 12, 342) }

func BenchmarkMNB12Router(b *testing.B) {
	benchRunWith(b, "mnb", 12, 342, map[string]string{"task.hardware": "router"})
}

// MNB on the 14-cube: 1171 slots, 268 419 072 packet-hops.
func BenchmarkMNB14(b *testing.B) { benchRun(b, "mnb", 14, 1171) }

// MNB on the 16-cube: 4096 slots, 4 294 901 760 packet-hops; about 1 GB
// and 8 s a run on the idle machine (run it with -benchtime 1x).
func BenchmarkMNB16(b *testing.B) { benchRun(b, "mnb", 16, 4096) }
