package collective

import (
	"fmt"
	"math/bits"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/internal/kernel"
)

// pmnbI is PMNB Algorithm I (Varvarigos §3.6.1, digest 000a §5.11.1), with
// M' = 2^m, m = ⌈log₂ M⌉ (M' = M when M is a power of 2):
//
//  1. ranks on the prefix channel (2d·t_p; known in advance when t_p = 0);
//  2. packing, d slots: the packet of s goes to node r_s, crossing
//     dimension i in slot i if bit i of s ⊕ r_s is set;
//  3. subcube SNB, d−m slots: node r_s broadcasts to (*^{d−m} r_s) along
//     the binomial tree over dimensions m..d−1;
//  4. subcube MNB in every m-subcube (w *^m): the symmetric spanning-tree
//     schedule of mnb (one tree edge per dimension per slot), standing in
//     for the optimal [BeT89] MNB of ⌈(M'−1)/m⌉ slots the seed cites.
type pmnbI struct {
	c      *cube
	lg, mm int // m and M' = 2^m
	active []bool
	pre    *prefixChan
	p0     int64
	steps  [][]bcastStep
	last   []int32 // per offset: the last MNB step it is sent in, or −1
	loaded [][]hent
	moving [][]hent
	tgt    []int32 // per origin: its rank (the node it is packed to)
	hold   []int32 // per node × offset: the packet, or −1
	began  bool
	ck     *checker
}

func newPmnbI(c *cube, m, tp int, seed uint64, ck *checker) *pmnbI {
	lg := bits.Len(uint(m - 1))
	s := &pmnbI{c: c, lg: lg, mm: 1 << lg, active: activeSet(c.n, m, seed), ck: ck}
	s.loaded, s.moving = make([][]hent, c.n), make([][]hent, c.n)
	if lg > 0 {
		s.steps = mnbSteps(lg)
	}
	s.last = make([]int32, s.mm)
	for i := range s.last {
		s.last[i] = -1
	}
	for q, st := range s.steps {
		for _, e := range st {
			s.last[e.Off] = int32(q)
		}
	}
	for q, st := range s.steps { // (as bcastSched: a node's last send of an offset is the packet itself)
		for i := range st {
			st[i].final = s.last[st[i].Off] == int32(q)
			for _, e := range st[i+1:] {
				if e.Off == st[i].Off {
					st[i].final = false
				}
			}
		}
	}
	s.hold = make([]int32, c.n*s.mm)
	for i := range s.hold {
		s.hold[i] = -1
	}
	if tp > 0 {
		s.pre = newPrefixChan(c, int64(tp), [][]int{{0}}, func(_, _, v int) bool { return s.active[v] }, prefixTag)
		s.p0 = s.pre.slots()
	}
	return s
}

// phases: packing [0, d), SNB [d, 2d−m), MNB from 2d−m (data slots).
func (s *pmnbI) snbEnd() int64 { return int64(2*s.c.d - s.lg) }

func (s *pmnbI) length() int64 { return s.p0 + s.snbEnd() + int64(len(s.steps)) }

func (s *pmnbI) load(k *kernel.Kernel) {
	if s.pre != nil {
		s.pre.load(k)
	}
	truth := ranksBy(s.active, 0, s.c.d)
	for o := 0; o < s.c.n; o++ {
		if !s.active[o] {
			continue
		}
		wi := enqueueTagged(k, s.c, o, o, uint64(o))
		s.loaded[o] = append(s.loaded[o], hent{wi: wi, key: int32(o)})
		for v := 0; v < s.c.n; v++ {
			if v != o || int(truth[o]) != o {
				s.ck.expect(v, o)
			}
		}
	}
}

func (s *pmnbI) beginData() {
	s.began = true
	if s.pre == nil {
		s.tgt = ranksBy(s.active, 0, s.c.d)
	} else {
		s.pre.finish()
		s.tgt = s.pre.rank[0]
	}
	for o, ps := range s.loaded {
		for _, h := range ps {
			if int(s.tgt[o]) == o {
				s.hold[o*s.mm] = h.wi
			} else {
				s.moving[o] = append(s.moving[o], h)
			}
		}
		s.loaded[o] = nil
	}
}

func (s *pmnbI) Sends(slot int64, node int32, out []kernel.SlotSend) []kernel.SlotSend {
	if slot < s.p0 {
		return s.pre.Sends(slot, node, out)
	}
	if !s.began {
		s.beginData()
	}
	t, d, v := slot-s.p0, s.c.d, int(node)
	port := func(dim int) int32 { return s.c.port[v*d+dim] }
	switch {
	case t < int64(d):
		keep := s.moving[v][:0]
		for _, h := range s.moving[v] {
			if (v^int(s.tgt[h.key]))>>t&1 == 1 {
				out = append(out, kernel.SlotSend{Packet: h.wi, Port: port(int(t))})
			} else {
				keep = append(keep, h)
			}
		}
		s.moving[v] = keep
	case t < s.snbEnd():
		if wi := s.hold[v*s.mm]; wi >= 0 {
			final := s.lg == 0 && t == s.snbEnd()-1 // (M' = 1: nothing follows the SNB)
			out = append(out, kernel.SlotSend{Packet: wi, Port: port(s.lg + int(t) - d), Copy: !final})
			if final {
				s.hold[v*s.mm] = -1
			}
		}
	case t-s.snbEnd() < int64(len(s.steps)):
		for _, e := range s.steps[t-s.snbEnd()] {
			at := v*s.mm + int(e.Off)
			if wi := s.hold[at]; wi >= 0 {
				out = append(out, kernel.SlotSend{Packet: wi, Port: port(int(e.Dim)), Copy: !e.final})
				if e.final {
					s.hold[at] = -1
				}
			}
		}
	}
	return out
}

func (s *pmnbI) Arrived(slot int64, node, inPort int32, w *flit.Worm, wi int32) bool {
	if w.Aux >= prefixTag {
		s.pre.Arrived(slot, node, w)
		return false
	}
	o, v, t := int(w.Aux), int(node), slot-s.p0
	if t < int64(s.c.d) && int(s.tgt[o]) != v { // (packing, not there yet)
		s.moving[v] = append(s.moving[v], hent{wi: wi, key: int32(o)})
		return true
	}
	s.ck.got(v, o, true)
	off := (v & (s.mm - 1)) ^ int(s.tgt[o])
	q := t - s.snbEnd() // the MNB step it arrived in (negative before)
	if int64(s.last[off]) > q && s.hold[v*s.mm+off] < 0 {
		s.hold[v*s.mm+off] = wi
		return true
	}
	w.Dst = int32(s.c.term[v]) // (a copy is delivered where it stops)
	return false
}

// setupPmnbI loads Algorithm I and its figures.
func setupPmnbI(k *kernel.Kernel, c *cube, m, tp int, seed uint64, ck *checker, px *proxy, r *Result) {
	d := c.d
	s := newPmnbI(c, m, tp, seed, ck)
	s.load(k)
	px.SlotScheduler, px.limit = s, s.length()+1
	r.Packets = int64(m)
	f := pmnbExact("i", d, m, tp)
	r.Formula, r.FormulaText = &f, "⌈(M'−1)/m⌉ + 2d − m + 2d·t_p, M' = 2^m, m = ⌈log₂ M⌉ (Algorithm I, §3.6.1: prefix, packing d, subcube SNB d−m, subcube MNB ⌈(M'−1)/m⌉)"
	r.LowerBound, r.LowerText = float64(max(d, ceilDiv(m-1, d))), "max(d, ⌈(M−1)/d⌉) (Eq. 3.11 without splitting)"
	prefix := "ranks known in advance (t_p = 0)"
	if tp > 0 {
		prefix = fmt.Sprintf("ranks by the prefix channel (2d hops of t_p = %d slots)", tp)
	}
	r.Reading = fmt.Sprintf("Algorithm I with m = %d: the subcube MNB is mnb's symmetric spanning-tree schedule (%d slots; the seed cites the optimal [BeT89] MNB); active nodes drawn from run.seed; %s", s.lg, len(s.steps), prefix)
}
