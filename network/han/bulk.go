package han

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
	t           []bulkTrav
	live, order []int32  // travellers under way; arrivals by step
	cnt         []int32  // per processor: messages held, as the steps go
	link        []uint32 // per processor×4+dir: the epoch that used it
	seen        []uint32 // per message: the epoch that moved it
	epoch       uint32
}

// bulkTrav is a traveller as two straight legs: the one under way (rem
// hops of step delta over link direction dir) and the next (travel's
// order: the column leg first unless rowFirst).
type bulkTrav struct {
	pos, rem, delta, rem2, delta2 int32
	dir, dir2                     Dir
}

// travelBulk runs ts in lean passes when it can (ok), and returns the
// steps taken.
func (r *router) travelBulk(ts []trav) (steps int64, ok bool) {
	m := r.m
	if m.SIMD || m.Log != nil || r.onStep != nil || len(ts) == 0 || !r.bulkStart(ts) {
		return 0, false
	}
	b := &r.bulk
	held := 0
	for len(b.live) > 0 {
		steps++
		b.epoch++
		for _, i := range b.live {
			x := &b.t[i]
			l := int(x.pos)*4 + int(x.dir)
			if b.link[l] == b.epoch {
				return 0, false
			}
			b.link[l] = b.epoch
			b.cnt[x.pos]--
			x.pos += x.delta
			b.cnt[x.pos]++
			if x.rem--; x.rem == 0 {
				x.rem, x.delta, x.dir, x.rem2 = x.rem2, x.delta2, x.dir2, 0
			}
		}
		k := 0
		for _, i := range b.live {
			x := &b.t[i]
			c := int(b.cnt[x.pos])
			if c > m.Buffers {
				return 0, false
			}
			held = max(held, c)
			if x.rem > 0 {
				b.live[k] = i
				k++
			}
		}
		b.live = b.live[:k]
	}
	r.bulkCommit(ts, steps, held)
	return steps, true
}

// bulkStart checks that every traveller carries its own message, leaves at
// step 1, goes somewhere and stays on the mesh, each message once, and
// loads the scratch.
func (r *router) bulkStart(ts []trav) bool {
	m, b := r.m, &r.bulk
	N := m.Processors()
	if len(b.cnt) < N {
		b.cnt, b.link = make([]int32, N), make([]uint32, 4*N)
		b.epoch = 0
	}
	if len(b.seen) < m.Messages() {
		b.seen = make([]uint32, m.Messages())
	}
	b.t, b.live = b.t[:0], b.live[:0]
	b.epoch++
	for i := range ts {
		t := &ts[i]
		if t.id < 0 || t.parent >= 0 || t.copy || t.wait != 0 || t.dv == 0 && t.dh == 0 || b.seen[t.id] == b.epoch {
			return false
		}
		b.seen[t.id] = b.epoch
		x := bulkTrav{pos: m.loc[t.id], rem: abs32(t.dv), dir: South, delta: int32(m.Cols), rem2: abs32(t.dh), dir2: East, delta2: 1}
		if t.dv < 0 {
			x.dir, x.delta = North, -int32(m.Cols)
		}
		if t.dh < 0 {
			x.dir2, x.delta2 = West, -1
		}
		if t.rowFirst {
			x.rem, x.dir, x.delta, x.rem2, x.dir2, x.delta2 = x.rem2, x.dir2, x.delta2, x.rem, x.dir, x.delta
		}
		if x.rem == 0 {
			x.rem, x.dir, x.delta, x.rem2 = x.rem2, x.dir2, x.delta2, 0
		}
		if !m.onMesh(x.pos, t.dv, t.dh) {
			return false // (travel's Data refuses the step that leaves it)
		}
		b.t, b.live = append(b.t, x), append(b.live, int32(i))
	}
	copy(b.cnt, m.cnt)
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
	b.order = append(b.order[:0], make([]int32, len(ts))...)
	for i := range ts {
		h := abs32(ts[i].dv) + abs32(ts[i].dh)
		b.order[first[h]] = int32(i)
		first[h]++
	}
	for _, i := range b.order {
		t := &ts[i]
		to := b.t[i].pos
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
