package collective

import (
	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/internal/kernel"
)

// meshClass carries out one class of the mesh algorithms of Varvarigos
// §3.3–3.4 (digest 000a §5.3–5.9) on a p-ary d-dimensional array or torus:
// a sequence of phases on a global slot clock, each using links of a single
// dimension:
//
//   - route phases (packing, Theorem 3; unpacking, Theorem 4): p−1 steps
//     in which every packet moves one hop per step straight along the
//     phase's dimension until that digit of its target is right;
//   - broadcast subphases (𝒜_0 Phase 3, Theorem 2): along the phase's
//     dimension every node sends every packet it held when the subphase
//     began both ways down its linear array (ring); a packet that arrives
//     goes on in the next slot (pass-through priority), and a node puts one
//     of its own packets on a link only in a slot nothing passes through.
//
// Class c (𝒜_c, Theorem 6) uses physical dimension (l+c) mod d where 𝒜_0
// uses l. With halves = 2 (a torus with packets split in two) a logical
// packet is two router packets of half a time unit: in route phases they
// take the two router slots of a step in turn, in broadcasts half 0 goes
// the + way and half 1 the − way all round the ring.
type meshClass struct {
	g      *grid
	c      int // class: dimension rotation
	halves int
	ring   ringMode
	phases []meshPhase
	pk     *meshPackets
	ck     *checker

	moving [][]int32 // per node: packets routed through it (route phases)
	ended  []int32   // per node: packets whose route ended there
	held   [][]heldPkt
	ptr    []int32 // per node × direction: the next held packet to insert
	ptrSub []int32 // per node × direction: the subphase ptr belongs to
	trans  []int32 // per node × direction: the packet passing through, or −1
	transT []int64 // per node × direction: the slot it goes on in
	cur    int     // the phase of the last slot asked
	// overrun counts packets still travelling when their subphase ended
	// (the fixed subphase lengths were too short: a schedule error).
	overrun int
	maxHeld int // most packets at a node after a route step (co-location)
}

type ringMode uint8

const (
	ringArray  ringMode = iota // no wraparound: both ways to the ends
	ringHalves                 // halves all round the ring, one per direction
	ringWhole                  // whole packets ⌈(p−1)/2⌉ hops + and ⌊(p−1)/2⌋ −
)

type phaseKind uint8

const (
	phasePack   phaseKind = iota // route toward the packet's first target
	phaseUnpack                  // route toward its second target
	phaseBcast                   // broadcast subphase
)

// meshPhase is one phase: slots [start, end) along virtual dimension vdim.
type meshPhase struct {
	kind       phaseKind
	vdim       int
	start, end int64
	sub        int // broadcast subphase number 1..subs
}

type heldPkt struct {
	wi  int32
	sub int32 // the subphase it arrived in (0: before the broadcast)
}

// meshPackets is the logical packets of a mesh task (indexed by key, the
// packet's Aux) and the per-router-packet data the schedules keep (indexed
// by pool index), so no schedule reads the packet store.
type meshPackets struct {
	origin, tgtA, tgtB, home []int32 // per key: nodes (−1: no such target)
	half                     []uint8
	class                    []int32
	left                     []int32 // per pool index: sends the node holding it still makes
	key                      []int32 // per pool index: its key
}

func (m *meshPackets) add(origin, tgtA, tgtB, home, class, half int) int {
	m.origin = append(m.origin, int32(origin))
	m.tgtA = append(m.tgtA, int32(tgtA))
	m.tgtB = append(m.tgtB, int32(tgtB))
	m.home = append(m.home, int32(home))
	m.class = append(m.class, int32(class))
	m.half = append(m.half, uint8(half))
	return len(m.origin) - 1
}

func (m *meshPackets) set(wi int32, key, left int) {
	for int(wi) >= len(m.left) {
		m.left, m.key = append(m.left, 0), append(m.key, -1)
	}
	m.left[wi], m.key[wi] = int32(left), int32(key)
}

func newMeshClass(g *grid, c, halves int, ring ringMode, pk *meshPackets, ck *checker) *meshClass {
	s := &meshClass{g: g, c: c, halves: halves, ring: ring, pk: pk, ck: ck}
	s.moving, s.held, s.ended = make([][]int32, g.N), make([][]heldPkt, g.N), make([]int32, g.N)
	s.ptr, s.ptrSub, s.trans, s.transT = make([]int32, 2*g.N), make([]int32, 2*g.N), make([]int32, 2*g.N), make([]int64, 2*g.N)
	for i := range s.trans {
		s.trans[i], s.ptrSub[i] = -1, -1
	}
	return s
}

// pdim is the physical dimension of virtual dimension v for this class.
func (s *meshClass) pdim(v int) int { return (v + s.c) % s.g.d }

// addPhases appends route phases over virtual dimensions dims (each
// (p−1)·halves slots) and broadcast subphases of the given lengths over
// virtual dimensions d−1, d−2, …; it returns the schedule's end.
func (s *meshClass) addPhases(kind phaseKind, dims []int, at int64) int64 {
	for _, v := range dims {
		n := int64((s.g.p - 1) * s.halves)
		s.phases = append(s.phases, meshPhase{kind: kind, vdim: v, start: at, end: at + n})
		at += n
	}
	return at
}

func (s *meshClass) addBcast(lengths []int64, at int64) int64 {
	for i, n := range lengths {
		s.phases = append(s.phases, meshPhase{kind: phaseBcast, vdim: s.g.d - 1 - i, start: at, end: at + n, sub: i + 1})
		at += n
	}
	return at
}

// subs is the number of broadcast subphases.
func (s *meshClass) subs() int {
	n := 0
	for _, ph := range s.phases {
		if ph.kind == phaseBcast {
			n++
		}
	}
	return n
}

func (s *meshClass) phaseAt(slot int64) *meshPhase {
	if s.cur >= len(s.phases) || slot < s.phases[s.cur].start {
		s.cur = 0
	}
	for s.cur < len(s.phases) && slot >= s.phases[s.cur].end {
		s.cur++
	}
	if s.cur >= len(s.phases) || slot < s.phases[s.cur].start {
		return nil
	}
	return &s.phases[s.cur]
}

// hasKind reports whether the schedule has a phase of kind.
func (s *meshClass) hasKind(k phaseKind) bool {
	for _, ph := range s.phases {
		if ph.kind == k {
			return true
		}
	}
	return false
}

// place puts a loaded packet (router packet wi, logical key) at its
// origin: moving when it has a route ahead, held for the broadcast at its
// home, or nowhere (nothing to do: it was not expected anywhere).
func (s *meshClass) place(wi int32, key int) {
	o := int(s.pk.origin[key])
	if s.hasKind(phasePack) && (o != int(s.pk.tgtA[key]) || s.pk.tgtB[key] >= 0 && o != int(s.pk.tgtB[key])) {
		s.pk.set(wi, key, 1)
		s.moving[o] = append(s.moving[o], wi)
		return
	}
	s.hold(wi, key, o, 0, false)
}

// hold makes node keep packet wi for the broadcast subphases after sub
// (and for forwarding it, when pass is set); false: nothing more to send.
func (s *meshClass) hold(wi int32, key, node, sub int, pass bool) bool {
	left := 0
	if pass {
		left++
	}
	n := s.subs()
	for l := sub + 1; l <= n; l++ {
		left += s.dirs(node, s.pdim(s.g.d-l), key)
	}
	if left == 0 {
		return false
	}
	s.pk.set(wi, key, left)
	if sub < n {
		s.held[node] = append(s.held[node], heldPkt{wi, int32(sub)})
	}
	return true
}

// dirs is how many ways node sends packet key along physical dimension pd.
func (s *meshClass) dirs(node, pd, key int) int {
	switch s.ring {
	case ringHalves:
		return 1
	case ringWhole:
		return 1 + b2n(s.g.p > 2)
	}
	return b2n(s.g.port[s.g.pi(node, pd, 0)] >= 0) + b2n(s.g.port[s.g.pi(node, pd, 1)] >= 0)
}

// goes reports whether node inserts packet key in direction dir (0 −, 1 +).
func (s *meshClass) goes(node, pd, dir, key int) bool {
	switch s.ring {
	case ringHalves:
		return int(s.pk.half[key]) == 1-dir
	case ringWhole:
		return dir == 1 || s.g.p > 2
	}
	return s.g.port[s.g.pi(node, pd, dir)] >= 0
}

// passes reports whether a packet of key that reached node travelling in
// direction dir along pd goes on.
func (s *meshClass) passes(node, pd, dir, key int) bool {
	p := s.g.p
	x, h := s.g.digit(node, pd), s.g.digit(int(s.pk.home[key]), pd)
	dist := (x - h + p) % p // hops travelled
	if dir == 0 {
		dist = (h - x + p) % p
	}
	switch s.ring {
	case ringHalves:
		return dist < p-1
	case ringWhole:
		if dir == 1 {
			return dist < p/2 // ⌈(p−1)/2⌉
		}
		return dist < (p-1)/2
	}
	return s.g.port[s.g.pi(node, pd, dir)] >= 0
}

// send appends wi's send on port (a copy unless it is the node's last).
func (s *meshClass) send(out []kernel.SlotSend, wi, port int32) []kernel.SlotSend {
	s.pk.left[wi]--
	return append(out, kernel.SlotSend{Packet: wi, Port: port, Copy: s.pk.left[wi] > 0})
}

func (s *meshClass) Sends(slot int64, node int32, out []kernel.SlotSend) []kernel.SlotSend {
	ph := s.phaseAt(slot)
	if ph == nil {
		return out
	}
	if ph.kind != phaseBcast {
		return s.routeSends(slot, ph, int(node), out)
	}
	pd, n := s.pdim(ph.vdim), int(node)
	for dir := 0; dir < 2; dir++ {
		port := s.g.port[s.g.pi(n, pd, dir)]
		if port < 0 {
			continue
		}
		i := 2*n + dir
		if s.trans[i] >= 0 && s.transT[i] == slot {
			out = s.send(out, s.trans[i], port)
			s.trans[i] = -1
			continue
		}
		if s.ptrSub[i] != int32(ph.sub) {
			s.ptr[i], s.ptrSub[i] = 0, int32(ph.sub)
		}
		h := s.held[n]
		for int(s.ptr[i]) < len(h) {
			e := h[s.ptr[i]]
			s.ptr[i]++
			if int(e.sub) < ph.sub && s.goes(n, pd, dir, int(s.pk.key[e.wi])) {
				out = s.send(out, e.wi, port)
				break
			}
		}
	}
	return out
}

// routeSends moves each packet at node one hop toward its phase target.
func (s *meshClass) routeSends(slot int64, ph *meshPhase, node int, out []kernel.SlotSend) []kernel.SlotSend {
	pd := s.pdim(ph.vdim)
	sub := int((slot - ph.start) % int64(s.halves))
	x := s.g.digit(node, pd)
	keep := s.moving[node][:0]
	for _, wi := range s.moving[node] {
		key := int(s.pk.key[wi])
		t := s.pk.tgtA[key]
		if ph.kind == phaseUnpack {
			t = s.pk.tgtB[key]
		}
		if y := s.g.digit(int(t), pd); y != x && int(s.pk.half[key]) == sub {
			out = s.send(out, wi, s.g.port[s.g.pi(node, pd, b2n(y > x))])
			continue
		}
		keep = append(keep, wi)
	}
	s.moving[node] = keep
	return out
}

func (s *meshClass) Arrived(slot int64, node, inPort int32, w *flit.Worm, wi int32) bool {
	key, n := int(w.Aux), int(node)
	ph := s.phaseAt(slot)
	if ph == nil {
		s.overrun++
		return false
	}
	if ph.kind != phaseBcast {
		return s.routeArrived(ph, n, wi, key, w)
	}
	s.ck.got(n, key, true)
	dd := s.g.inDD[n*s.g.ports+int(inPort)]
	pd, dir := int(dd>>1), int(dd&1)
	pass := s.passes(n, pd, dir, key)
	if pass && slot+1 >= ph.end {
		s.overrun++
		pass = false
	}
	if !s.hold(wi, key, n, ph.sub, pass) {
		w.Dst = int32(s.g.Term[n]) // (a copy is delivered where it stops)
		return false
	}
	if pass {
		s.trans[2*n+dir], s.transT[2*n+dir] = wi, slot+1
	}
	return true
}

// routeArrived keeps a routed packet moving, or ends its route: delivered
// (packing or monotone routing alone) or held for the broadcast.
func (s *meshClass) routeArrived(ph *meshPhase, n int, wi int32, key int, w *flit.Worm) bool {
	s.pk.set(wi, key, 1)
	s.maxHeld = max(s.maxHeld, len(s.moving[n])+int(s.ended[n])+1)
	a, b := int(s.pk.tgtA[key]), int(s.pk.tgtB[key])
	final := b < 0 && n == a || b >= 0 && n == b && (ph.kind == phaseUnpack || n == a)
	if !final {
		s.moving[n] = append(s.moving[n], wi)
		return true
	}
	s.ck.got(n, key, true)
	s.ended[n]++
	if s.hold(wi, key, n, 0, false) {
		return true
	}
	w.Dst = int32(s.g.Term[n])
	return false
}

// meshSched runs several classes at once; each packet's key names its class.
type meshSched struct {
	cls []*meshClass
	pk  *meshPackets
	pre *meshPrefix // the rank computation before them, or nil (t_p = 0)
}

func (m *meshSched) Sends(slot int64, node int32, out []kernel.SlotSend) []kernel.SlotSend {
	if m.pre != nil && slot < m.pre.slots() {
		return m.pre.Sends(slot, node, out)
	}
	for _, s := range m.cls {
		out = s.Sends(slot, node, out)
	}
	return out
}

func (m *meshSched) Arrived(slot int64, node, inPort int32, w *flit.Worm, wi int32) bool {
	if int(w.Aux) >= len(m.pk.class) {
		m.pre.Arrived(slot, node, w)
		return false
	}
	return m.cls[m.pk.class[w.Aux]].Arrived(slot, node, inPort, w, wi)
}

func (m *meshSched) overrun() (n, held int) {
	for _, s := range m.cls {
		n += s.overrun
		held = max(held, s.maxHeld)
	}
	return n, held
}

func b2n(c bool) int {
	if c {
		return 1
	}
	return 0
}
