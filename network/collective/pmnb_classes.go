package collective

import (
	"math/rand/v2"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/internal/kernel"
)

// pmnbAlg is the hypercube PMNB built from 𝒜_c (digest 000a §5.11.2–3)
// with the rank computation on the t_p prefix channel (prefixChan) when
// t_p > 0, or ranks known in advance when t_p = 0 (digest §10.1):
//
//   - a0: one class, 𝒜_0 on all M packets; prefix 2d·t_p;
//   - ii: every packet split into d mini-packets, class c by 𝒜_c on labels
//     rotated by c (d concurrent prefixes on rotated dimensions, 2d·t_p);
//     the router runs one slot per mini-slot;
//   - iii: no splitting; a prefix gives r_s and the class r_s mod d, a
//     second round of d concurrent class prefixes the rank within the
//     class (4d·t_p); class c runs 𝒜_c with subphase lengths aligned
//     across classes on ⌈M/d⌉ (digest §5.11.3's caveat).
//
// 𝒜_c: packing slot i over dimension (i+c) mod d to the rotated rank,
// then subphases l = 1..d of ⌈Mc/2^{d−l+1}⌉ slots over dimension
// (d−l+c) mod d, each node forwarding (FIFO) what it held at the
// subphase's start. The nodes use the ranks and M their prefix messages
// computed; the checker's expectations come from the true ranks.
type pmnbAlg struct {
	c      *cube
	alg    string
	per    int // packets per origin: d (ii) or 1
	m      int
	tp     int
	active []bool
	truth  pmnbRanks
	pre    *prefixChan
	p0     int64 // first data slot (after the prefix channel)
	start  []int64
	cls    []pclass
	clsOf  []int32  // per key (origin·per + k): class
	tgt    []int32  // per key: packing target
	loaded [][]hent // per node: its packets, placed when the data phase begins
	began  bool
	ck     *checker
}

// hent is a packet a node holds: pool index, key, and the data slot it
// arrived at the end of (0: held from the start).
type hent struct {
	wi, key int32
	at      int64
}

// dropSent removes from q, in place and in order, the entries a slot sent:
// a scheduler marks one sent by making its key negative (-1 - key).
func dropSent(q []hent) []hent {
	keep := q[:0]
	for _, h := range q {
		if h.key >= 0 {
			keep = append(keep, h)
		}
	}
	return keep
}

type pclass struct {
	rot          int
	moving, held [][]hent // per node
}

// pmnbRanks are the ranks an algorithm's nodes need: per class c (rot c)
// the class of each active origin and its rank within the class.
type pmnbRanks struct {
	class [][]int32 // per class: per node, its rank in the class or −1
	mc    int       // the aligned class size (windows)
}

// prefixTag starts the tags of prefix messages (above every data key).
const prefixTag = 1 << 40

// activeSet draws pmnb's M active nodes from seed (as pmnb.go does, so
// a0 here and there load the same set).
func activeSet(n, m int, seed uint64) []bool {
	rng := rand.New(rand.NewPCG(seed, 0x706d6e62))
	act := make([]bool, n)
	for _, a := range rng.Perm(n)[:m] {
		act[a] = true
	}
	return act
}

// ranksBy is, per node, the number of members with a smaller label in
// the labelling rotated by rot (−1 for non-members).
func ranksBy(member []bool, rot, d int) []int32 {
	n := len(member)
	out := make([]int32, n)
	r := int32(0)
	for lv := 0; lv < n; lv++ {
		v := rotL(lv, rot, d)
		out[v] = -1
		if member[v] {
			out[v], r = r, r+1
		}
	}
	return out
}

// algRanks computes alg's ranks from the members' bits (what the prefix
// rounds compute by messages).
func algRanks(alg string, act []bool, d int) pmnbRanks {
	m := 0
	for _, a := range act {
		if a {
			m++
		}
	}
	switch alg {
	case "ii":
		out := pmnbRanks{mc: m}
		for c := 0; c < d; c++ {
			out.class = append(out.class, ranksBy(act, c, d))
		}
		return out
	case "iii":
		r := ranksBy(act, 0, d)
		out := pmnbRanks{mc: ceilDiv(m, d)}
		for c := 0; c < d; c++ {
			mem := make([]bool, len(act))
			for v, rv := range r {
				mem[v] = rv >= 0 && int(rv)%d == c
			}
			out.class = append(out.class, ranksBy(mem, c, d))
		}
		return out
	}
	return pmnbRanks{mc: m, class: [][]int32{ranksBy(act, 0, d)}}
}

func newPmnbAlg(c *cube, alg string, m, tp int, seed uint64, ck *checker) *pmnbAlg {
	return newPmnbAlgOn(c, alg, activeSet(c.n, m, seed), m, tp, ck)
}

// newPmnbAlgOn is alg's PMNB of the m nodes marked in active (a dynamic
// period's, dynamic_cube3.go).
func newPmnbAlgOn(c *cube, alg string, active []bool, m, tp int, ck *checker) *pmnbAlg {
	d := c.d
	s := &pmnbAlg{c: c, alg: alg, per: 1, m: m, tp: tp, active: active, ck: ck, loaded: make([][]hent, c.n)}
	if alg == "ii" {
		s.per = d
	}
	s.truth = algRanks(alg, s.active, d)
	for range s.truth.class {
		s.cls = append(s.cls, pclass{rot: len(s.cls), moving: make([][]hent, c.n), held: make([][]hent, c.n)})
	}
	if tp > 0 {
		split := int64(1)
		if alg == "ii" {
			split = int64(d)
		}
		var rounds [][]int
		switch alg {
		case "a0":
			rounds = [][]int{{0}}
		case "ii":
			rounds = [][]int{seq(d)}
		case "iii":
			rounds = [][]int{{0}, seq(d)}
		}
		s.pre = newPrefixChan(c, int64(tp)*split, rounds, s.member, prefixTag)
		s.p0 = s.pre.slots()
	}
	return s
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// member is node's own bit in a prefix instance: active (rounds of a0
// and ii, III's first round), or in class inst by its first-round rank.
func (s *pmnbAlg) member(round, inst, node int) bool {
	if round == 0 {
		return s.active[node]
	}
	r := s.pre.rank[0][node]
	return s.active[node] && int(r)%s.c.d == inst
}

// windows lays out the data phase: packing slots 0..d−1, then subphase
// l from start[l], sized on mc.
func (s *pmnbAlg) windows(mc int) {
	d := s.c.d
	s.start = make([]int64, d+2)
	s.start[1] = int64(d)
	for l := 1; l <= d; l++ {
		s.start[l+1] = s.start[l] + int64(ceilDiv(mc, 1<<(d-l+1)))
	}
}

// length is the run's exact length in router slots.
func (s *pmnbAlg) length() int64 { return s.p0 + s.start[s.c.d+1] }

func (s *pmnbAlg) load(k *kernel.Kernel) {
	s.windows(s.truth.mc)
	if s.pre != nil {
		s.pre.load(k)
	}
	n := s.c.n
	s.clsOf, s.tgt = make([]int32, n*s.per), make([]int32, n*s.per)
	for o := 0; o < n; o++ {
		if !s.active[o] {
			continue
		}
		for j := 0; j < s.per; j++ {
			key := o*s.per + j
			wi := enqueueTagged(k, s.c, o, o, uint64(key))
			s.loaded[o] = append(s.loaded[o], hent{wi: wi, key: int32(key)})
			cl, r := s.classOfTruth(o, j)
			t := rotL(int(r), cl, s.c.d)
			for v := 0; v < n; v++ {
				if v != o || t != o { // (the origin gets its packet back when packing moved it)
					s.ck.expect(v, key)
				}
			}
		}
	}
}

// classOfTruth is packet j of origin o's class and rank (true values).
func (s *pmnbAlg) classOfTruth(o, j int) (int, int32) {
	if s.per > 1 {
		return j, s.truth.class[j][o]
	}
	for c, rk := range s.truth.class {
		if rk[o] >= 0 {
			return c, rk[o]
		}
	}
	return 0, -1
}

// beginData places the packets by the ranks the nodes know (from the
// prefix channel, or known in advance when t_p = 0).
func (s *pmnbAlg) beginData() {
	s.began = true
	known := s.truth
	if s.pre != nil {
		s.pre.finish()
		last := len(s.pre.rank) - 1
		known = pmnbRanks{}
		for i := range s.pre.rounds[last] {
			rk := s.pre.rank[last][i*s.c.n : (i+1)*s.c.n]
			cl := make([]int32, s.c.n)
			for v := range cl {
				cl[v] = -1
				if s.member(last, i, v) {
					cl[v] = rk[v]
				}
			}
			known.class = append(known.class, cl)
		}
		m := int(s.pre.count[0][0]) // (every node knows M; node 0's copy)
		known.mc = m
		if s.alg == "iii" {
			known.mc = ceilDiv(m, s.c.d)
		}
		s.windows(known.mc)
	}
	d := s.c.d
	for o, ps := range s.loaded {
		for _, h := range ps {
			cl := int(h.key) % s.per
			if s.per == 1 {
				for c, rk := range known.class {
					if rk[o] >= 0 {
						cl = c
					}
				}
			}
			t := rotL(int(known.class[cl][o]), cl, d)
			s.clsOf[h.key], s.tgt[h.key] = int32(cl), int32(t)
			if t == o {
				s.cls[cl].held[o] = append(s.cls[cl].held[o], h)
			} else {
				s.cls[cl].moving[o] = append(s.cls[cl].moving[o], h)
			}
		}
		s.loaded[o] = nil
	}
}

func (s *pmnbAlg) Sends(slot int64, node int32, out []kernel.SlotSend) []kernel.SlotSend {
	if slot < s.p0 {
		return s.pre.Sends(slot, node, out)
	}
	if !s.began {
		s.beginData()
	}
	t, d, v := slot-s.p0, s.c.d, int(node)
	for ci := range s.cls {
		cl := &s.cls[ci]
		if t < int64(d) {
			dim := (int(t) + cl.rot) % d
			keep := cl.moving[v][:0]
			for _, h := range cl.moving[v] {
				if (v^int(s.tgt[h.key]))>>dim&1 == 1 {
					out = append(out, kernel.SlotSend{Packet: h.wi, Port: s.c.port[v*d+dim]})
				} else {
					keep = append(keep, h)
				}
			}
			cl.moving[v] = keep
			continue
		}
		l := 1
		for l <= d && t >= s.start[l+1] {
			l++
		}
		if l > d {
			continue
		}
		pos := int(t - s.start[l])
		if hs := cl.held[v]; pos < len(hs) && hs[pos].at <= s.start[l] {
			out = append(out, kernel.SlotSend{Packet: hs[pos].wi, Port: s.c.port[v*d+(d-l+cl.rot)%d], Copy: l < d})
		}
	}
	return out
}

func (s *pmnbAlg) Arrived(slot int64, node, inPort int32, w *flit.Worm, wi int32) bool {
	if w.Aux >= prefixTag {
		s.pre.Arrived(slot, node, w)
		return false
	}
	key := int32(w.Aux)
	cl := &s.cls[s.clsOf[key]]
	t, v := slot-s.p0, int(node)
	if t < int64(s.c.d) { // packing
		if int(s.tgt[key]) != v {
			cl.moving[v] = append(cl.moving[v], hent{wi: wi, key: key})
			return true
		}
		s.ck.got(v, int(key), true)
		cl.held[v] = append(cl.held[v], hent{wi: wi, key: key, at: t + 1})
		return true
	}
	s.ck.got(v, int(key), true)
	if t >= s.start[s.c.d] { // (the last subphase: delivered here)
		w.Dst = int32(s.c.term[v])
		return false
	}
	cl.held[v] = append(cl.held[v], hent{wi: wi, key: key, at: t + 1})
	return true
}
