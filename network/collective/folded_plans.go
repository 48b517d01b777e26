package collective

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network/topology"
)

// The folded cube's single-node broadcast and accumulation (paper §3: a
// spanning tree of depth ⌈d/2⌉, the diameter), its single-node gather and
// scatter (an MNB restricted to the paths into the root, and its reverse)
// and the partial multinode accumulation (the PMNB reversed, combining
// instead of copying).

// bfsTree is the folded cube's breadth-first spanning tree of offsets from
// 0: the plan in which the parent of offset y (over the lowest dimension
// leading one step nearer 0) sends to y in slot dist(y)−1, relabelled to
// root (the folded cube is a Cayley graph: root ⊕ y).
func bfsTree(x *dims, root int) (plan []planEv, depth int64) {
	d := x.d
	for y := 1; y < x.n; y++ {
		h := topology.FoldedDistance(d, 0, y)
		for j := 0; j < x.D; j++ {
			if p := y ^ foldGen(d, j); topology.FoldedDistance(d, 0, p) == h-1 {
				plan = append(plan, planEv{Slot: int64(h - 1), Node: int32(root ^ p), Dim: int32(j)})
				break
			}
		}
		depth = max(depth, int64(h))
	}
	return plan, depth
}

func setupFoldedSNB(k *kernel.Kernel, x *dims, root int, px *proxy, r *Result) *checker {
	plan, depth := bfsTree(x, root)
	ck := newCheckerCols(x.n, 1)
	s := newReplay(x, 1, plan, ck)
	s.isDest = func(node, _ int) bool { return node != root }
	s.add(k, root, 0, root)
	for v := 0; v < x.n; v++ {
		if v != root {
			ck.expect(v, 0)
		}
	}
	px.SlotScheduler, px.limit = s, depth+1
	r.Packets = 1
	f := float64((x.d + 1) / 2)
	r.Formula, r.FormulaText = &f, "⌈d/2⌉ (SNB in the diameter, paper §3)"
	r.LowerBound, r.LowerText = f, "⌈d/2⌉: the diameter (store-and-forward)"
	r.Reading = "breadth-first spanning tree: in slot t every node at distance t sends to its children at distance t+1 at once (all-port)"
	return ck
}

func setupFoldedSNA(k *kernel.Kernel, x *dims, root int, px *proxy, r *Result) (*checker, error) {
	plan, depth := bfsTree(x, root)
	hops := make([]hop, len(plan))
	for i, e := range plan { // (the tree's hops: parent → child)
		j := int(e.Dim)
		hops[i] = hop{Slot: e.Slot, From: e.Node, To: x.nbr[int(e.Node)*x.D+j], Dim: e.Dim}
	}
	ck := newChecker(x.n)
	s := newReplay(x, 1, reversed(hops, depth), ck)
	s.setCombine(func(int) int { return root })
	for v := 0; v < x.n; v++ {
		if v != root {
			s.add(k, v, 0, root)
			ck.expect(root, v)
		}
	}
	px.SlotScheduler, px.limit = s, depth+1
	px.after = func(*Result) { s.tallyCombined([]int{0}) }
	r.Packets = int64(x.n - 1)
	f := float64((x.d + 1) / 2)
	r.Formula, r.FormulaText = &f, "⌈d/2⌉ (SNA in the diameter, paper §3)"
	r.LowerBound, r.LowerText = f, "⌈d/2⌉: the diameter (store-and-forward)"
	r.Reading = "the SNB tree reversed: a node combines its children's partial results with its own (any associative operator) and sends one packet to its parent; deliveries count contributions in the root's result"
	return ck, nil
}

// recordFolded runs a folded-cube task on its own network and returns its
// transmissions and length; it fails unless every packet was delivered.
func recordFolded(spec topology.Spec, task string, load func(*kernel.Kernel, *dims, *proxy, *Result) *checker) ([]hop, int64, error) {
	var rec *recorder
	res, err := runNet(spec, task, 1, nil, func(k *kernel.Kernel, g *Net, px *proxy, r *Result) (*checker, error) {
		d := bits.TrailingZeros(uint(g.N))
		x, err := newDims(g, d, d+1, func(v, j int) int { return v ^ foldGen(d, j) })
		if err != nil {
			return nil, err
		}
		ck := load(k, x, px, r)
		rec = &recorder{SlotScheduler: px.SlotScheduler, x: x}
		px.SlotScheduler = rec
		return ck, nil
	})
	if err != nil {
		return nil, 0, err
	}
	if !res.Delivered {
		return nil, 0, fmt.Errorf("folded-cube %s: the broadcast behind it was not delivered (missing %d, duplicates %d, stray %d)", task, res.Missing, res.Duplicates, res.Stray)
	}
	return rec.hops, int64(res.Slots), nil
}

// gatherPlan keeps, of an MNB's hops, each packet's path into root: from
// the root back in time, at every node the latest arrival of the packet
// before it was sent on, to its origin; a path that passes a node twice
// keeps the packet there from the first visit (loops erased).
func gatherPlan(hops []hop, n, root int) ([]planEv, error) {
	idx := slices.Clone(hops)
	slices.SortFunc(idx, func(a, b hop) int {
		if a.Key != b.Key {
			return int(a.Key - b.Key)
		}
		if a.To != b.To {
			return int(a.To - b.To)
		}
		return int(a.Slot - b.Slot)
	})
	// latest is the key's last arrival at node before slot t, or −1.
	latest := func(key, node int32, t int64) int {
		i, _ := slices.BinarySearchFunc(idx, hop{Key: key, To: node, Slot: t}, func(a, b hop) int {
			switch {
			case a.Key != b.Key:
				return int(a.Key - b.Key)
			case a.To != b.To:
				return int(a.To - b.To)
			}
			return int(a.Slot - b.Slot)
		})
		if i--; i >= 0 && idx[i].Key == key && idx[i].To == node {
			return i
		}
		return -1
	}
	var plan []planEv
	for o := 0; o < n; o++ {
		if o == root {
			continue
		}
		var back []hop // root-first
		for cur, t := int32(root), int64(1)<<62; ; {
			i := latest(int32(o), cur, t)
			if i < 0 {
				if cur != int32(o) {
					return nil, fmt.Errorf("packet %d reached node %d from nowhere", o, cur)
				}
				break
			}
			back = append(back, idx[i])
			cur, t = idx[i].From, idx[i].Slot
		}
		slices.Reverse(back)
		path := []int32{int32(o)} // loop erasure: nodes of the path, hops into them
		var in []hop
		for _, h := range back {
			if p := slices.Index(path, h.To); p >= 0 {
				path, in = path[:p+1], in[:p]
				continue
			}
			path, in = append(path, h.To), append(in, h)
		}
		for _, h := range in {
			plan = append(plan, planEv{Slot: h.Slot, Node: h.From, Dim: h.Dim, Key: h.Key})
		}
	}
	return plan, nil
}

// setupFoldedGather loads the single-node gather into root (or, scatter,
// the scatter from root): the MNB without splitting, run and recorded on
// its own network, restricted to every packet's path into root (and
// reversed in time for the scatter).
func setupFoldedGather(k *kernel.Kernel, x *dims, root int, scatter bool, px *proxy, r *Result) (*checker, error) {
	n, d := x.n, x.d
	hops, _, err := recordFolded(x.spec, "mnb", func(k *kernel.Kernel, x2 *dims, px2 *proxy, r2 *Result) *checker {
		return setupFoldedPMNB(k, x2, x2.n, true, 0, 1, px2, r2)
	})
	if err != nil {
		return nil, err
	}
	plan, err := gatherPlan(hops, n, root)
	if err != nil {
		return nil, err
	}
	ck := newChecker(n)
	var s *replaySched
	if scatter {
		var T int64
		for _, e := range plan {
			T = max(T, e.Slot+1)
		}
		back := make([]hop, len(plan))
		for i, e := range plan {
			back[i] = hop{Slot: e.Slot, From: e.Node, To: x.nbr[int(e.Node)*x.D+int(e.Dim)], Dim: e.Dim, Key: e.Key}
		}
		s = newReplay(x, n, reversed(back, T), ck)
		s.isDest = func(node, key int) bool { return node == key }
		for t := 0; t < n; t++ {
			if t != root {
				s.add(k, root, t, t)
				ck.expect(t, t)
			}
		}
		r.Reading = "the gather's transmissions reversed in time: the root's N−1 packets go out along the MNB's paths into the root, backwards"
	} else {
		s = newReplay(x, n, plan, ck)
		s.isDest = func(node, _ int) bool { return node == root }
		for o := 0; o < n; o++ {
			if o != root {
				s.add(k, o, o, root)
				ck.expect(root, o)
			}
		}
		r.Reading = "the MNB without splitting (classes over the F_c, 𝒜_0 in each) restricted to each packet's path into the root (paper §3: an MNB algorithm also performs a gather)"
	}
	px.SlotScheduler, px.limit = s, s.slots+1
	r.Packets = int64(n - 1)
	r.Formula, r.FormulaText = nil, "none: the paper bounds it by the MNB without splitting"
	u := float64(ceilDiv(n, d+1) + 2*d - 1)
	r.UpperBound, r.UpperText = &u, "⌈N/(d+1)⌉ + 2d − 1 (the MNB without splitting, paper §3)"
	r.LowerBound = float64(max((d+1)/2, ceilDiv(n-1, d+1)))
	r.LowerText = "max(⌈d/2⌉, ⌈(N−1)/(d+1)⌉): the diameter; the root sends (receives) N−1 packets over d+1 links"
	return ck, nil
}

// setupFoldedPMNA loads the partial multinode accumulation to m active
// nodes drawn from seed: the PMNB of the same nodes, run and recorded on
// its own network, reversed in time, combining instead of copying.
func setupFoldedPMNA(k *kernel.Kernel, x *dims, m, tp int, seed uint64, px *proxy, r *Result) (*checker, error) {
	n := x.n
	var formula float64
	hops, T, err := recordFolded(x.spec, "pmnb", func(k *kernel.Kernel, x2 *dims, px2 *proxy, r2 *Result) *checker {
		ck := setupFoldedPMNB(k, x2, m, false, 0, seed, px2, r2)
		formula = *r2.Formula
		params := r.Params
		*r = *r2
		r.Params = params
		return ck
	})
	if err != nil {
		return nil, err
	}
	r.Task, r.PerSlot, r.Transmissions, r.Slots = "pmna", nil, 0, 0
	ck := newChecker(n)
	s := newReplay(x, n, reversed(hops, T), ck)
	s.setCombine(func(key int) int { return key })
	active, loaded := randomActive(n, m, seed), 0
	for _, a := range active {
		for v := 0; v < n; v++ {
			if v != a {
				ck.expect(a, v)
			}
			if s.left[v*n+a] > 0 {
				s.add(k, v, a, a)
				loaded++
			}
		}
	}
	px.SlotScheduler, px.limit = s, T+1
	px.after = func(*Result) { s.tallyCombined(active) }
	r.Packets = int64(loaded)
	r.Formula, r.FormulaText = &formula, "as the PMNB (its dual, paper §3): d + Σ_{k=1..d} ⌈M'/2^k⌉, M' = ⌈M/(d+1)⌉ (t_p = 0)"
	r.Reading = "the PMNB of the same active nodes (drawn from run.seed) reversed in time: every node sends one packet per active destination holding its partial result, combined on arrival (any associative operator); deliveries count contributions in each active node's result"
	if tp > 0 { // (folded_prefix.go: the nodes compute the ranks the plan needs first)
		reading := r.Reading
		prefixPMNA(k, x, m, tp, seed, px, r)
		r.Reading = reading + "; " + r.Reading
	}
	return ck, nil
}
