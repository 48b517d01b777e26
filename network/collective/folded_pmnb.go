package collective

import (
	"math/rand/v2"
	"slices"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/internal/kernel"
)

// foldedPMNB is the folded-cube partial multinode broadcast without
// splitting (paper §3, digest 000b §4.14(c)): the active nodes are ranked
// in node-id order (r_s: active nodes below s, digest §7 item 23) and
// split into d+1 classes by r_s mod (d+1); class c runs the hypercube
// 𝒜_0 inside F_c, the d-cube left when the dimension-c links are removed.
// F_c's dimension m is folded dimension (c+1+m) mod (d+1), and a node's
// F_c coordinates x satisfy node = ⊕_{m: x_m=1} g((c+1+m) mod (d+1)). In
// 𝒜_c:
//
//   - packing, slots 0..d−1: the class-c packet of rank ρ (its rank among
//     class c in F_c coordinate order) goes to the node with F_c
//     coordinate ρ, crossing F_c dimension i in slot i when bit i of the
//     coordinates differs (node-disjoint paths within the class);
//   - broadcast, subphases l = 1..d of ⌈M'/2^{d−l+1}⌉ slots, M' =
//     ⌈M/(d+1)⌉ the largest class (every class keeps the same subphase
//     boundaries): a node sends over F_c dimension d−l, one per slot, every
//     class-c packet it held when the subphase began.
//
// In every slot class c uses folded dimension (c+1+i) or (c−l) mod (d+1):
// different classes never share a link. With t_p = 0 the ranks are known
// in advance; with t_p > 0 the nodes compute them first by the prefix
// channel on the links (folded_prefix.go). MNB without splitting is the
// case M = N (ranks known).
type foldedPMNB struct {
	x       *dims
	coord   []int32 // class × node: the node's F_c coordinates
	cls     []int8  // per origin: its class, or −1 if inactive
	tgt     []int32 // per origin: its packing target node
	moving  [][]int32
	held    [][]int32 // node × class: packets held for the broadcast, in arrival order
	arrived []int64   // per packet (pool index): the slot after it reached its holder
	orig    []int32   // per loaded packet (pool index): its origin
	start   []int64   // subphase l (1..d): its first slot; start[d+1] the end
	ck      *checker
	fpre    // t_p > 0: the prefix channel before the data phase
}

// newFoldedPMNB ranks the active nodes and lays out the subphases.
func newFoldedPMNB(x *dims, active []int, ck *checker) *foldedPMNB {
	d, n, D := x.d, x.n, x.D
	s := &foldedPMNB{x: x, coord: make([]int32, D*n), cls: slices.Repeat([]int8{-1}, n), tgt: make([]int32, n),
		moving: make([][]int32, n), held: make([][]int32, n*D), ck: ck}
	for c := 0; c < D; c++ {
		for xc := 0; xc < n; xc++ {
			v := 0
			for m := 0; m < d; m++ {
				if xc>>m&1 == 1 {
					v ^= foldGen(d, (c+1+m)%D)
				}
			}
			s.coord[c*n+v] = int32(xc)
		}
	}
	slices.Sort(active)
	members := make([][]int, D)
	for r, v := range active {
		s.cls[v] = int8(r % D)
		members[r%D] = append(members[r%D], v)
	}
	for c, ms := range members {
		slices.SortFunc(ms, func(a, b int) int { return int(s.coord[c*n+a] - s.coord[c*n+b]) })
		for rho, v := range ms {
			s.tgt[v] = int32(s.nodeAt(c, rho))
		}
	}
	s.layout(len(active))
	return s
}

// layout sizes the data phase's subphases for m active nodes (slots from
// the data phase's start).
func (s *foldedPMNB) layout(m int) {
	d := s.x.d
	mp := ceilDiv(m, s.x.D)
	s.start = make([]int64, d+2)
	s.start[1] = int64(d)
	for l := 1; l <= d; l++ {
		s.start[l+1] = s.start[l] + int64(ceilDiv(mp, 1<<(d-l+1)))
	}
}

// nodeAt is the node with F_c coordinates xc.
func (s *foldedPMNB) nodeAt(c, xc int) int {
	v := 0
	for m := 0; m < s.x.d; m++ {
		if xc>>m&1 == 1 {
			v ^= foldGen(s.x.d, (c+1+m)%s.x.D)
		}
	}
	return v
}

// load enqueues the active nodes' packets; every node expects each (the
// origin too when packing moved its packet away).
func (s *foldedPMNB) load(k *kernel.Kernel) {
	if s.pre != nil {
		s.loadPrefixed(k)
		return
	}
	n := s.x.n
	for o, c := range s.cls {
		if c < 0 {
			continue
		}
		wi := k.EnqueueScheduled(s.x.term[o], s.x.term[s.tgt[o]], uint64(o))
		for int(wi) >= len(s.orig) {
			s.orig = append(s.orig, -1)
		}
		s.orig[wi] = int32(o)
		if int(s.tgt[o]) == o {
			s.held[o*s.x.D+int(c)] = append(s.held[o*s.x.D+int(c)], wi)
			s.setArrived(wi, 0)
		} else {
			s.moving[o] = append(s.moving[o], wi)
		}
		for v := 0; v < n; v++ {
			if v != o || int(s.tgt[o]) != o {
				s.ck.expect(v, o)
			}
		}
	}
}

func (s *foldedPMNB) setArrived(wi int32, at int64) {
	for int(wi) >= len(s.arrived) {
		s.arrived = append(s.arrived, 0)
	}
	s.arrived[wi] = at
}

func (s *foldedPMNB) Sends(slot int64, node int32, out []kernel.SlotSend) []kernel.SlotSend {
	if s.pre != nil {
		if slot < s.p0 {
			return s.pre.Sends(slot, node, out)
		}
		if !s.began {
			s.beginData()
		}
		slot -= s.p0
	}
	x := s.x
	d, n, D := x.d, x.n, x.D
	if slot < int64(d) {
		keep := s.moving[node][:0]
		for _, wi := range s.moving[node] {
			o := s.originOf(wi)
			c := int(s.cls[o])
			if (s.coord[c*n+int(node)]^s.coord[c*n+int(s.tgt[o])])>>slot&1 == 1 {
				out = append(out, kernel.SlotSend{Packet: wi, Port: x.portOf(int(node), (c+1+int(slot))%D)})
			} else {
				keep = append(keep, wi)
			}
		}
		s.moving[node] = keep
		return out
	}
	l, pos, ok := subphaseOf(slot, s.start, d)
	if !ok {
		return out
	}
	for c := 0; c < D; c++ {
		if h := s.held[int(node)*D+c]; pos < len(h) && s.arrived[h[pos]] <= s.start[l] {
			out = append(out, kernel.SlotSend{Packet: h[pos], Port: x.portOf(int(node), ((c-l)%D+D)%D), Copy: l < d})
		}
	}
	return out
}

// originOf is packet wi's origin, kept in this schedule's own slice
// (packets being packed are never copies: their pool index is stable).
func (s *foldedPMNB) originOf(wi int32) int { return int(s.orig[wi]) }

func (s *foldedPMNB) Arrived(slot int64, node, inPort int32, w *flit.Worm, wi int32) bool {
	if s.pre != nil {
		if w.Aux >= prefixTag {
			s.pre.Arrived(slot, node, w)
			return false
		}
		slot -= s.p0
	}
	o := int(w.Aux)
	c := int(s.cls[o])
	if slot < int64(s.x.d) { // packing: the packet moved on from its last node
		if int(s.tgt[o]) != int(node) {
			s.moving[node] = append(s.moving[node], wi)
			return true
		}
		s.ck.got(int(node), o, true)
		s.held[int(node)*s.x.D+c] = append(s.held[int(node)*s.x.D+c], wi)
		s.setArrived(wi, slot+1)
		return true
	}
	s.ck.got(int(node), o, true)
	if slot >= s.start[s.x.d] { // (the last subphase: delivered here)
		w.Dst = int32(s.x.term[node])
		return false
	}
	s.held[int(node)*s.x.D+c] = append(s.held[int(node)*s.x.D+c], wi)
	s.setArrived(wi, slot+1)
	return true
}

// randomActive is M active nodes drawn from seed (as the hypercube pmnb).
func randomActive(n, m int, seed uint64) []int {
	rng := rand.New(rand.NewPCG(seed, 0x706d6e62))
	return rng.Perm(n)[:m]
}

// setupFoldedPMNB loads the PMNB of m active nodes drawn from seed (ranks
// by the prefix channel when tp > 0), or the MNB without splitting (mnb:
// every node active, ranks = labels).
func setupFoldedPMNB(k *kernel.Kernel, x *dims, m int, mnb bool, tp int, seed uint64, px *proxy, r *Result) *checker {
	d, n, D := x.d, x.n, x.D
	active := make([]int, n)
	for i := range active {
		active[i] = i
	}
	if !mnb {
		active = randomActive(n, m, seed)
	}
	ck := newChecker(n)
	s := newFoldedPMNB(x, active, ck)
	if tp > 0 {
		s.withPrefix(tp)
		x.after = append(x.after, s.checkRanks)
	}
	s.load(k)
	f := float64(s.p0 + s.start[d+1])
	px.SlotScheduler, px.limit = s, int64(f)+1
	r.Packets = int64(m)
	r.Formula = &f
	r.FormulaText = "d + Σ_{k=1..d} ⌈M'/2^k⌉, M' = ⌈M/(d+1)⌉ (𝒜_0 in each F_c: packing d, broadcast subphases ⌈M'/2^k⌉; t_p = 0)"
	u := float64(ceilDiv(m, D) + 2*d - 1)
	r.LowerBound = float64(max((d+1)/2, ceilDiv(m-1, D)))
	r.Reading = "classes r_s mod (d+1), class c by 𝒜_0 inside F_c (folded dimension (c+1+m) mod (d+1) for F_c's m); ranks known in advance (t_p = 0: the prefix phases are not modelled)"
	if mnb {
		r.UpperBound, r.UpperText = &u, "⌈N/(d+1)⌉ + 2d − 1 (MNB without splitting, paper §3)"
		r.LowerText = "max(⌈d/2⌉, ⌈(N−1)/(d+1)⌉): the diameter; N−1 packets enter a node over d+1 links"
		r.Reading = "the PMNB with M = N (ranks = labels); " + r.Reading
		return ck
	}
	r.UpperBound, r.UpperText = &u, "⌈M/(d+1)⌉ + 2d + 4d·t_p − 1 with t_p = 0 (paper eq. 4; digest 000b §7 item 24)"
	r.LowerText = "max(⌈d/2⌉, ⌈(M−1)/(d+1)⌉) (paper eq. 2)"
	r.Reading = "active nodes drawn from run.seed; " + r.Reading
	if tp > 0 {
		foldedTpText(r, d, m, tp, &u)
	}
	return ck
}
