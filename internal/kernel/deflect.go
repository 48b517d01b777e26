package kernel

import "math/bits"

// The deflection schemes of the slotted router (SlottedDeflSimple,
// SlottedDeflPriority): Varvarigos 1992 §5.6.1 (from [Var90]; digest 000b
// §3.4, §4.8). The node is a crossbar with one queue of at most d packets
// and d outgoing links, the hypercube's; every slot it sends every packet
// it holds, one per link. Link (s, i) goes to s ⊕ e_i and is stored at
// s·d + i in cur and nxt.
//
// One slot at node s:
//
//	arrive: a packet arriving at its destination exits (delivered); the
//	  others stay. Each link left free takes a new packet with probability
//	  p0 (traffic.p0, as in the other schemes: per free link per slot),
//	  destination uniform over the other N − 1 nodes. At p0 = 1 this is
//	  the thesis's closed network: a new packet for each one that exits,
//	  every node always holding d.
//	phase 1 (non-wasting): in processing order, each packet takes a random
//	  still-free preferred link (a dimension in which s and its
//	  destination differ), if it has one. The order is random (simple) or
//	  closest first, random within a distance (priority).
//	phase 2: the packets left unassigned take the unused links, in
//	  processing order, lowest link first; each such deflection adds two
//	  hops to the packet's path.
//
// A packet's low byte counts its deflections plus one (so that 0 is no
// packet); it saturates at 255.

// deflLinks is the number of link registers the deflection node needs.
func deflLinks(d, n int) int { return d * n }

// stepDeflect is one slot of the deflection schemes.
func (m *slotted) stepDeflect(k *Kernel, now int64, meas bool) {
	d, n := m.d, m.n
	var held [32]slotPkt // (d ≤ 20)
	var key [32]uint64
	for s := range n {
		h := 0
		for i := range d {
			p := m.cur[(s^1<<i)*d+i]
			if p.dt == 0 {
				continue
			}
			m.hops++
			if meas {
				m.c.WindowHops++
			}
			if int(p.dest()) == s {
				m.live.aged(p, now)
				m.deliver(p, s, now, meas, int(p.dt&0xff)-1)
				continue
			}
			held[h] = p
			h++
		}
		m.live.locked(s, h == d, now)
		for h < d && (m.always || k.src.Uint64() < m.p0) {
			held[h] = m.newPacket(s, m.deflDest(k, s), 1, now, meas)
			if m.tr != nil {
				m.traceEntered(now, held[h], s)
			}
			h++
		}
		// Processing order: a random key (then the packet's index), below
		// the distance for priority.
		for j := range h {
			key[j] = k.src.Uint64()>>32<<8 | uint64(j)
			if m.spec.Scheme == SlottedDeflPriority {
				key[j] |= uint64(bits.OnesCount32(uint32(s)^uint32(held[j].dest()))) << 40
			}
		}
		sortKeys(key[:h])
		out := m.nxt[s*d : (s+1)*d]
		clear(out)
		free := uint32(1)<<d - 1
		var left [32]int
		nl := 0
		for _, kk := range key[:h] {
			j := int(kk & 0xff)
			pref := (uint32(s) ^ uint32(held[j].dest())) & free
			if pref == 0 {
				left[nl] = j
				nl++
				continue
			}
			l := nthBit(pref, int(k.src.Uint64()%uint64(bits.OnesCount32(pref))))
			out[l] = held[j]
			free &^= 1 << l
		}
		for _, j := range left[:nl] {
			l := bits.TrailingZeros32(free)
			p := held[j]
			if p.dt&0xff < 0xff {
				p.dt++
			}
			if m.tr != nil {
				m.traceDeflected(now, p, s, l)
			}
			out[l] = p
			free &^= 1 << l
		}
	}
}

// deflDest is a new packet's destination at node s: uniform over the
// other nodes, unless fixed.
func (m *slotted) deflDest(k *Kernel, s int) uint64 {
	if m.spec.Fixed != nil && m.spec.Fixed[s] >= 0 {
		return uint64(m.spec.Fixed[s])
	}
	return uint64(s) ^ (1 + k.src.Uint64()%uint64(m.n-1))
}

// sortKeys sorts a node's few processing keys (insertion sort: d ≤ 20).
func sortKeys(a []uint64) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// nthBit is the index of the r-th (from 0) set bit of x.
func nthBit(x uint32, r int) int {
	for range r {
		x &= x - 1
	}
	return bits.TrailingZeros32(x)
}
