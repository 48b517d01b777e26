package collective

import (
	"math/rand/v2"

	"github.com/flitsim/flitsim/internal/kernel"
)

// pmnbSched is the hypercube partial multinode broadcast 𝒜_0 of
// Varvarigos §3.6.2 (digest 000a §5.11.2), single class, no splitting, with
// the ranks known in advance (t_p = 0: the prefix phase is not modelled):
//
//   - packing, slots 0..d−1: the packet of active node s goes to node r_s
//     (its rank among the active nodes); in slot i it crosses dimension i
//     if bit i of its routing path s ⊕ r_s is set (§3.6.1);
//   - broadcast, subphases l = 1..d of T_l = ⌈M/2^{d−l+1}⌉ slots each
//     (every node knows M): in subphase l a node sends over dimension d−l,
//     one per slot in arrival order, every packet it held when the
//     subphase began (a copy, except in the last subphase).
//
// With broadcast false only the packing runs (task packing).
type pmnbSched struct {
	c         *cube
	m         int
	broadcast bool
	rank      []int     // per origin: its rank, or −1 if inactive
	moving    [][]int32 // per node: packets being packed through it
	held      [][]int32 // per node: packets it holds for the broadcast, in arrival order
	arrived   []int64   // per packet (index): the instant it reached its holder
	pk        *kernel.ScheduledPackets
	start     []int64 // per subphase l (1..d): its first slot; start[d+1] the end
	ck        *checker
	maxHeld   int // most packets at a node that receives one during the packing
	// rot is the class of Algorithm II (§3.6.2, digest §5.11.2): 𝒜_rot is
	// 𝒜_0 on labels rotated by rot bits (ranks by rotated label, packing
	// step i over dimension (i+rot) mod d, subphase l over (d−l+rot) mod d);
	// classes is the number of classes a packet is split into (1: 𝒜_0).
	rot, classes int
}

func newPmnbSched(c *cube, m int, broadcast bool, seed uint64, ck *checker) *pmnbSched {
	return newPmnbClass(c, m, broadcast, seed, ck, 0, 1)
}

// newPmnbClass is class rot of classes (the same active set for all).
func newPmnbClass(c *cube, m int, broadcast bool, seed uint64, ck *checker, rot, classes int) *pmnbSched {
	s := &pmnbSched{c: c, m: m, broadcast: broadcast, ck: ck, rot: rot, classes: classes}
	s.moving, s.held = make([][]int32, c.n), make([][]int32, c.n)
	rng := rand.New(rand.NewPCG(seed, 0x706d6e62))
	active := rng.Perm(c.n)[:m]
	s.rank = make([]int, c.n)
	for i := range s.rank {
		s.rank[i] = -1
	}
	for _, a := range active {
		s.rank[a] = 0
	}
	r := 0
	for lv := range s.rank { // (ranks in (rotated) label order: r_s = active nodes below s; rank[s] is the target node)
		if v := s.rotL(lv); s.rank[v] == 0 {
			s.rank[v], r = s.rotL(r), r+1
		}
	}
	s.start = make([]int64, c.d+2)
	s.start[1] = int64(c.d)
	for l := 1; l <= c.d; l++ {
		s.start[l+1] = s.start[l] + int64(ceilDiv(m, 1<<(c.d-l+1)))
	}
	return s
}

// formula is the exact 𝒜_0 length d + Σ_{k=1}^{d} ⌈M/2^k⌉ (digest §7.1
// item 7 and §7.3, t_p = 0), or d for the packing alone.
func (s *pmnbSched) formula() int64 {
	if !s.broadcast {
		return int64(s.c.d)
	}
	return s.start[s.c.d+1]
}

func (s *pmnbSched) load(k *kernel.Kernel) {
	s.pk = k.ScheduledPackets()
	for o, r := range s.rank {
		if r < 0 || r == o && !s.broadcast { // (packing alone: a packet at its rank has nothing to do)
			continue
		}
		wi := k.EnqueueScheduled(s.c.term[o], s.c.term[r], uint64(o*s.classes+s.rot))
		if r == o {
			s.held[o] = append(s.held[o], wi)
		} else {
			s.moving[o] = append(s.moving[o], wi)
		}
		if !s.broadcast {
			s.ck.expect(r, o*s.classes+s.rot)
			continue
		}
		for v := 0; v < s.c.n; v++ {
			if v != o || r != o { // (the origin gets its packet back when packing moved it)
				s.ck.expect(v, o*s.classes+s.rot)
			}
		}
	}
}

func (s *pmnbSched) Sends(slot int64, node int32, out []kernel.SlotSend) []kernel.SlotSend {
	d := s.c.d
	if slot < int64(d) {
		keep := s.moving[node][:0]
		for _, wi := range s.moving[node] {
			if dim := (int(slot) + s.rot) % d; (int(node)^s.target(wi))>>dim&1 == 1 {
				out = append(out, kernel.SlotSend{Packet: wi, Port: s.c.port[int(node)*d+dim]})
			} else {
				keep = append(keep, wi)
			}
		}
		s.moving[node] = keep
		return out
	}
	if !s.broadcast {
		return out
	}
	l, pos, ok := subphaseOf(slot, s.start, d)
	if !ok {
		return out
	}
	if h := s.held[node]; pos < len(h) && s.arrivedAt(h[pos]) <= s.start[l] {
		out = append(out, kernel.SlotSend{Packet: h[pos], Port: s.c.port[int(node)*d+(d-l+s.rot)%d], Copy: l < d})
	}
	return out
}

// target is packet wi's packing destination (its origin's rank, which the
// packet carries: its Dst).
func (s *pmnbSched) target(wi int32) int { return s.c.node[s.pk.Dst(wi)] }

func (s *pmnbSched) arrivedAt(wi int32) int64 {
	if int(wi) < len(s.arrived) {
		return s.arrived[wi]
	}
	return 0
}

func (s *pmnbSched) setArrived(wi int32, at int64) {
	for int(wi) >= len(s.arrived) {
		s.arrived = append(s.arrived, 0)
	}
	s.arrived[wi] = at
}

func (s *pmnbSched) Arrived(slot int64, node, inPort int32, wi int32) bool {
	key := int(s.pk.Aux(wi))
	o := key / s.classes
	if slot < int64(s.c.d) { // packing: the packet moved on from its last node
		s.maxHeld = max(s.maxHeld, len(s.moving[node])+len(s.held[node])+1)
		if s.rank[o] != int(node) {
			s.moving[node] = append(s.moving[node], wi)
			return true
		}
		s.ck.got(int(node), key, true)
		if !s.broadcast {
			return false
		}
		s.held[node] = append(s.held[node], wi)
		s.setArrived(wi, slot+1)
		return true
	}
	s.ck.got(int(node), key, true)
	if slot >= s.start[s.c.d] { // (the last subphase: delivered here)
		return false
	}
	s.held[node] = append(s.held[node], wi)
	s.setArrived(wi, slot+1)
	return true
}

// rotL moves bit i of x to bit (i+rot) mod d.
func (s *pmnbSched) rotL(x int) int {
	d, r := s.c.d, s.rot
	if r == 0 {
		return x
	}
	return (x<<r | x>>(d-r)) & (s.c.n - 1)
}

// pmnbSplit is Algorithm II: every packet split into d mini-packets, class
// c run by 𝒜_c; the classes use different dimensions in every mini-slot.
type pmnbSplit struct{ cls []*pmnbSched }

func (p *pmnbSplit) Sends(slot int64, node int32, out []kernel.SlotSend) []kernel.SlotSend {
	for _, s := range p.cls {
		out = s.Sends(slot, node, out)
	}
	return out
}

func (p *pmnbSplit) Arrived(slot int64, node, inPort int32, wi int32) bool {
	return p.cls[int(p.cls[0].pk.Aux(wi))%len(p.cls)].Arrived(slot, node, inPort, wi)
}

// subphaseOf is the broadcast subphase l (1..d) that slot falls in, given
// each subphase's first slot start[l] (start[d+1]: the end), and the
// slot's position in it; ok is false past the last.
func subphaseOf(slot int64, start []int64, d int) (l, pos int, ok bool) {
	l = 1
	for l <= d && slot >= start[l+1] {
		l++
	}
	if l > d {
		return 0, 0, false
	}
	return l, int(slot - start[l]), true
}
