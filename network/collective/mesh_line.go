package collective

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/internal/kernel"
)

// setupLine loads the Theorem 2 broadcast (§3.2, digest §5.3) on a linear
// array or ring: every node broadcasts its task.packets packets (mnb: one
// each) to all others; a node passes on at once what it receives and puts
// one of its own packets on a link only when nothing passes through.
func setupLine(k *kernel.Kernel, g *grid, task string, params map[string]string, px *proxy, r *Result) (*meshSched, *checker, error) {
	p := g.p
	counts := make([]int, p)
	for i := range counts {
		counts[i] = 1
	}
	if task == "bcast" {
		var err error
		if counts, err = packetCounts(params, p); err != nil {
			return nil, nil, err
		}
		r.Params = append(r.Params, "task.packets="+joinCounts(counts))
	}
	ring, halves := ringArray, 1
	if g.torus {
		alg := strings.TrimSpace(params["task.algorithm"])
		switch {
		case alg == "" && task == "bcast" || alg == "halves":
			ring, halves = ringHalves, 2
		case alg == "" || alg == "whole":
			ring = ringWhole
		default:
			return nil, nil, inputerr.New("task.algorithm", alg, "halves (each packet split in two, one half each way round the ring) or whole (on a ring)")
		}
		r.Params = append(r.Params, "task.algorithm="+map[bool]string{true: "halves", false: "whole"}[halves == 2])
	} else if alg, ok := params["task.algorithm"]; ok {
		return nil, nil, inputerr.New("task.algorithm", alg, "unset on a linear array (the ring takes halves or whole)")
	}
	K := 0
	for _, c := range counts {
		K += c
	}
	if K*p > MaxMeshNodes*MaxMeshNodes {
		return nil, nil, inputerr.New("task.packets", params["task.packets"], "at most %d packets in all on %d nodes (the delivery check keeps a state per node and packet)", MaxMeshNodes*MaxMeshNodes/p, p)
	}
	pk := &meshPackets{}
	cls := newMeshClass(g, 0, halves, ring, pk, nil)
	end := cls.addBcast([]int64{int64(halves * (K + p) * p)}, 0) // (ends when the last packet arrives)
	for o, c := range counts {
		for range c {
			for h := 0; h < halves; h++ {
				pk.add(o, o, -1, o, 0, h)
			}
		}
	}
	ck := newCheckerCols(p, len(pk.origin))
	cls.ck = ck
	for key := range pk.origin {
		cls.place(meshEnqueue(k, g, int(pk.origin[key]), key), key)
		for v := 0; v < p; v++ {
			if v != int(pk.origin[key]) {
				ck.expect(v, key)
			}
		}
	}
	px.SlotScheduler, px.limit = &meshSched{cls: []*meshClass{cls}, pk: pk}, end+1
	if halves > 1 {
		px.split = int64(halves)
	}
	r.Packets = int64(len(pk.origin))
	lineFigures(g, task, counts, ring, r)
	return px.SlotScheduler.(*meshSched), ck, nil
}

// lineFigures sets the Theorem 2 figures for the counts.
func lineFigures(g *grid, task string, counts []int, ring ringMode, r *Result) {
	p, K := g.p, 0
	for _, c := range counts {
		K += c
	}
	// lower bound: node v receives K − w_v packets over its links, and a
	// packet reaches the farthest node.
	lb := 0.0
	for v, w := range counts {
		deg := 2
		if ring == ringArray && (v == 0 || v == p-1) {
			deg = 1
		}
		if ring == ringHalves {
			lb = max(lb, float64(K-w)/2)
		} else {
			lb = max(lb, float64(ceilDiv(K-w, deg)))
		}
		if w > 0 {
			switch ring {
			case ringArray:
				lb = max(lb, float64(max(v, p-1-v)))
			case ringHalves:
				lb = max(lb, float64(p-1)/2)
			default:
				lb = max(lb, float64(p/2))
			}
		}
	}
	r.LowerBound, r.LowerText = lb, "node v receives K − w_v packets over its links; a packet must reach the farthest node"
	r.Reading = "Theorem 2: in-transit packets first, a node inserts its own (in order) only into an empty slot"
	switch ring {
	case ringArray:
		f := float64(lineExact(counts))
		r.Formula, r.FormulaText = &f, "max over directions and j of S_j + p − 2 − j (S_j: packets at the first j+1 nodes; [DERIVED] from Theorem 2's algorithm, digest §5.3)"
		u := float64(K + p - 1)
		r.UpperBound, r.UpperText = &u, "K + p − 1 (Theorem 2)"
		if task == "mnb" {
			r.FormulaText = "p − 1 (linear-array MNB, one packet per node, [BeT89] via Theorem 2)"
		}
	case ringHalves:
		u := float64(K+p-1) / 2
		r.UpperBound, r.UpperText = &u, "(K + p − 1)/2 (Theorem 2, ring, packets split in halves)"
		r.Reading += "; each packet split in halves, one each way all round the ring (router slot = 1/2)"
		if task == "mnb" {
			f := float64(p-1) / 2
			r.Formula, r.FormulaText = &f, "(p − 1)/2 (ring MNB with halves, [BeT89] remark in §3.2)"
		}
	default:
		r.Reading += "; whole packets ⌈(p−1)/2⌉ hops the + way and ⌊(p−1)/2⌋ the − way"
		if task == "mnb" {
			f := float64(p / 2)
			r.Formula, r.FormulaText = &f, "⌊p/2⌋ (ring MNB without splitting, [BeT89] remark in §3.2)"
		}
	}
}

// lineExact is the Theorem 2 broadcast's completion on a linear array:
// the link out of node i rightwards is busy until F_i = max(F_{i−1}+1,
// S_i − 1), so the last arrival is max_j (S_j + p − 2 − j) over j with
// S_j > 0; leftwards mirrored.
func lineExact(counts []int) int {
	p, best := len(counts), 0
	for pass := 0; pass < 2; pass++ {
		s := 0
		for j := 0; j < p-1; j++ {
			w := counts[j]
			if pass == 1 {
				w = counts[p-1-j]
			}
			if s += w; s > 0 {
				best = max(best, s+p-2-j)
			}
		}
	}
	return best
}

func joinCounts(c []int) string {
	same := true
	for _, x := range c {
		same = same && x == c[0]
	}
	if same {
		return fmt.Sprint(c[0])
	}
	return strings.Trim(strings.Join(strings.Fields(fmt.Sprint(c)), ","), "[]")
}

// setupRoute loads packing (Theorem 3) or monotone routing (Theorem 4):
// source s^(i) (the i-th active node) sends to node i, and for monotone
// routing on to v^(i) (the i-th of task.dests).
func setupRoute(k *kernel.Kernel, g *grid, task string, params map[string]string, seed uint64, px *proxy, r *Result) (*meshSched, *checker, error) {
	src, err := activeNodes(params, "task.sources", g.N, seed, 0x706d6e62)
	if err != nil {
		return nil, nil, err
	}
	var dst []int
	if task == "monotone" {
		given := false
		if dst, given, err = nodeList(params, "task.dests", g.N); err != nil {
			return nil, nil, err
		}
		if given && len(dst) != len(src) {
			return nil, nil, inputerr.New("task.dests", params["task.dests"], "%d distinct nodes (as many as the sources)", len(src))
		}
		if !given {
			dst = rand.New(rand.NewPCG(seed, 0x6d6f6e6f)).Perm(g.N)[:len(src)]
			slices.Sort(dst)
		}
	}
	r.Params = append(r.Params, fmt.Sprintf("task.m=%d", len(src)))
	pk := &meshPackets{}
	cls := newMeshClass(g, 0, 1, ringArray, pk, nil)
	end := cls.addPhases(phasePack, span(0, g.d), 0)
	if task == "monotone" {
		end = cls.addPhases(phaseUnpack, reverseInts(span(0, g.d)), end)
	}
	lb := 0
	for i, s := range src {
		b := -1
		if dst != nil {
			b = dst[i]
		}
		if s == i && (b < 0 || b == i) {
			continue // (already where it goes: nothing to do)
		}
		pk.add(s, i, b, -1, 0, 0)
		if b < 0 {
			b = i
		}
		lb = max(lb, g.dist(s, b))
	}
	ck := newCheckerCols(g.N, max(1, len(pk.origin)))
	cls.ck = ck
	for key := range pk.origin {
		cls.place(meshEnqueue(k, g, int(pk.origin[key]), key), key)
		t := pk.tgtA[key]
		if pk.tgtB[key] >= 0 {
			t = pk.tgtB[key]
		}
		ck.expect(int(t), key)
	}
	px.SlotScheduler, px.limit = &meshSched{cls: []*meshClass{cls}, pk: pk}, end+1
	r.Packets = int64(len(pk.origin))
	f := float64(end)
	r.Formula = &f
	r.LowerBound, r.LowerText = float64(lb), "the longest distance a packet must travel"
	if task == "packing" {
		r.FormulaText = "d(p − 1) (Theorem 3: d phases of p − 1 steps; the last arrival is earlier when no packet crosses a whole last phase)"
		r.Reading = "packet of the i-th source to node i, digit l corrected in phase l straight along dimension l, one hop per step"
	} else {
		r.FormulaText = "2d(p − 1) (Theorem 4: packing, then unpacking over dimensions d−1..0; the last arrival is earlier when no packet crosses a whole last phase)"
		r.Reading = "packet of the i-th source to the i-th destination by packing to node i, then unpacking in descending dimensions"
	}
	r.Reading += "; sources (and destinations) from task.sources/task.dests or drawn from run.seed"
	return px.SlotScheduler.(*meshSched), ck, nil
}

func reverseInts(s []int) []int {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
	return s
}
