package kernel

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/network/topology"
)

type delivery struct {
	op, term int32
	at       int64
}

// runMulti runs ops on a d-cube (ecube routing) until every packet is
// delivered; it returns the deliveries in order and the statistics.
func runMulti(t *testing.T, d int, ps PacketSpec, seed uint64, ops []MultiOp, combine string, tree func(op, from, dim int32)) ([]delivery, *MultiStats) {
	log, st, _ := runMultiK(t, d, ps, seed, ops, combine, tree)
	return log, st
}

func runMultiK(t *testing.T, d int, ps PacketSpec, seed uint64, ops []MultiOp, combine string, tree func(op, from, dim int32)) ([]delivery, *MultiStats, *Kernel) {
	t.Helper()
	return runMultiOn(t, topology.Spec{Kind: "hypercube", D: d, Routing: "ecube"}, ps, seed, ops, combine, tree)
}

// runMultiOn is runMultiK on any topology (the d-shuffle's reads split by
// digits).
func runMultiOn(t *testing.T, ts topology.Spec, ps PacketSpec, seed uint64, ops []MultiOp, combine string, tree func(op, from, dim int32)) ([]delivery, *MultiStats, *Kernel) {
	t.Helper()
	k := packetKernel(t, ts, ps, seed)
	if err := k.StartMulti(ops, combine, ts.Kind == "dshuffle"); err != nil {
		t.Fatal(err)
	}
	var log []delivery
	p := k.stepper.(*packetRouter)
	p.multi.arrival = func(op, term int32, at int64) { log = append(log, delivery{op, term, at}) }
	p.multi.tree = tree
	for !k.Idle() || len(k.later[0]) > 0 {
		if k.Now() > 10000 {
			t.Fatalf("not done after %d cycles", k.Now())
		}
		k.Step()
	}
	if v := k.Violations; v.Total() != 0 {
		t.Fatalf("violations %+v", v)
	}
	st := k.MultiStats()
	if c := k.Stats().Counts(); c.MeasuredDone != c.Measured || c.Measured != int64(len(ops)) {
		t.Fatalf("kernel statistics: %d of %d operations delivered, want %d", c.MeasuredDone, c.Measured, len(ops))
	}
	return log, st, k
}

func byTime(log []delivery) map[int64][]int32 {
	out := map[int64][]int32{}
	for _, d := range log {
		out[d.at] = append(out[d.at], d.term)
	}
	for _, v := range out {
		slices.Sort(v)
	}
	return out
}

// TestMultiReadReplayCube3: one read from node 0 to every node of the
// 3-cube ("***"), single phase, replayed by hand with §4.8's node
// algorithm. At 000 the set splits into **1 (edge 0), *10 (edge 1), 100
// (edge 2) and 000 (delivered, t=0); at 001 **1 splits into *11 (edge 1),
// 101 (edge 2) and 001 (t=1); 010 sends 110 on edge 2 and keeps 010; 100
// is delivered at t=1; at t=2 011 sends 111 on edge 2 and 011, 101, 110
// are delivered; 111 at t=3. Seven copies over the seven tree edges.
func TestMultiReadReplayCube3(t *testing.T) {
	log, st := runMulti(t, 3, PacketSpec{}, 1, []MultiOp{{Src: 0, Star: 7}}, "", nil)
	want := map[int64][]int32{0: {0}, 1: {1, 2, 4}, 2: {3, 5, 6}, 3: {7}}
	if got := byTime(log); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("deliveries by cycle %v, want %v", got, want)
	}
	if !st.OK || st.Copies != 7 || st.TreeEdges != 7 || st.Deliveries != 8 || st.CompletionTime != 3 {
		t.Fatalf("stats %+v", st)
	}
	// A pattern with fixed bits: from 5 (101) to 1*0 = {4, 6}: the rest
	// differs first in dimension 0 (edge to 100), where *10 splits into
	// 110 (edge 1) and 100 (delivered, t=1); 110 at t=2. One copy.
	log, st = runMulti(t, 3, PacketSpec{}, 1, []MultiOp{{Src: 5, Star: 2, Val: 4}}, "", nil)
	if got := byTime(log); fmt.Sprint(got) != fmt.Sprint(map[int64][]int32{1: {4}, 2: {6}}) || st.Copies != 1 || st.TreeEdges != 2 || !st.OK {
		t.Fatalf("deliveries %v, stats %+v", got, st)
	}
}

// TestMultiReadContentionReplay: two reads from node 0 in scan order: r0
// to 1** = {4..7}, r1 to {011}. By §4.8 (lowest differing dimension
// first) node 0 splits r0 into 1*1 (edge 0: 5 and 7 differ from 000 first
// in dimension 0), 110 (edge 1) and 100 (edge 2); r1 also needs edge 0 and
// waits behind r0's 1*1 for a cycle. t=1: 100 delivered at 4; node 1
// splits 1*1 into 111 (edge 1) and 101 (edge 2); node 2 forwards 110 on
// edge 2. t=2: 101 at 5, 110 at 6; r1 reaches node 1 and joins edge 1
// (free again); 111 reaches 3 and goes on on edge 2. t=3: r1 at 3 (one
// cycle late), 111 at 7. Within a cycle deliveries come in queue order
// (switch, then port).
func TestMultiReadContentionReplay(t *testing.T) {
	ops := []MultiOp{{Src: 0, Star: 3, Val: 4}, {Src: 0, Val: 3}}
	log, st := runMulti(t, 3, PacketSpec{ArrivalOrder: "scan"}, 1, ops, "", nil)
	got := fmt.Sprint(log)
	want := fmt.Sprint([]delivery{{0, 4, 1}, {0, 5, 2}, {0, 6, 2}, {1, 3, 3}, {0, 7, 3}})
	if got != want || !st.OK || st.Copies != 3 || st.TreeEdges != 7+2 || st.CompletionTime != 3 {
		t.Fatalf("deliveries %s\nwant       %s\nstats %+v", got, want, st)
	}
}

// treeEdges is the union of the bit-fixing (lowest dimension first) paths
// from node from to the members of o's set: the counting model's edges.
func treeEdges(d int, from int32, o MultiOp) map[[2]int32]bool {
	es := map[[2]int32]bool{}
	for t := int32(0); t < 1<<d; t++ {
		if !o.Has(t) {
			continue
		}
		for a := from; a != t; {
			dim := int32(bits.TrailingZeros32(uint32(a ^ t)))
			es[[2]int32{a, dim}] = true
			a ^= 1 << dim
		}
	}
	return es
}

// randomReads is a partial multiple-read h-relation on the d-cube: up to h
// reads per node, random patterns, no node in more than h sets.
func randomReads(d, h int, rng *rand.Rand) []MultiOp {
	n := 1 << d
	in := make([]int, n)
	var ops []MultiOp
	for src := range n {
		for range h {
			stars := uint32(rng.IntN(n))
			val := uint32(rng.IntN(n)) &^ stars
			o := MultiOp{Src: int32(src), Star: stars, Val: val}
			ok := true
			for t := range n {
				ok = ok && (!o.Has(int32(t)) || in[t] < h)
			}
			if !ok {
				continue
			}
			for t := range n {
				if o.Has(int32(t)) {
					in[t]++
				}
			}
			ops = append(ops, o)
		}
	}
	return ops
}

// TestMultiReadCountingModel: §3.5's counting model on random two-phase
// runs (barrier): every read's phase-2 copies cross exactly the edges of
// the union of its bit-fixing paths from its intermediate node, each once
// (copies only where paths diverge), a read with K destinations makes K−1
// copies, every destination gets exactly one; and Theorem 2.10's edge
// bound: for every edge, Σ_j P(read j's tree uses it) ≤ h/2, computed
// exactly over the uniform intermediate node, and the simulated mean use
// over the runs agrees with it.
func TestMultiReadCountingModel(t *testing.T) {
	const d, h, runs = 4, 2, 60
	n := 1 << d
	rng := rand.New(rand.NewPCG(7, 9))
	var mids []int32
	ps := PacketSpec{Barrier: true, Via: func(w *flit.Worm, r *rand.Rand) int32 {
		m := int32(r.IntN(n))
		mids[w.ID-1] = m // (a fresh kernel numbers the operations' packets from 1)
		return m
	}}
	sumExp, sumUsed := map[[2]int32]float64{}, map[[2]int32]float64{}
	for run := range runs {
		ops := randomReads(d, h, rng)
		mids = make([]int32, len(ops))
		exp := map[[2]int32]float64{} // exact Σ_j P(tree j uses e)
		for j := range ops {
			for m := int32(0); m < int32(n); m++ {
				for e := range treeEdges(d, m, ops[j]) {
					exp[e] += 1 / float64(n)
				}
			}
		}
		for e, v := range exp {
			if v > h/2.0+1e-9 {
				t.Fatalf("edge %v: Σ P = %.3f > h/2 = %d/2", e, v, h)
			}
			sumExp[e] += v
		}
		used := make([]map[[2]int32]bool, len(ops))
		log, st := runMulti(t, d, ps, uint64(run+1), ops, "", func(op, from, dim int32) {
			e := [2]int32{from, dim}
			if used[op] == nil {
				used[op] = map[[2]int32]bool{}
			}
			if used[op][e] {
				t.Fatalf("run %d: read %d crosses edge %v twice", run, op, e)
			}
			used[op][e] = true
			sumUsed[e]++
		})
		var copies, edges int64
		for j, o := range ops {
			copies += int64(o.Size() - 1)
			want := treeEdges(d, mids[j], o)
			edges += int64(len(want))
			if len(used[j]) != len(want) {
				t.Fatalf("run %d read %d from %d via %d: %d tree edges used, the union of paths has %d", run, j, o.Src, mids[j], len(used[j]), len(want))
			}
			for e := range used[j] {
				if !want[e] {
					t.Fatalf("run %d read %d: edge %v not on a bit-fixing path", run, j, e)
				}
			}
		}
		got := make([]int, n) // (a node is in at most h sets: it receives at most h copies)
		for _, x := range log {
			if got[x.term]++; got[x.term] > h {
				t.Fatalf("run %d: node %d received %d copies", run, x.term, got[x.term])
			}
		}
		if !st.OK || st.Copies != copies || st.TreeEdges != edges || st.Deliveries != copies+int64(len(ops)) {
			t.Fatalf("run %d: stats %+v, want %d copies over %d edges", run, st, copies, edges)
		}
	}
	for e, v := range sumExp {
		if dev := sumUsed[e] - v; dev*dev > 16*v+1 {
			t.Errorf("edge %v: used by %.0f reads over %d runs, expected %.1f", e, sumUsed[e], runs, v)
		}
	}
}

// TestMultiReadShuffleReplay: the 3-shuffle with n = 2, one read from node
// 00 to ** (all 9 nodes), single phase. Hop 0 shifts in the leading digit,
// a *: three copies 0*, 1*, 2* on links shift0 (the self-loop), shift1,
// shift2, at nodes 00, 01, 02 at t=1; hop 1 shifts in the last digit, a *
// again: each makes three, and all nine land at t=2 (every copy takes
// exactly n hops). 8 copies over 3 + 9 links.
func TestMultiReadShuffleReplay(t *testing.T) {
	ts := topology.Spec{Kind: "dshuffle", D: 3, N: 2}
	log, st, _ := runMultiOn(t, ts, PacketSpec{}, 1, []MultiOp{{Src: 0, Star: 3, Radix: 3}}, "", nil)
	if got := byTime(log); fmt.Sprint(got) != fmt.Sprint(map[int64][]int32{2: {0, 1, 2, 3, 4, 5, 6, 7, 8}}) {
		t.Fatalf("deliveries by cycle %v", got)
	}
	if !st.OK || st.Copies != 8 || st.TreeEdges != 12 || st.CompletionTime != 2 {
		t.Fatalf("stats %+v", st)
	}
}

// TestMultiReadShuffleCounting: random partial read relations on d-shuffles
// with Valiant's phases: every destination gets one copy, a read with K
// destinations makes K−1 copies, and, since every copy shifts in the n
// digits one by one, a read's phase-2 link crossings are exactly
// Σ_{s=1..n} d^(stars among its s leading digits), whatever its
// intermediate node; phase 2 lasts at least n.
func TestMultiReadShuffleCounting(t *testing.T) {
	for _, sh := range [][2]int{{2, 5}, {3, 3}, {4, 2}} {
		d, n := sh[0], sh[1]
		nodes := 1
		for range n {
			nodes *= d
		}
		rng := rand.New(rand.NewPCG(uint64(d), 11))
		var ops []MultiOp
		in := make([]int, nodes)
		for src := range nodes {
			star := uint32(rng.IntN(1 << n))
			val, w := 0, 1
			for j := range n {
				if star>>j&1 == 0 {
					val += rng.IntN(d) * w
				}
				w *= d
			}
			o := MultiOp{Src: int32(src), Star: star, Val: uint32(val), Radix: int32(d)}
			if o.Members(func(x int32) bool { return in[x] < 1 }) {
				o.Members(func(x int32) bool { in[x]++; return true })
				ops = append(ops, o)
			}
		}
		var copies, edges int64
		for _, o := range ops {
			copies += int64(o.Size() - 1)
			alive := int64(1)
			for s := 1; s <= n; s++ {
				if o.Star>>(n-s)&1 != 0 {
					alive *= int64(d)
				}
				edges += alive
			}
		}
		ps := PacketSpec{Barrier: true, Via: func(_ *flit.Worm, r *rand.Rand) int32 { return int32(r.IntN(nodes)) }}
		_, st, k := runMultiOn(t, topology.Spec{Kind: "dshuffle", D: d, N: n}, ps, 3, ops, "", nil)
		ph := k.PacketMeasures()
		if !st.OK || st.Copies != copies || st.TreeEdges != edges || len(ph) != 2 || ph[1].Time < int64(n) {
			t.Fatalf("%d-shuffle n=%d: stats %+v, phases %+v; want %d copies over %d links", d, n, st, ph, copies, edges)
		}
	}
}
