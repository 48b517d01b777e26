package kernel

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/network/topology"
	xbar "github.com/flitsim/flitsim/switch"
)

func packetKernel(t testing.TB, ts topology.Spec, ps PacketSpec, seed uint64) *Kernel {
	t.Helper()
	topo, err := topology.Build(ts)
	if err != nil {
		t.Fatal(err)
	}
	k, err := NewKernel(topo, KernelSpec{Mode: xbar.SAF, OutDepth: 1, Latency: 1, Seed: seed, Model: "packet", Packet: ps})
	if err != nil {
		t.Fatal(err)
	}
	k.CollectStats(0, 1, false)
	return k
}

// batch puts the packets src → dst(src, j) at every node at cycle 0 and
// steps until all are delivered; it returns the cycles taken.
func batch(t testing.TB, k *Kernel, h int, dst func(src, j int) int) int64 {
	t.Helper()
	n := k.Topo.Terminals()
	for src := range n {
		for j := range h {
			k.EnqueueLater(src, dst(src, j), 1)
		}
	}
	for !k.Idle() || len(k.later[0]) > 0 {
		if k.Now() > 100000 {
			t.Fatalf("batch not done after %d cycles", k.Now())
		}
		k.Step()
	}
	if v := k.Violations; v.Total() != 0 {
		t.Fatalf("violations %+v", v)
	}
	return k.Now()
}

// TestPacketTwoCubePhaseOneExact: on the 2-cube no two phase-1 packets
// ever compete (digest §5.5 item 1), so the phase-1 time is the longest
// route. Run every one of the 4^4 choices of intermediate nodes and check
// the phase's time and queues, then the exact mean 430/256 = 1.680 and its
// distribution (1, 80, 175 of 256).
func TestPacketTwoCubePhaseOneExact(t *testing.T) {
	var hist [3]int
	for choice := range 256 {
		mids := [4]int32{}
		for i := range mids {
			mids[i] = int32(choice >> (2 * i) & 3)
		}
		ps := PacketSpec{Barrier: true, Via: func(w *flit.Worm, _ *rand.Rand) int32 { return mids[w.Src] }}
		k := packetKernel(t, topology.Spec{Kind: "hypercube", D: 2, Routing: "ecube"}, ps, uint64(choice))
		batch(t, k, 1, func(src, _ int) int { return src })
		longest := 0
		for i, m := range mids {
			longest = max(longest, bits.OnesCount(uint(i)^uint(m)))
		}
		ph := k.PacketMeasures()
		if len(ph) != 2 || ph[0].Time != int64(longest) || ph[0].MaxQueue > 1 || (longest > 0) != (ph[0].MaxQueue == 1) {
			t.Fatalf("mids %v: phases %+v, longest route %d", mids, ph, longest)
		}
		// Phase 2's routes are phase 1's backwards, so it takes at least
		// as long; the run lasts the sum of the phases.
		if ph[1].Time < int64(longest) || ph[0].Time+ph[1].Time > 0 && k.Now() != ph[0].Time+ph[1].Time {
			t.Fatalf("mids %v: phases %+v over %d cycles", mids, ph, k.Now())
		}
		hist[longest]++
	}
	if hist != [3]int{1, 80, 175} {
		t.Fatalf("phase-1 time histogram %v, want [1 80 175]", hist)
	}
	if mean := float64(hist[1]+2*hist[2]) / 256; math.Abs(mean-1.6797) > 1e-4 {
		t.Fatalf("mean %.4f", mean)
	}
}

// TestPacketTwoCubePhaseOneSampled: with the intermediate nodes drawn by
// the model (uniform over all four), the mean phase-1 time over 4000
// experiments is 1.680 within 4 standard errors (variance 0.226).
func TestPacketTwoCubePhaseOneSampled(t *testing.T) {
	const m = 4000
	sum := 0.0
	uniform := func(w *flit.Worm, rng *rand.Rand) int32 { return int32(rng.IntN(4)) }
	for e := range m {
		k := packetKernel(t, topology.Spec{Kind: "hypercube", D: 2, Routing: "ecube-random"}, PacketSpec{Barrier: true, Via: uniform}, uint64(e+1))
		batch(t, k, 1, func(src, _ int) int { return src })
		sum += float64(k.PacketMeasures()[0].Time)
	}
	if mean, se := sum/m, math.Sqrt(0.226/m); math.Abs(mean-430.0/256) > 4*se {
		t.Fatalf("mean phase-1 time %.4f over %d experiments, want 1.680 ± %.4f", mean, m, 4*se)
	}
}

// TestPacketPhaseInvariants (digest §5.5 items 3 and 4): on the 4-cube
// with random intermediate nodes, every phase lasts at least its longest
// route; at the barrier the node populations are the counts of
// intermediate nodes, so both phases' largest population is at least the
// fullest bin; phase 1 starts with one packet queued per node (max queue
// ≥ 1 unless every route is empty).
func TestPacketPhaseInvariants(t *testing.T) {
	for e := range 200 {
		var mids [16]int32
		via := func(w *flit.Worm, rng *rand.Rand) int32 {
			mids[w.Src] = int32(rng.IntN(16))
			return mids[w.Src]
		}
		k := packetKernel(t, topology.Spec{Kind: "hypercube", D: 4, Routing: "ecube-random"}, PacketSpec{Barrier: true, Via: via}, uint64(e))
		batch(t, k, 1, func(src, _ int) int { return src })
		var bins [16]int32
		longest, fullest := 0, int32(0)
		for i, m := range mids {
			longest = max(longest, bits.OnesCount(uint(i)^uint(m)))
			bins[m]++
			fullest = max(fullest, bins[m])
		}
		ph := k.PacketMeasures()
		if len(ph) != 2 || ph[0].Time < int64(longest) || ph[1].Time < int64(longest) ||
			ph[0].MaxPopulation < fullest || ph[1].MaxPopulation < fullest || (longest > 0) != (ph[0].MaxQueue >= 1) {
			t.Fatalf("experiment %d: phases %+v, longest route %d, fullest bin %d", e, ph, longest, fullest)
		}
		if k.Stats().Counts().DeliveredPackets != 16 || k.Now() != max(1, ph[0].Time+ph[1].Time) {
			t.Fatalf("experiment %d: %d delivered in %d cycles, phases %+v", e, k.Stats().Counts().DeliveredPackets, k.Now(), ph)
		}
	}
}

// TestPacketFurthestFirstNineCube (digest §5.5 item 5): with
// furthest-first queues and random-order routing (Brebner's), phase 1 on
// the 512-node cube finishes with its
// longest route in nearly every run: mean 8.632 (E[max of 512
// Binomial(9, ½)]), P(time = 8) = 0.367.
func TestPacketFurthestFirstNineCube(t *testing.T) {
	const m = 300
	sum, eights, longer := 0.0, 0, 0
	for e := range m {
		var mids [512]int32
		via := func(w *flit.Worm, rng *rand.Rand) int32 {
			mids[w.Src] = int32(rng.IntN(512))
			return mids[w.Src]
		}
		k := packetKernel(t, topology.Spec{Kind: "hypercube", D: 9, Routing: "random-order"},
			PacketSpec{Barrier: true, Via: via, Discipline: "furthest-first"}, uint64(e))
		batch(t, k, 1, func(src, _ int) int { return src })
		longest := 0
		for i, m := range mids {
			longest = max(longest, bits.OnesCount(uint(i)^uint(m)))
		}
		tm := k.PacketMeasures()[0].Time
		sum += float64(tm)
		if tm == 8 {
			eights++
		}
		if tm > int64(longest) {
			longer++
		}
	}
	mean := sum / m
	t.Logf("mean %.3f, P(8) %.3f, %d of %d runs longer than their longest route", mean, float64(eights)/m, longer, m)
	// (Var of the max ≈ 0.232: 4 standard errors over 300 runs ≈ 0.11.)
	if math.Abs(mean-8.632) > 0.11 || longer > m/20 {
		t.Fatalf("mean %.3f (want 8.632), %d of %d runs longer than their longest route", mean, longer, m)
	}
}

// badRouter sends every packet towards x− (off the mesh's edge at x = 0).
type badRouter struct{ topology.Router }

func (badRouter) Route(sw, in int, w *flit.Worm) xbar.PortSet { return xbar.Port(0) }

// TestPacketBadRoutingFunction: a routing function that leads off the
// network is an invariant violation, counted, not a crash; every packet
// still leaves the network.
func TestPacketBadRoutingFunction(t *testing.T) {
	for _, hop := range []bool{false, true} {
		// (The router is swapped before the kernel is made: the kernel
		// keeps the dimension-order router's whole-leg Path.)
		topo, err := topology.Build(topology.Spec{Kind: "mesh", K: 3, N: 2, Routing: "dor"})
		if err != nil {
			t.Fatal(err)
		}
		topo.Router = badRouter{topo.Router}
		k, err := NewKernel(topo, KernelSpec{Mode: xbar.SAF, OutDepth: 1, Latency: 1, Seed: 1, Model: "packet", Packet: PacketSpec{HopRoutes: hop}})
		if err != nil {
			t.Fatal(err)
		}
		k.CollectStats(0, 1, false)
		for src := range 9 {
			k.EnqueueLater(src, 8-src, 1)
		}
		for i := 0; i < 100 && (!k.Idle() || len(k.later[0]) > 0); i++ {
			k.Step()
		}
		if !k.Idle() || k.Violations.Misdelivered == 0 {
			t.Fatalf("hop %v: idle %v, violations %+v", hop, k.Idle(), k.Violations)
		}
	}
}

// TestPacketBoundedPhases: with bounded queues (one packet each) the
// second leg waits for room at the intermediate node like a new packet;
// both with and without the barrier every packet arrives, no queue holds
// more than one packet, and the phases are measured.
func TestPacketBoundedPhases(t *testing.T) {
	for _, barrier := range []bool{true, false} {
		for e := range 20 {
			via := func(w *flit.Worm, rng *rand.Rand) int32 { return int32(rng.IntN(16)) }
			k := packetKernel(t, topology.Spec{Kind: "hypercube", D: 4, Routing: "ecube"}, PacketSpec{Barrier: barrier, Via: via, Capacity: 1}, uint64(e))
			batch(t, k, 3, func(src, j int) int { return (src + 5*j + 1) % 16 })
			ph := k.PacketMeasures()
			if k.Stats().Counts().DeliveredPackets != 48 || ph[0].MaxQueue > 1 || barrier != (len(ph) == 2) {
				t.Fatalf("barrier %v: delivered %d, phases %+v", barrier, k.Stats().Counts().DeliveredPackets, ph)
			}
		}
	}
}
