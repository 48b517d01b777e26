package collective

import (
	"fmt"
	"slices"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/internal/kernel"
)

// A grid plan is a static schedule of an array or torus written out hop by
// hop, which gridPlan carries out on the packet router (the router refuses
// two packets on a link direction in a slot). The torus's optimal MNB is
// one (mesh_mnb_opt.go); foldPlan turns any torus plan into an array plan
// of twice the length (Varvarigos §3.2, digest 000a §5.1).

// gridHop is one transmission: in slot Slot node Node sends its packet Key
// one hop along dimension Dim, the + way when Dir is 1. Relay: the
// receiver only passes it on, in the next slot and the same way (a fold's
// middle node: it neither keeps nor is delivered the packet); Pass: this
// is that second hop, sending the packet passing through Node.
type gridHop struct {
	Slot      int32
	Node, Key int32
	Dim, Dir  int8
	Relay     bool
	Pass      bool
}

// gridPlan carries out a plan of hops. A node holds at most one packet per
// key: it sends a copy while it has later sends of the key and the packet
// itself at its last; an arrival is delivered (the checker's got) and kept
// while the node has sends of it left. A relayed packet waits in a
// per-link pass register for its second hop.
type gridPlan struct {
	g      *grid
	nk     int
	ev     []gridHop // by node, then slot
	first  []int32   // per node: its first hop in ev (node+1: the end)
	cur    []int32   // per node: its next hop in ev
	hold   []int32   // node × key: the packet, or −1
	left   []int32   // node × key: sends still to make
	pass   []int32   // node × (2·dim + dir): the packet passing through, or −1
	passAt []int64   // node × (2·dim + dir): the slot it arrives in, +1 (0: none due)
	ck     *checker
	slots  int64 // the plan's length
	// dest reports whether an arrival of key at node is a delivery (nil:
	// every one is, a broadcast); the others are only held for sends.
	dest func(node, key int) bool
}

// newGridPlan lays hops out by node and, within a node, by slot (two
// counting passes: a plan of the 32×32 torus has a million hops).
func newGridPlan(g *grid, nk int, hops []gridHop, ck *checker) *gridPlan {
	s := &gridPlan{g: g, nk: nk, first: make([]int32, g.N+1), cur: make([]int32, g.N),
		hold: slices.Repeat([]int32{-1}, g.N*nk), left: make([]int32, g.N*nk),
		pass: slices.Repeat([]int32{-1}, g.N*2*g.d), passAt: make([]int64, g.N*2*g.d), ck: ck}
	for _, h := range hops {
		s.slots = max(s.slots, int64(h.Slot)+1)
		s.first[h.Node+1]++
		if !h.Pass {
			s.left[int(h.Node)*nk+int(h.Key)]++
		}
	}
	bySlot := make([]int32, s.slots+1)
	for _, h := range hops {
		bySlot[h.Slot+1]++
	}
	for i := 1; i < len(bySlot); i++ {
		bySlot[i] += bySlot[i-1]
	}
	sorted := make([]gridHop, len(hops))
	for _, h := range hops {
		sorted[bySlot[h.Slot]] = h
		bySlot[h.Slot]++
	}
	for v := 1; v <= g.N; v++ {
		s.first[v] += s.first[v-1]
	}
	copy(s.cur, s.first)
	s.ev = make([]gridHop, len(hops))
	for _, h := range sorted {
		s.ev[s.cur[h.Node]] = h
		s.cur[h.Node]++
	}
	copy(s.cur, s.first)
	return s
}

// load enqueues node's packet key, held there for the plan's sends.
func (s *gridPlan) load(k *kernel.Kernel, node, key int) {
	s.hold[node*s.nk+key] = meshEnqueue(k, s.g, node, key)
}

func (s *gridPlan) Sends(slot int64, node int32, out []kernel.SlotSend) []kernel.SlotSend {
	i, end := int(s.cur[node]), int(s.first[node+1])
	for i < end && int64(s.ev[i].Slot) < slot { // (a send of a packet the node never got: missing later)
		i++
	}
	for ; i < end && int64(s.ev[i].Slot) == slot; i++ {
		e := s.ev[i]
		port := s.g.port[s.g.pi(int(node), int(e.Dim), int(e.Dir))]
		dd := 2*int(e.Dim) + int(e.Dir)
		var wi int32
		cp := false
		if e.Pass {
			j := int(node)*2*s.g.d + dd
			if wi = s.pass[j]; wi < 0 {
				continue
			}
			s.pass[j] = -1
		} else {
			h := int(node)*s.nk + int(e.Key)
			if wi = s.hold[h]; wi < 0 {
				continue
			}
			s.left[h]--
			if cp = s.left[h] > 0; !cp {
				s.hold[h] = -1
			}
		}
		if e.Relay {
			s.passAt[int(s.g.Nbr[node][port])*2*s.g.d+dd] = slot + 1
		}
		out = append(out, kernel.SlotSend{Packet: wi, Port: port, Copy: cp})
	}
	s.cur[node] = int32(i)
	return out
}

func (s *gridPlan) Arrived(slot int64, node, inPort int32, w *flit.Worm, wi int32) bool {
	j := int(node)*2*s.g.d + int(s.g.inDD[int(node)*s.g.ports+int(inPort)])
	if s.passAt[j] == slot+1 {
		s.passAt[j], s.pass[j] = 0, wi
		return true
	}
	key := int(w.Aux)
	h := int(node)*s.nk + key
	if s.dest == nil || s.dest(int(node), key) {
		s.ck.got(int(node), key, true)
	}
	if s.left[h] > 0 && s.hold[h] < 0 {
		s.hold[h] = wi
		return true
	}
	return false
}

// foldPos is ring position c's place on the linear array of p nodes: the
// ring's first ⌈p/2⌉ nodes at 0, 2, 4, … going out and the others at the
// odd places coming back (the digest's standard reading of Fig. 3.1), so
// every ring link becomes an array path of one or two hops.
func foldPos(p, c int) int {
	if h := (p + 1) / 2; c < h {
		return 2 * c
	}
	return 2*(p-1-c) + 1
}

// foldNode is torus node x's place in the array (foldPos per dimension).
func foldNode(g *grid, x int) int {
	y := 0
	for i := 0; i < g.d; i++ {
		y += foldPos(g.p, g.digit(x, i)) * g.pow[i]
	}
	return y
}

// foldSubslots gives, for each ring link (c, dir) whose array path is one
// hop, the half of the torus step (0 or 1) it takes: two-hop paths take
// the first half for their first hop and the second for their second, and
// a one-hop path the half its array link is free in. It fails when some
// array link direction would carry two ring links in one half (it never
// does: each carries at most two ring links, TestFoldSubslots).
func foldSubslots(p int) ([]int8, error) {
	use := make([]int, 2*p*2) // (array position·2 + dir)·2 + half: ring links using it
	link := func(a, dir, half int) *int { return &use[(a*2+dir)*2+half] }
	sub := make([]int8, 2*p)
	var single []int
	for c := 0; c < p; c++ {
		for dir := 0; dir < 2; dir++ {
			a, b := foldPos(p, c), foldPos(p, (c+2*dir-1+p)%p)
			ad := b2n(b > a)
			if abs(b-a) == 1 {
				single = append(single, c*2+dir)
				continue
			}
			*link(a, ad, 0)++
			*link(a+2*ad-1, ad, 1)++
		}
	}
	for _, e := range single {
		c, dir := e/2, e%2
		a, b := foldPos(p, c), foldPos(p, (c+2*dir-1+p)%p)
		ad := b2n(b > a)
		h := 0
		if *link(a, ad, 0) > 0 {
			h = 1
		}
		*link(a, ad, h)++
		sub[e] = int8(h)
	}
	for i, n := range use {
		if n > 1 {
			return nil, fmt.Errorf("fold of a ring of %d: array position %d's link the %c way carries %d ring links in half %d of a step", p, i/4, "−+"[i/2%2], n, i%2)
		}
	}
	return sub, nil
}

// foldPlan is the array plan that simulates torus plan hops (of g's p and
// d, node labels of the torus) with slowdown 2 (Varvarigos §3.2): torus
// step t becomes array slots 2t and 2t+1, each torus hop its ring link's
// one- or two-hop array path between the folded nodes; keys are kept.
func foldPlan(g *grid, hops []gridHop) ([]gridHop, error) {
	sub, err := foldSubslots(g.p)
	if err != nil {
		return nil, err
	}
	out := make([]gridHop, 0, len(hops)*3/2)
	for _, h := range hops {
		c := g.digit(int(h.Node), int(h.Dim))
		a, b := foldPos(g.p, c), foldPos(g.p, (c+2*int(h.Dir)-1+g.p)%g.p)
		ad := int8(b2n(b > a))
		from := int32(foldNode(g, int(h.Node)))
		e := gridHop{Slot: 2 * h.Slot, Node: from, Key: h.Key, Dim: h.Dim, Dir: ad}
		if abs(b-a) == 1 {
			e.Slot += int32(sub[c*2+int(h.Dir)])
			out = append(out, e)
			continue
		}
		e.Relay = true
		mid := from + int32((2*int(ad)-1)*g.pow[h.Dim])
		out = append(out, e, gridHop{Slot: e.Slot + 1, Node: mid, Key: h.Key, Dim: h.Dim, Dir: ad, Pass: true})
	}
	return out, nil
}
