package han

import "slices"

// A move phase whose travellers all leave at step 1 with their own
// message (no copies, no waits) and hop every step until they arrive —
// H's moves, Q's permutation moves, greedy's row phase — is run here in
// lean passes over typed slices instead of a Move list a step through
// Machine.Data: the same rules on the same steps (a link direction once a
// step, no link off the mesh, one move a message, a pool never past
// Buffers at a step's end), the same occupancy maxima, and the pools left
// in the order Data leaves them (the messages that stayed, then the
// arrivals by step and, within a step, in the travellers' order). When a
// step would break a rule, nothing is changed and travel runs the phase
// step by step, so that Data refuses it and words the refusal; with a
// step log or a test hook attached it always does.

// bulk is travelBulk's scratch, kept between phases.
type bulk struct {
	t           []bulkTrav // travellers under way, in travel's order
	fin, id     []int32    // per traveller (travel's index): where it arrived, its message
	over, order []int32    // a step's receivers past the occupancy seen; arrivals by step
	node        []bulkNode // per processor
	seen        []uint32   // per message: the epoch that moved it
	epoch       uint32
	step        [4]int32 // per link direction: the processor index it adds
}

// bulkNode is a processor's messages held, as the steps go, and the link
// directions used in an epoch: use is the epoch << 4 | a bit a direction.
// Eight bytes, so that a hop touches little memory (at 1024² the move
// phases are bound by memory traffic).
type bulkNode struct {
	use uint32
	cnt int32
}

// maxEpoch is the last epoch bulkNode.use can hold; bulkStart starts again
// from 0 before it.
const maxEpoch = 1<<28 - 1

// bulkTrav is a traveller as two straight legs: the one under way (rem
// hops over link direction dir) and the next (travel's order: the column
// leg first unless rowFirst); i is its index in travel's list. Sixteen
// bytes, as every step streams them all (legs over 65535 hops: the step
// path).
type bulkTrav struct {
	pos, i    int32
	rem, rem2 uint16
	dir, dir2 Dir
}

// travelBulk runs ts in lean passes when it can (ok), and returns the
// steps taken; unless sorted (ts in sortBySource's order), only a
// straight phase, which does not need the order. Its link table is a 2-D mesh's (four links a processor):
// a K-D machine takes the step-by-step path.
//
// One pass a step moves every traveller, checks its link and drops the
// arrived. A pool's count can pass the most seen so far (held, or
// Buffers) at the step's end only if an arrival took it past on the way,
// so such receivers are noted and only they are checked at the end.
func (r *router) travelBulk(ts []trav, sorted bool) (steps int64, ok bool) {
	m := r.m
	if m.SIMD || m.Dims != nil || m.Log != nil || r.onStep != nil || len(ts) == 0 || !r.bulkStart(ts) {
		return 0, false
	}
	b := &r.bulk
	held := int32(m.phaseHeld) // (≥ every pool at the phase's start; Data's maxima take it as well)
	if b.straightLegs() {
		return r.straightBulk(ts, held)
	}
	if !sorted {
		return 0, false
	}
	for p, c := range m.cnt {
		b.node[p].cnt = c
	}
	for len(b.t) > 0 {
		steps++
		b.epoch++
		k, over := 0, b.over[:0]
		for j := range b.t {
			x := &b.t[j] // (in place: most steps nobody arrives and nothing shifts)
			from, bit := &b.node[x.pos], uint32(1)<<(x.dir&3)
			if from.use>>4 != b.epoch {
				from.use = b.epoch << 4
			}
			if from.use&bit != 0 {
				return 0, false
			}
			from.use |= bit
			from.cnt--
			x.pos += b.step[x.dir&3]
			to := &b.node[x.pos]
			c := to.cnt + 1
			to.cnt = c
			if c > held {
				over = append(over, x.pos)
			}
			if x.rem--; x.rem == 0 {
				if x.rem2 == 0 {
					b.fin[x.i] = x.pos
					continue
				}
				x.rem, x.dir, x.rem2 = x.rem2, x.dir2, 0
			}
			if k != j {
				b.t[k] = *x
			}
			k++
		}
		b.t, b.over = b.t[:k], over
		for _, q := range over {
			c := b.node[q].cnt
			if c > int32(m.Buffers) {
				return 0, false
			}
			held = max(held, c)
		}
	}
	r.bulkCommit(ts, steps, int(held))
	return steps, true
}

// bulkStart checks that every traveller carries its own message, leaves at
// step 1, goes somewhere and stays on the mesh, each message once, and
// loads the scratch.
func (r *router) bulkStart(ts []trav) bool {
	m, b := r.m, &r.bulk
	N := m.Processors()
	if len(b.node) < N || b.epoch+uint32(m.Rows+m.Cols)+2 > maxEpoch { // (a phase takes fewer steps than rows + columns)
		b.node, b.seen, b.epoch = make([]bulkNode, N), nil, 0
	}
	if len(b.seen) < m.Messages() {
		b.seen = make([]uint32, m.Messages())
	}
	b.step = [4]int32{North: -int32(m.Cols), East: 1, South: int32(m.Cols), West: -1}
	b.t, b.fin, b.order = slices.Grow(b.t[:0], len(ts)), grow(b.fin, len(ts)), grow(b.order, len(ts)) // (every traveller arrives: fin is all written)
	b.id = grow(b.id, len(ts))
	b.epoch++
	for i := range ts {
		t := &ts[i]
		if t.id < 0 || t.parent >= 0 || t.copy || t.wait != 0 || t.banHi > 0 || t.dv == 0 && t.dh == 0 || b.seen[t.id] == b.epoch {
			return false
		}
		b.seen[t.id], b.id[i] = b.epoch, t.id
		v, h := abs32(t.dv), abs32(t.dh)
		if v > 0xffff || h > 0xffff {
			return false
		}
		x := bulkTrav{pos: m.loc[t.id], rem: uint16(v), dir: South, rem2: uint16(h), dir2: East, i: int32(i)}
		if t.dv < 0 {
			x.dir = North
		}
		if t.dh < 0 {
			x.dir2 = West
		}
		if t.rowFirst {
			x.rem, x.dir, x.rem2, x.dir2 = x.rem2, x.dir2, x.rem, x.dir
		}
		if x.rem == 0 {
			x.rem, x.dir, x.rem2 = x.rem2, x.dir2, 0
		}
		if !m.onMesh(x.pos, t.dv, t.dh) {
			return false // (travel's Data refuses the step that leaves it)
		}
		b.t = append(b.t, x)
	}
	return true
}

// onMesh says whether a path from p of dv rows and dh columns (either leg
// first) stays on the mesh: both ends of both legs are on it.
func (m *Machine) onMesh(p, dv, dh int32) bool {
	if m.Wrap {
		return false // (wraparound paths: step by step)
	}
	r, c := p/int32(m.Cols), p%int32(m.Cols)
	return r+dv >= 0 && r+dv < int32(m.Rows) && c+dh >= 0 && c+dh < int32(m.Cols)
}

// bulkCommit puts the arrived travellers' messages in their pools, in the
// order Data's steps would have, and counts the steps.
func (r *router) bulkCommit(ts []trav, steps int64, held int) {
	m, b := r.m, &r.bulk
	for i := range ts { // (every traveller left its pool at step 1)
		id := ts[i].id
		from := m.loc[id]
		pool := m.Pool(from)
		j := 0
		for pool[j] != id {
			j++
		}
		for ; j < len(pool)-1; j++ {
			pool[j] = pool[j+1]
		}
		m.cnt[from]--
	}
	// Arrivals by step (a traveller arrives after its hops), stably.
	first := make([]int32, steps+2)
	for i := range ts {
		first[abs32(ts[i].dv)+abs32(ts[i].dh)+1]++
	}
	for s := 1; s < len(first); s++ {
		first[s] += first[s-1]
	}
	for i := range ts {
		h := abs32(ts[i].dv) + abs32(ts[i].dh)
		b.order[first[h]] = int32(i)
		first[h]++
	}
	for _, i := range b.order {
		t := &ts[i]
		to := b.fin[i]
		m.slots[int(to)*m.Buffers+int(m.cnt[to])] = t.id
		m.cnt[to]++
		m.loc[t.id] = to
		t.dv, t.dh = 0, 0
		if t.dests != nil {
			r.dests[t.id] = t.dests
		}
	}
	m.steps += uint32(steps)
	m.DataSteps += steps
	m.held(held)
}

// grow is s with length n, its old contents kept where it had room (a
// scratch slice, written before it is read).
func grow(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}
