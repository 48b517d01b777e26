package collective

import (
	"github.com/flitsim/flitsim/internal/kernel"
)

// wmnbSched is the window multinode broadcast of Varvarigos §3.8 (digest
// 000a §5.13): the M = 2^m nodes of the subcube 𝒮 = (0^{d−m} *^m) each
// broadcast a packet to the others using every link of the d-cube. Every
// packet is split into d mini-packets (classes c = 0..d−1); the router
// runs one slot per mini-slot (a mini-packet crosses a link in 1/d of a
// packet time, digest §10.1), so the task's time is mini-slots / d.
//
//   - phase 1 (mini-slot 0): a class-c mini-packet with c ≥ m crosses its
//     source's c-link into the copy 𝒮 ⊕ e_c;
//   - phase 2, subphases l = 0..m−1 of 2^l mini-slots (mini-slots 2^l ..
//     2^{l+1}−1): every node sends, one per mini-slot in arrival order, the
//     class-c mini-packets it held when the subphase began — over dimension
//     (l+c) mod m inside 𝒮 (c < m), over dimension l inside 𝒮 ⊕ e_c (c ≥ m);
//   - phase 3, pipelined: a node of 𝒮 ⊕ e_c sends each class-c mini-packet
//     it receives in phase 2 back over its c-link in the next mini-slot.
type wmnbSched struct {
	c      *cube
	m, mm  int
	lists  [][][]int32 // per node and class: mini-packets held for phase 2, in arrival order
	back   [][]int32   // per node outside 𝒮: mini-packets to send back next mini-slot
	arrive []int64     // per packet (index): the instant it reached its holder
	ck     *checker
	pk     *kernel.ScheduledPackets
}

func newWmnbSched(c *cube, m int, ck *checker) *wmnbSched {
	s := &wmnbSched{c: c, m: m, mm: 1 << m, ck: ck}
	s.lists = make([][][]int32, c.n)
	for v := range s.lists {
		s.lists[v] = make([][]int32, c.d)
	}
	s.back = make([][]int32, c.n)
	return s
}

// inWindow reports whether node v is in 𝒮, and otherwise the class of
// the copy 𝒮 ⊕ e_c it is in (−1: in no copy).
func (s *wmnbSched) inWindow(v int) (bool, int) {
	hi := v >> s.m
	if hi == 0 {
		return true, -1
	}
	if hi&(hi-1) == 0 {
		return false, s.m + trailing(hi)
	}
	return false, -1
}

func trailing(x int) int {
	n := 0
	for x&1 == 0 {
		x >>= 1
		n++
	}
	return n
}

func (s *wmnbSched) load(k *kernel.Kernel) {
	d := s.c.d
	s.pk = k.ScheduledPackets()
	for o := 0; o < s.mm; o++ {
		for c := 0; c < d; c++ {
			wi := k.EnqueueScheduled(s.c.term[o], s.c.term[o], uint64(o*d+c))
			s.lists[o][c] = append(s.lists[o][c], wi)
			s.setArrive(wi, 0)
			for v := 0; v < s.mm; v++ {
				if v != o {
					s.ck.expect(v, o*d+c)
				}
			}
		}
	}
}

func (s *wmnbSched) setArrive(wi int32, at int64) {
	for int(wi) >= len(s.arrive) {
		s.arrive = append(s.arrive, 0)
	}
	s.arrive[wi] = at
}

func (s *wmnbSched) Sends(slot int64, node int32, out []kernel.SlotSend) []kernel.SlotSend {
	d, v := s.c.d, int(node)
	win, cls := s.inWindow(v)
	port := func(dim int) int32 { return s.c.port[v*d+dim] }
	if slot == 0 {
		if win {
			for c := s.m; c < d; c++ {
				out = append(out, kernel.SlotSend{Packet: s.lists[v][c][0], Port: port(c)})
				s.lists[v][c] = s.lists[v][c][:0]
			}
		}
		return out
	}
	if !win {
		for _, wi := range s.back[v] { // phase 3 (one per mini-slot: one arrival per mini-slot)
			out = append(out, kernel.SlotSend{Packet: wi, Port: port(cls), Copy: s.arrive[wi] <= int64(s.mm/2)})
		}
		s.back[v] = s.back[v][:0]
	}
	if slot >= int64(s.mm) {
		return out
	}
	l := 0
	for int64(2)<<l <= slot {
		l++
	}
	start := int64(1) << l
	pos := int(slot - start)
	last := l == s.m-1
	for c := 0; c < d; c++ {
		h := s.lists[v][c]
		if pos >= len(h) || s.arrive[h[pos]] > start {
			continue
		}
		dim := l
		if c < s.m {
			dim = (l + c) % s.m
		}
		out = append(out, kernel.SlotSend{Packet: h[pos], Port: port(dim), Copy: !last})
	}
	return out
}

func (s *wmnbSched) Arrived(slot int64, node, inPort int32, wi int32) bool {
	d, v := s.c.d, int(node)
	o, c := int(s.pk.Aux(wi))/d, int(s.pk.Aux(wi))%d
	at := slot + 1
	win, _ := s.inWindow(v)
	if win {
		s.ck.got(v, o*d+c, true)
		if c >= s.m || at > int64(s.mm/2) { // (no later subphase sends it)
			return false
		}
	} else if slot > 0 {
		s.back[v] = append(s.back[v], wi)
		if at > int64(s.mm/2) {
			s.setArrive(wi, at)
			return true // (only the way back is left)
		}
	}
	s.lists[v][c] = append(s.lists[v][c], wi)
	s.setArrive(wi, at)
	return true
}
