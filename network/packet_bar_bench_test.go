package network

import (
	"testing"
	"time"
)

// BenchmarkPacketBar puts the packet router beside the flit kernel's best
// figure per hop in one process: it alternates slices of about 20 ms of
// Valiant experiments (as PacketValiant's serial runs) with slices of the
// same length of the flit kernel's 16×16 mesh (internal/kernel's
// BenchmarkMesh16x16 on one thread: wormhole, DOR, uniform 4-flit packets
// at load 0.1, its best figure on this project's 2-core machine), so that
// both see the same clock and the same neighbours on a shared machine.
// Separate runs of the two spread by ±30 % between seconds there, so a
// ratio of separate runs needed dozens of rounds to mean anything. It
// reports each side's hops/s and their ratio (packet-hops over
// flit-hops). A slice of whole experiments is long enough that refilling
// the caches after the other side's slice costs little.
func BenchmarkPacketBar(b *testing.B) {
	for _, v := range valiantBenches() {
		b.Run(v.name, func(b *testing.B) { benchBar(b, v.c) })
	}
}

// barSlice is how long each side runs before the other takes over.
const barSlice = 20 * time.Millisecond

func benchBar(b *testing.B, c Config) {
	p, err := Build(c)
	if err != nil {
		b.Fatal(err)
	}
	m := Default()
	m.Topology = TopologyConfig{Kind: "mesh", K: 16, N: 2}
	m.Traffic.Load, m.Traffic.Flits = 0.1, FlitRange{Min: 4, Max: 4}
	m.Run = RunConfig{Measure: 1 << 40, Seed: 1, DeadlockCheck: 256, Workers: 1}
	f, err := Build(m)
	if err != nil {
		b.Fatal(err)
	}
	for range 2000 { // (as BenchmarkMesh16x16: past the empty start)
		f.Cycle()
	}
	var pTime, fTime time.Duration
	var pHops, fHops int64
	exp := 0
	b.ResetTimer()
	for range b.N {
		h0, t0 := p.k.FlitHops, time.Now()
		for time.Since(t0) < barSlice {
			if exp > 0 && !p.restart(exp) {
				b.Fatal("restart")
			}
			for !p.Done() {
				p.Cycle()
			}
			exp++
		}
		pTime, pHops = pTime+time.Since(t0), pHops+p.k.FlitHops-h0
		h0, t0 = f.k.FlitHops, time.Now()
		for time.Since(t0) < barSlice {
			for range 100 {
				f.Cycle()
			}
		}
		fTime, fHops = fTime+time.Since(t0), fHops+f.k.FlitHops-h0
	}
	b.StopTimer()
	if f.k.Deadlock != nil || f.k.Violations.Total() != 0 || p.k.Violations.Total() != 0 {
		b.Fatalf("deadlock %v, violations %+v, %+v", f.k.Deadlock, f.k.Violations, p.k.Violations)
	}
	pr, fr := float64(pHops)/pTime.Seconds(), float64(fHops)/fTime.Seconds()
	b.ReportMetric(pr, "packet-hops/s")
	b.ReportMetric(fr, "mesh-flit-hops/s")
	b.ReportMetric(pr/fr, "ratio")
}
