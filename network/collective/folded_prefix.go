package collective

import (
	"fmt"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/internal/kernel"
)

// The folded-cube PMNB's rank computation on the t_p prefix channel (the
// paper §3, digest 000b §4.14(c)): first a prefix over F_d (node-id
// order) gives every active node r_s and M, hence its class r_s mod (d+1);
// then d+1 concurrent prefixes, class c's over F_c in F_c's coordinate
// order, give each node its rank within its class (𝒜_c's own rank
// computation). Both are the hypercube's prefixChan on a d-cube embedded
// in the folded cube; in hop j instance c uses folded dimension
// (c+1+j) mod (d+1), so the concurrent prefixes never share a link. Two
// rounds of 2d hops of t_p slots: 4d·t_p, the t_p term of the paper's
// eq. 4.

// foldedPrefix is the folded cube as prefixChan sees it: instance c is
// F_c, a node's label its F_c coordinates.
type foldedPrefix struct {
	x     *dims
	coord []int32 // class × node (foldedPMNB.coord)
}

func (q foldedPrefix) size() (int, int)   { return q.x.d, q.x.n }
func (q foldedPrefix) label(c, v int) int { return int(q.coord[c*q.x.n+v]) }
func (q foldedPrefix) hop(c, v, j int) (int, int32) {
	f := (c + 1 + j) % q.x.D
	return int(q.x.nbr[v*q.x.D+f]), q.x.portOf(v, f)
}
func (q foldedPrefix) enqueue(k *kernel.Kernel, from, to int, tag uint64) int32 {
	return k.EnqueueScheduled(q.x.term[from], q.x.term[to], tag)
}

// fpre is foldedPMNB's prefix-channel state (nil pre: ranks known).
type fpre struct {
	pre    *prefixChan
	p0     int64   // the data phase's first slot
	act    []bool  // per node: active (its own bit)
	loaded []int32 // per origin: its packet, placed when the data phase begins
	began  bool
}

// withPrefix makes the nodes compute their classes and ranks by the prefix
// channel, hops of tp slots, before the data phase.
func (s *foldedPMNB) withPrefix(tp int) {
	n, d := s.x.n, s.x.d
	s.act = make([]bool, n)
	for v, c := range s.cls {
		s.act[v] = c >= 0
	}
	s.pre = newPrefixChanOn(foldedPrefix{s.x, s.coord}, int64(tp), [][]int{{d}, seq(d + 1)}, s.member, prefixTag)
	s.p0 = s.pre.slots()
}

// member is node's own bit: active (round 0, over F_d), or in class inst
// by its round-0 rank (round 1, over F_inst).
func (s *foldedPMNB) member(round, inst, node int) bool {
	if round == 0 {
		return s.act[node]
	}
	return s.act[node] && int(s.pre.rank[0][node])%s.x.D == inst
}

// loadPrefixed enqueues the prefix messages and the active nodes' packets
// (held at their origins until the data phase); the expectations come
// from the true classes and ranks.
func (s *foldedPMNB) loadPrefixed(k *kernel.Kernel) {
	s.pre.load(k)
	n := s.x.n
	s.loaded = make([]int32, n)
	for o, c := range s.cls {
		if c < 0 {
			continue
		}
		wi := k.EnqueueScheduled(s.x.term[o], s.x.term[o], uint64(o))
		for int(wi) >= len(s.orig) {
			s.orig = append(s.orig, -1)
		}
		s.orig[wi], s.loaded[o] = int32(o), wi
		for v := 0; v < n; v++ {
			if v != o || int(s.tgt[o]) != o {
				s.ck.expect(v, o)
			}
		}
	}
}

// beginData places the packets by the classes, ranks and M the prefix
// messages computed.
func (s *foldedPMNB) beginData() {
	s.began = true
	s.pre.finish()
	n := s.x.n
	for o, a := range s.act {
		if !a {
			continue
		}
		c := int(s.pre.rank[0][o]) % s.x.D
		s.cls[o], s.tgt[o] = int8(c), int32(s.nodeAt(c, int(s.pre.rank[1][c*n+o])))
		wi := s.loaded[o]
		if int(s.tgt[o]) == o {
			s.held[o*s.x.D+c] = append(s.held[o*s.x.D+c], wi)
			s.setArrived(wi, 0)
		} else {
			s.moving[o] = append(s.moving[o], wi)
		}
	}
	s.layout(int(s.pre.count[0][0])) // (every node knows M; node 0's copy)
}

// checkRanks compares what the prefix messages computed at every node (M,
// class and rank in the class) with the true values.
func (s *foldedPMNB) checkRanks() error {
	s.pre.finish()
	n, D := s.x.n, s.x.D
	truth := make([]int, n)
	m := 0
	for v, a := range s.act { // (node-id order: r_s, class r_s mod (d+1))
		if a {
			truth[v], m = m, m+1
		}
	}
	for v := 0; v < n; v++ {
		if got := int(s.pre.count[0][v]); got != m {
			return fmt.Errorf("folded-cube prefix: node %d computed M = %d, want %d", v, got, m)
		}
		if !s.act[v] {
			continue
		}
		c := truth[v] % D
		want := 0 // class members before v in F_c's coordinate order
		for u := 0; u < n; u++ {
			if s.act[u] && truth[u]%D == c && s.coord[c*n+u] < s.coord[c*n+v] {
				want++
			}
		}
		if r0, r1 := int(s.pre.rank[0][v]), int(s.pre.rank[1][c*n+v]); r0 != truth[v] || r1 != want {
			return fmt.Errorf("folded-cube prefix: node %d computed rank %d and class rank %d, want %d and %d", v, r0, r1, truth[v], want)
		}
	}
	return nil
}

// afterPrefix runs a prefix channel, then a schedule that needs its ranks
// (PMNA: the reversed PMNB plan, a function of the classes and ranks).
type afterPrefix struct {
	pre   *prefixChan
	p0    int64
	inner scheduler
}

func (a *afterPrefix) Sends(slot int64, node int32, out []kernel.SlotSend) []kernel.SlotSend {
	if slot < a.p0 {
		return a.pre.Sends(slot, node, out)
	}
	return a.inner.Sends(slot-a.p0, node, out)
}

func (a *afterPrefix) Arrived(slot int64, node, inPort int32, w *flit.Worm, wi int32) bool {
	if w.Aux >= prefixTag {
		a.pre.Arrived(slot, node, w)
		return false
	}
	return a.inner.Arrived(slot-a.p0, node, inPort, w, wi)
}

// prefixPMNA puts the prefix channel before the PMNA's plan: the nodes
// compute the classes and ranks the plan was built from (checked when the
// run ends), then carry it out.
func prefixPMNA(k *kernel.Kernel, x *dims, m, tp int, seed uint64, px *proxy, r *Result) {
	s := newFoldedPMNB(x, randomActive(x.n, m, seed), newChecker(x.n))
	s.withPrefix(tp)
	s.pre.load(k)
	x.after = append(x.after, s.checkRanks)
	px.SlotScheduler = &afterPrefix{pre: s.pre, p0: s.p0, inner: px.SlotScheduler}
	px.limit += s.p0
	f, u := *r.Formula+float64(s.p0), float64(ceilDiv(m, x.D)+2*x.d-1)
	r.Formula = &f
	foldedTpText(r, x.d, m, tp, &u)
	r.FormulaText = "as the PMNB (its dual, paper §3): " + r.FormulaText
}

// foldedTpText states the PMNB's figures with their t_p term: u (the
// t_p = 0 bound) gains 4d·t_p.
func foldedTpText(r *Result, d, m, tp int, u *float64) {
	*u += float64(4 * d * tp)
	r.UpperBound, r.UpperText = u, fmt.Sprintf("⌈M/(d+1)⌉ + 2d + 4d·t_p − 1 with t_p = %d (paper eq. 4; digest 000b §7 item 24)", tp)
	r.FormulaText = "4d·t_p + d + Σ_{k=1..d} ⌈M'/2^k⌉, M' = ⌈M/(d+1)⌉ (prefix over F_d for the classes, then the d+1 class prefixes over the F_c at once: 2·2d hops of t_p; 𝒜_0 in each F_c: packing d, broadcast subphases ⌈M'/2^k⌉)"
	r.Reading = fmt.Sprintf("active nodes drawn from run.seed; ranks by the prefix channel: %d hops of t_p = %d slots, messages on the links (round 1 over F_d: r_s and M, class r_s mod (d+1); round 2: class c's rank over F_c, folded dimension (c+1+j) mod (d+1) in hop j), the data phase after it; class c by 𝒜_0 inside F_c", 4*d, tp)
}
