package kernel

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/flitsim/flitsim/flit"
)

// orOfN is every node of the d-cube writing one random bit (as a 64-bit
// word of random bits) to memory address 0 of node 0.
func orOfN(d int, rng *rand.Rand) []MultiOp {
	ops := make([]MultiOp, 1<<d)
	for i := range ops {
		ops[i] = MultiOp{Src: int32(i), Write: true, Dst: 0, Value: rng.Uint64()}
	}
	return ops
}

// TestMultiWriteReplayCube3: the OR of 8 elements on the 3-cube, single
// phase, e-cube routes (lowest dimension first), every node's write
// joining its queue at cycle 0. Node 0's own write lands at once (t=0).
// Cycle 0: every node sends. t=1: 1, 2 and 4 land together at 0 (one
// delivery, two merges); 4 receives 5 and 6 on one edge (merged), 2
// receives 3, 6 receives 7. t=2: 2 (3's) and 4 (5+6) land together (one
// delivery, one merge). t=3: 7's, forwarded by 6 and 4, lands. So one
// delivery per distance (4) and 8−4 = 4 merges, and the memory holds the
// OR of all eight.
func TestMultiWriteReplayCube3(t *testing.T) {
	ops := orOfN(3, rand.New(rand.NewPCG(1, 2)))
	log, st := runMulti(t, 3, PacketSpec{ArrivalOrder: "scan"}, 1, ops, CombineOr, nil)
	var times []int64
	for _, d := range log {
		times = append(times, d.at)
	}
	if fmt.Sprint(times) != "[0 1 1 1 2 2 3]" {
		t.Fatalf("packets landed at %v", times)
	}
	if !st.OK || st.Deliveries != 4 || st.Merges != 4 || st.Copies != 0 || st.CompletionTime != 3 {
		t.Fatalf("stats %+v", st)
	}
}

// TestMultiWriteOrOfN: the OR of N elements with Valiant's two phases
// (barrier) on the 6-cube completes with every write counted once and the
// OR right. Derived count: at the barrier all the writes parked at a node
// α join one queue (the edge of α's lowest set bit) and become one; from
// then on every node holds at most one packet for node 0 and sends it at
// once, so a packet from α lands at cycle popcount(α) of phase 2, together
// with every other from the same level: one delivery per distinct
// popcount among the occupied intermediate nodes, N − that many merges,
// and phase 2 takes the largest such popcount.
func TestMultiWriteOrOfN(t *testing.T) {
	const d = 6
	n := 1 << d
	for seed := range uint64(20) {
		var mids []int32
		ps := PacketSpec{Barrier: true, Via: func(w *flit.Worm, r *rand.Rand) int32 {
			m := int32(r.IntN(n))
			mids[w.ID-1] = m
			return m
		}}
		mids = make([]int32, n)
		ops := orOfN(d, rand.New(rand.NewPCG(seed, 3)))
		_, st, k := runMultiK(t, d, ps, seed+1, ops, CombineOr, nil)
		levels, top := map[int]bool{}, 0
		for _, m := range mids {
			levels[bits.OnesCount32(uint32(m))] = true
			top = max(top, bits.OnesCount32(uint32(m)))
		}
		if !st.OK || st.Deliveries != int64(len(levels)) || st.Merges != int64(n-len(levels)) {
			t.Fatalf("seed %d: stats %+v, want %d deliveries (levels %v)", seed, st, len(levels), levels)
		}
		if ph := k.PacketMeasures(); len(ph) != 2 || ph[1].Time != int64(top) {
			t.Fatalf("seed %d: phases %+v, want phase 2 to take %d", seed, ph, top)
		}
	}
}

// TestMultiWriteOperators: a random partial write relation (several
// locations, h writes per node) under every operator, single phase and two
// phases: every write reaches its location exactly once, the result is
// the operator over the writes (for random: one of the written values),
// and combining happens.
func TestMultiWriteOperators(t *testing.T) {
	const d, h = 5, 3
	n := 1 << d
	for _, op := range []string{CombineOr, CombineAnd, CombineSum, CombineLowest, CombineRandom} {
		for _, two := range []bool{false, true} {
			rng := rand.New(rand.NewPCG(5, uint64(len(op))))
			var ops []MultiOp
			for src := range n {
				for range h {
					ops = append(ops, MultiOp{Src: int32(src), Write: true, Dst: int32(rng.IntN(3)), Addr: int32(rng.IntN(2)), Value: rng.Uint64()})
				}
			}
			ps := PacketSpec{}
			if two {
				ps = PacketSpec{Barrier: true, Via: func(_ *flit.Worm, r *rand.Rand) int32 { return int32(r.IntN(n)) }}
			}
			_, st := runMulti(t, d, ps, 9, ops, op, nil)
			if !st.OK || st.Merges == 0 || st.Deliveries+st.Merges != int64(len(ops)) {
				t.Fatalf("%s (two phases %v): stats %+v", op, two, st)
			}
		}
	}
}
