package kernel

import (
	"github.com/flitsim/flitsim/flit"
)

// Multiple writes: combining (Brebner §2.6.2, digest §4.9; see
// packet_multi.go). Only last-leg packets combine: in phase 1 writes to one
// location go to independent random nodes and rarely meet, and the thesis
// combines in phase 2 only.

// combines reports whether packet wi is a write in its last leg.
func (m *multiState) combines(p *packetRouter, wi int32) bool {
	return int(wi) < len(m.pk) && m.pk[wi].op >= 0 && m.ops[m.pk[wi].op].Write && p.ps[wi].final < 0
}

// merge is join j about to be committed: if it is a last-leg write and a
// packet for the same location is queued on the same out-edge at that
// node (the digest's reading of §4.9: "on arrival, merge with any packet
// for the same destination currently queued at this node on the same
// out-edge"), the joining packet is combined into the queued one and does
// not join. It reports whether it did so.
func (m *multiState) merge(p *packetRouter, k *Kernel, j join) bool {
	wi := j.wi
	if !m.combines(p, wi) {
		return false
	}
	x := &m.pk[wi]
	o := m.ops[x.op]
	key := queuedKey{j.q, locKey{o.Dst, o.Addr}}
	if h, ok := m.queued[key]; ok && h != wi && m.stillQueued(p, h, j.q, p.ps[wi].port) {
		m.absorb(k, h, wi)
		p.outstand-- // (wi travels on inside h)
		return true
	}
	x.q = j.q
	m.queued[key] = wi
	return false
}

// stillQueued reports whether write packet h is still waiting in queue q
// to leave by port gp (it has not left, been delivered or been absorbed).
func (m *multiState) stillQueued(p *packetRouter, h, q, gp int32) bool {
	return m.pk[h].op >= 0 && m.pk[h].q == q && p.ps[h].sw == p.pc[q].sw && p.ps[h].port == gp && p.ps[h].final < 0
}

// absorb combines write packet b into packet a: a carries the operator's
// result over both, their writes' count and b's chain of packets.
func (m *multiState) absorb(k *Kernel, a, b int32) {
	x, y := &m.pk[a], &m.pk[b]
	x.value, x.who = m.apply(k, x.value, x.who, x.cnt, y.value, y.who, y.cnt)
	x.cnt += y.cnt
	m.pk[x.tail].next = b
	x.tail = y.tail
	y.op = -1 // (b is no longer a packet of its own; its chain is a's)
	m.st.Merges++
}

// apply is the combining operator on two partial results (value, lowest
// writer, writes).
func (m *multiState) apply(k *Kernel, a uint64, aw, an int32, b uint64, bw, bn int32) (uint64, int32) {
	w := min(aw, bw)
	switch m.combine {
	case CombineAnd:
		return a & b, w
	case CombineSum:
		return a + b, w
	case CombineLowest:
		if bw < aw {
			return b, bw
		}
		return a, aw
	case CombineRandom:
		// b's value wins with probability bn/(an+bn): over any merge tree
		// every writer's value is equally likely to be the result.
		if k.rng.IntN(int(an+bn)) < int(bn) {
			return b, w
		}
		return a, w
	}
	return a | b, w
}

// land is combined write packet wi reaching its location at terminal term:
// packets arriving there in the same instant are combined too; every
// write's own packet is then delivered for the kernel's statistics.
func (m *multiState) land(p *packetRouter, k *Kernel, wi, term int32, at int64) {
	x := m.pk[wi]
	o := m.ops[x.op]
	if term != o.Dst {
		m.st.Wrong++
	}
	loc := locKey{o.Dst, o.Addr}
	c := m.mem[loc]
	switch {
	case c == nil:
		m.mem[loc] = &memCell{value: x.value, cnt: x.cnt, who: x.who, at: at}
		m.st.Deliveries++
	case c.at == at: // (met another packet for the location: combined)
		c.value, c.who = m.apply(k, c.value, c.who, c.cnt, x.value, x.who, x.cnt)
		c.cnt += x.cnt
		m.st.Merges++
	default: // (a later packet: the memory applies the operator)
		c.value, c.who = m.apply(k, c.value, c.who, c.cnt, x.value, x.who, x.cnt)
		c.cnt += x.cnt
		c.at = at
		m.st.Deliveries++
	}
	if m.arrival != nil {
		m.arrival(x.op, term, at)
	}
	hops := uint16(p.ps[wi].hops)
	for r := wi; r >= 0; {
		next := m.pk[r].next
		m.pk[r].op, m.pk[r].next = -1, -1
		k.Pool.Worms[r].Dst = term
		f := flit.Flit{Worm: r, Kind: flit.HeadTail, Hops: hops}
		k.eject(term, &f, at)
		r = next
	}
}

// checkWrites compares every location's memory with the operator applied
// to the writes addressed to it (each exactly once): wrong results are
// counted in st.Wrong; it returns the writes that never arrived.
func (m *multiState) checkWrites(st *MultiStats) int64 {
	type want struct {
		value    uint64
		cnt      int32
		who      int32
		possible map[uint64]bool
	}
	ws := map[locKey]*want{}
	for i, o := range m.ops {
		if !o.Write {
			continue
		}
		loc := locKey{o.Dst, o.Addr}
		w := ws[loc]
		if w == nil {
			w = &want{value: o.Value, who: int32(i), possible: map[uint64]bool{}}
			ws[loc] = w
		} else if m.combine != CombineRandom { // (random: any written value)
			w.value, w.who = m.apply(nil, w.value, w.who, w.cnt, o.Value, int32(i), 1)
		}
		w.cnt++
		w.possible[o.Value] = true
	}
	var missing int64
	for loc, w := range ws {
		c := m.mem[loc]
		switch {
		case c == nil:
			missing += int64(w.cnt)
		case c.cnt < w.cnt:
			missing += int64(w.cnt - c.cnt)
		case c.cnt > w.cnt:
			st.Duplicates += int64(c.cnt - w.cnt)
		case m.combine == CombineRandom && !w.possible[c.value],
			m.combine != CombineRandom && c.value != w.value:
			st.Wrong++
		}
	}
	return missing
}
