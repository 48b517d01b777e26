package kernel

import (
	"math"

	"github.com/flitsim/flitsim/flit"
)

// ScheduledPackets is the scheduled router's packet store: a packet is an
// index of a 20-byte record (a hop reads one cache line, mostly), handed out by
// EnqueueScheduled (or made by a copy send) and recycled when the packet
// leaves the network, so a run holds only the packets alive at once.
// Records sit in pages of 2^16 that never move (growth copies nothing and
// leaves no garbage); free records form a list through their aux field.
// Schedulers read the fields (Src, Dst, Aux, At); only the router writes
// them.
type ScheduledPackets struct {
	pages [][]schedPkt
	n     int32 // records handed out so far (free or not)
	free  int32 // first free record, or −1
	live  int64
	// mirror, per packet, is its materialised flit.Worm record (pool
	// index) or −1; nil while no packet has one. A packet is materialised
	// when it is created with an observer attached (a tracer, a delivery
	// hook, statistics), so that traces, hooks and statistics see it as
	// they see any packet.
	mirror []int32
	// lazy, per packet, is the identity of a packet whose record waits
	// for its first traced event (sched_lazy.go); nil unless the tracer
	// is a TraceScope.
	lazy []lazyPkt
	k    *Kernel
}

// schedPkt is one scheduled packet: 20 bytes, aux in two halves so that
// no padding aligns it (TE on the 14-cube holds 268 M of them at once).
type schedPkt struct {
	src, dst int32     // terminals: created at, created for (a copy: its original's)
	at       int32     // the switch holding it, or negative (crossing a link, sent, free)
	aux      [2]uint32 // the scheduler's own, low half first (e.g. the logical packet copies share); a free record's: the next free one
}

// auxOf is aux's halves.
func auxOf(aux uint64) [2]uint32 { return [2]uint32{uint32(aux), uint32(aux >> 32)} }

// Aux is the record's aux.
func (r *schedPkt) Aux() uint64 { return uint64(r.aux[0]) | uint64(r.aux[1])<<32 }

const (
	schedPageBits = 16
	schedPageMask = 1<<schedPageBits - 1
	// freeMark is a free record's at.
	freeMark = math.MinInt32
)

// r is packet i's record.
func (s *ScheduledPackets) r(i int32) *schedPkt { return &s.pages[i>>schedPageBits][i&schedPageMask] }

// Src is the terminal packet i was created at (a copy: its original's).
func (s *ScheduledPackets) Src(i int32) int32 { return s.r(i).src }

// Dst is the terminal packet i was created for (a copy: its original's).
func (s *ScheduledPackets) Dst(i int32) int32 { return s.r(i).dst }

// Aux is the scheduler's value given at creation (a copy: its original's).
func (s *ScheduledPackets) Aux(i int32) uint64 { return s.r(i).Aux() }

// At is the switch holding packet i, or negative while it crosses a link.
func (s *ScheduledPackets) At(i int32) int32 { return s.r(i).at }

// valid reports whether i names a record handed out and not free.
func (s *ScheduledPackets) valid(i int32) bool { return i >= 0 && i < s.n && s.r(i).at != freeMark }

// Live is the number of packets in the network.
func (s *ScheduledPackets) Live() int64 { return s.live }

// ScheduledPackets is the store of a scheduled packet router (nil for any
// other model). The pointer stays valid; its slices grow as packets are
// made, so read them through it.
func (k *Kernel) ScheduledPackets() *ScheduledPackets {
	if sc := k.sched(); sc != nil {
		return &sc.pk
	}
	return nil
}

// EnqueueScheduled creates a packet at terminal src for terminal dst with
// the scheduler's aux, held at src's node from the current slot on, and
// returns its index. It is how packets enter a scheduled router.
func (k *Kernel) EnqueueScheduled(src, dst int, aux uint64) int32 {
	sc := k.sched()
	if sc == nil {
		panic("kernel: EnqueueScheduled needs a scheduled packet router (PacketSpec.Schedule)")
	}
	k.placeLater()
	pk := &sc.pk
	i := pk.alloc(int32(src), int32(dst), aux)
	switch {
	case k.tr != nil && k.scope() != nil:
		pk.deferRecord(i)
	case k.tr != nil || k.Hooks.Delivered != nil || k.Hooks.Ejected != nil || k.stats != nil:
		pk.materialise(i)
	}
	sc.hold(k, i, k.Topo.InSwitch[src])
	return i
}

// alloc hands out a packet index with the given fields.
func (s *ScheduledPackets) alloc(src, dst int32, aux uint64) int32 {
	s.live++
	if i := s.free; i >= 0 {
		r := s.r(i)
		s.free = int32(r.aux[0])
		*r = schedPkt{src: src, dst: dst, at: -1, aux: auxOf(aux)}
		if s.lazy != nil {
			s.lazy[i] = lazyPkt{}
		}
		return i
	}
	i := s.n
	if i&schedPageMask == 0 {
		s.pages = append(s.pages, make([]schedPkt, 1<<schedPageBits))
	}
	s.n++
	*s.r(i) = schedPkt{src: src, dst: dst, at: -1, aux: auxOf(aux)}
	if s.mirror != nil {
		s.mirror = append(s.mirror, -1)
	}
	if s.lazy != nil {
		s.lazy = append(s.lazy, lazyPkt{})
	}
	return i
}

// clone makes a copy of packet i, whose fields are r (a new index, the
// same fields).
func (s *ScheduledPackets) clone(k *Kernel, i int32, r schedPkt) int32 {
	j := s.alloc(r.src, r.dst, r.Aux())
	if s.mirror != nil && s.mirror[i] >= 0 {
		nw := k.Pool.Get()
		id := k.Pool.Worms[nw].ID
		k.Pool.Worms[nw] = k.Pool.Worms[s.mirror[i]]
		k.Pool.Worms[nw].ID = id
		k.growWorms(nw)
		s.mirror[j] = nw
	} else if s.deferred(i) {
		s.cloneLazy(i, j)
	}
	return j
}

// materialise gives packet i a flit.Worm record (observers see it).
func (s *ScheduledPackets) materialise(i int32) {
	k := s.k
	if s.mirror == nil {
		s.mirror = fill(int(s.n), -1)
	}
	r := *s.r(i)
	wi := k.newWorm(int(r.src), 1)
	w := &k.Pool.Worms[wi]
	w.Dst, w.Dests, w.Aux, w.InjCycle = r.dst, 1, r.Aux(), k.now
	if k.stats != nil {
		k.stats.generated(w, k.now)
	}
	s.mirror[i] = wi
}

// leave takes packet i out of the network at its node's ejection port gp
// (−1: the node has no terminal) at instant at; a materialised packet is
// delivered there (hooks, statistics, tracer). Its record is freed later
// (release).
func (s *ScheduledPackets) leave(k *Kernel, i, gp int32, at int64) {
	s.live--
	if s.mirror == nil {
		return
	}
	if s.deferred(i) {
		// Traced only if its delivery is, or its life.
		if gp < 0 || !s.wanted(i, -1, k.nb+k.stepper.(*packetRouter).pt[gp].far.in) && !s.followed(i) {
			s.lazy[i] = lazyPkt{}
			return
		}
		s.materialiseLazy(i)
	}
	if s.mirror[i] < 0 {
		return
	}
	wi := s.mirror[i]
	s.mirror[i] = -1
	if gp < 0 {
		k.Pool.Put(wi)
		return
	}
	term := k.stepper.(*packetRouter).pt[gp].far.in
	w := &k.Pool.Worms[wi]
	w.Dst = term // (a broadcast copy is delivered where it stops)
	f := flit.Flit{Worm: wi, Kind: flit.HeadTail, Hops: uint16(w.Hops)}
	k.eject(term, &f, at)
}

// release frees the record of packet i, which has left.
func (s *ScheduledPackets) release(i int32) {
	r := s.r(i)
	r.at, r.aux, s.free = freeMark, [2]uint32{uint32(s.free)}, i
}

// traceHop shows a materialised packet's hop over global port gp to
// switch far (kept there, or delivered at its terminal). It leaves the
// buffer it arrived in: its node's, which shows the node's packets
// (nodePort), not gp's.
func (p *packetRouter) traceHop(k *Kernel, pkt, gp, far int32, kept bool) {
	pk := &p.sch.pk
	wi := pk.mirror[pkt]
	if wi < 0 && !pk.deferred(pkt) {
		return
	}
	to := p.pc[p.sch.nodePort[far]].buf
	if !kept {
		to = -1
		if t := p.sch.nodeTerm[far]; t >= 0 {
			to = k.nb + p.pt[t].far.in
		}
	}
	from := p.pc[p.sch.nodePort[k.switchOf(gp)]].buf
	if wi < 0 { // deferred: its record is made at its first traced event
		if !pk.wanted(pkt, from, to) {
			pk.lazy[pkt].hops++
			return
		}
		wi = pk.materialiseLazy(pkt)
	}
	w := &k.Pool.Worms[wi]
	w.Hops++
	if k.tr == nil {
		return
	}
	k.tr.Move(k.now, flit.Flit{Worm: wi, Kind: flit.HeadTail, Hops: uint16(w.Hops)}, from, to, gp, k.now+1)
}

// growWorms makes the kernel's per-worm arrays cover pool index wi.
func (k *Kernel) growWorms(wi int32) {
	for int(wi) >= len(k.mc) {
		k.mc = append(k.mc, mcState{})
		k.vetoAt = append(k.vetoAt, -1)
	}
}
