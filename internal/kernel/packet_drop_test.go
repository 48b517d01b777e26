package kernel

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/network/topology"
	xbar "github.com/flitsim/flitsim/switch"
)

// dropLog records the drops and deliveries a tracer sees.
type dropLog struct {
	drops     []string // "cycle worm buffer"
	delivered []string // "cycle worm"
}

func (d *dropLog) Granted(int64, int32, int32, int32, xbar.PortSet)    {}
func (d *dropLog) Move(int64, flit.Flit, int32, int32, int32, int64)   {}
func (d *dropLog) Blocked(int64, flit.Flit, int32, Wait, int32, int32) {}
func (d *dropLog) EndCycle(int64)                                      {}
func (d *dropLog) Delivered(c int64, w *flit.Worm, wi, term int32) {
	d.delivered = append(d.delivered, fmt.Sprint(c, " ", w.ID))
}
func (d *dropLog) Dropped(c int64, f flit.Flit, b int32) {
	d.drops = append(d.drops, fmt.Sprint(c, " ", f.Worm, " ", b))
}

var _ Dropper = (*dropLog)(nil)

// TestPacketDropReplay: on the 3×3 mesh (x first), queues of one packet,
// scan-order joins: P 4→2 (via 5), Q 8→2 (via 5) and R 5→2 all enter at
// cycle 0 and all send. R leaves the queue 5→2 and is delivered; P and Q
// both arrive at 5 for that queue, which has room for one: P joins (it left
// switch 4, before switch 8 in scan order) and Q is dropped in cycle 0. P
// crosses 5→2 in cycle 1. With random joins exactly one of P and Q is
// dropped.
func TestPacketDropReplay(t *testing.T) {
	for _, order := range []string{"scan", "random"} {
		for seed := range uint64(8) {
			k := packetKernel(t, topology.Spec{Kind: "mesh", K: 3, N: 2, Routing: "dor"},
				PacketSpec{Capacity: 1, Drop: true, ArrivalOrder: order}, seed)
			log := &dropLog{}
			k.SetTracer(log)
			k.EnqueueLater(4, 2, 1) // P
			k.EnqueueLater(8, 2, 1) // Q
			k.EnqueueLater(5, 2, 1) // R
			k.Step()
			c := k.Stats().Counts()
			if c.DeliveredPackets != 1 || c.Dropped != 1 || k.Pool.Live() != 1 || len(log.drops) != 1 {
				t.Fatalf("%s: after cycle 0: delivered %d, dropped %d, live %d, drops %v", order, c.DeliveredPackets, c.Dropped, k.Pool.Live(), log.drops)
			}
			q5 := k.BufferName(k.stepper.(*packetRouter).pc[k.portBase[5]+portTo(k, 5, 2)].buf)
			var cyc int64
			var wi, b int32
			fmt.Sscan(log.drops[0], &cyc, &wi, &b)
			if cyc != 0 || k.BufferName(b) != q5 {
				t.Fatalf("%s: drop %v, want cycle 0 at %s", order, log.drops, q5)
			}
			if order == "scan" && k.Pool.Worms[wi].Src != 8 {
				t.Fatalf("scan: dropped the packet from %d, want Q (from 8)", k.Pool.Worms[wi].Src)
			}
			k.Step()
			c = k.Stats().Counts()
			if c.DeliveredPackets != 2 || c.Dropped != 1 || !k.Idle() || c.MeasuredDone+c.MeasuredDropped != c.Measured {
				t.Fatalf("%s: after cycle 1: %+v, live %d", order, c, k.Pool.Live())
			}
		}
	}
}

// TestPacketDropConservation: on random runs with dropping queues, every
// cycle injected = delivered + dropped + in flight, no queue holds more
// than its capacity, and the runs do drop packets.
func TestPacketDropConservation(t *testing.T) {
	var drops int64
	for e := range 24 {
		rng := rand.New(rand.NewPCG(uint64(e), 9))
		spec := topology.Spec{Kind: "hypercube", D: 4, Routing: "random-order"}
		if e%2 == 1 {
			spec = topology.Spec{Kind: "torus", K: 4, N: 2, Routing: "random-order"}
		}
		ps := PacketSpec{Capacity: 1 + e%3, Drop: true, Discipline: []string{"fifo", "furthest-first", "random"}[e%3],
			ArrivalOrder: []string{"random", "scan"}[e/3%2], Shared: e%5 == 0, HopRoutes: e%4 == 1}
		if e%3 != 2 {
			ps.Via = func(w *flit.Worm, rng *rand.Rand) int32 { return int32(rng.IntN(16)) }
			ps.Barrier = e%3 == 0
		}
		k := packetKernel(t, spec, ps, uint64(e))
		for cycle := 0; cycle < 400; cycle++ {
			if cycle < 60 {
				for range rng.IntN(12) {
					k.EnqueueLater(rng.IntN(16), rng.IntN(16), 1)
				}
			}
			k.Step()
			c := k.Stats().Counts()
			if c.GeneratedPackets != c.DeliveredPackets+c.Dropped+int64(k.Pool.Live()) {
				t.Fatalf("run %d (%+v), cycle %d: injected %d ≠ delivered %d + dropped %d + in flight %d",
					e, ps, cycle, c.GeneratedPackets, c.DeliveredPackets, c.Dropped, k.Pool.Live())
			}
			if k.Violations.Overflow != 0 || k.PacketMeasures()[0].MaxQueue > int32(ps.Capacity) {
				t.Fatalf("run %d: a queue over its capacity %d: %+v", e, ps.Capacity, k.Violations)
			}
		}
		if !k.Idle() {
			t.Fatalf("run %d: %d packets still in the network", e, k.Pool.Live())
		}
		drops += k.Stats().Counts().Dropped
	}
	if drops == 0 {
		t.Fatal("no packet was dropped: the runs test nothing")
	}
}

// portTo is the output port of switch sw whose link leads to switch to.
func portTo(k *Kernel, sw, to int32) int32 {
	for o, e := range k.Topo.Switches[sw].Out {
		if e.Switch == to {
			return int32(o)
		}
	}
	return -1
}

// TestPacketQueuedPopulation: the queued-only population counts queued
// packets and not arrived ones: packets sent to themselves arrive at once
// (population 1, none queued); on random batches it never exceeds the
// population, and a node's h packets all queued at cycle 0 count h.
func TestPacketQueuedPopulation(t *testing.T) {
	k := packetKernel(t, topology.Spec{Kind: "hypercube", D: 4, Routing: "ecube"}, PacketSpec{}, 1)
	batch(t, k, 1, func(src, _ int) int { return src })
	if ph := k.PacketMeasures()[0]; ph.MaxPopulation != 1 || ph.MaxQueuedPopulation != 0 {
		t.Fatalf("identity: %+v", ph)
	}
	for e := range 10 {
		via := func(w *flit.Worm, rng *rand.Rand) int32 { return int32(rng.IntN(16)) }
		k := packetKernel(t, topology.Spec{Kind: "hypercube", D: 4, Routing: "random-order"}, PacketSpec{Via: via, Barrier: true, Shared: true}, uint64(e))
		batch(t, k, 3, func(src, j int) int { return (src + j + 1) % 16 })
		for _, ph := range k.PacketMeasures() {
			if ph.MaxQueuedPopulation > ph.MaxPopulation || ph.MaxQueuedPopulation < 1 {
				t.Fatalf("run %d: %+v", e, k.PacketMeasures())
			}
		}
		if ph := k.PacketMeasures()[0]; ph.MaxQueuedPopulation < 3 {
			t.Fatalf("run %d: 3 packets queued per node at cycle 0 (one shared queue), measured %d", e, ph.MaxQueuedPopulation)
		}
	}
}
