package han

// A move phase whose travellers each go straight along one line — all
// along rows or all along columns, one leg each: H's moves, greedy's row
// phase — is checked line by line with bit sets instead of hop by hop.
// Lines do not meet in such a phase, and two travellers in one line and
// direction keep their distance while both move, so they share a link
// only if they leave one processor (step 1). A processor's pool at a
// step's end is S + e + w: S the messages that stay or have arrived (it
// changes only at arrivals), e and w whether an east- (south-) and a
// west- (north-) bound traveller is passing. With G_k the bit set of
// {x: S(x) ≥ k}, some pool holds k or more iff G_k ∪ (G_{k−1} ∩ (E ∪ W))
// ∪ (G_{k−2} ∩ E ∩ W) is not empty; a step costs a few word operations a
// 64 processors. Any broken rule: ok false, nothing changed (travel then
// runs the phase step by step and Data refuses it). The pools are then
// committed as Data leaves them: the travellers leave, and arrive by
// step, at one processor in one step the one from the lower row or
// column first (Data's order: the travellers', by source processor), so
// travel's list need not be sorted.

// straight is straightBulk's scratch, kept between phases.
type straight struct {
	tr         []strav  // the travellers, by line: line l's end at first[l]
	first, idx []int32  // (idx: the commit's arrival order, tr's indices)
	at         []int32  // a line's arrivals by step, plus-bound first: x << 1 | plus
	atFirst    []int32  // (counting sort offsets: at[atFirst[2t−1]:atFirst[2t+1]] arrive at step t)
	s          []int32  // per position of the line: messages staying or arrived
	lv         []uint64 // G_1 … G_{Buffers+1}, words a level
	e, w       []uint64 // passing travellers, plus and minus bound
	Runs       int      // (tests: phases tried here)
}

// strav is a straight traveller: its message, from and to, hops and
// direction along its line (plus: east or south).
type strav struct {
	pos, id, to int32
	rem         uint16
	plus        bool
}

// key orders arrivals: by step, the plus-bound first.
func (t *strav) key() int32 { return 2*int32(t.rem) + int32(b2i(!t.plus)) }

// straightLegs says whether bulkStart's travellers go straight, one leg
// each, all along rows or all along columns.
func (b *bulk) straightLegs() bool {
	horiz := b.t[0].dir == East || b.t[0].dir == West
	for i := range b.t {
		if x := &b.t[i]; x.rem2 != 0 || (x.dir == East || x.dir == West) != horiz {
			return false
		}
	}
	return true
}

// straightBulk runs b.t (bulkStart's for ts, one leg each) line by line
// and, when no rule broke, commits it and returns the steps taken; held is
// the most messages a pool held at the phase's start.
func (r *router) straightBulk(ts []trav, held int32) (steps int64, ok bool) {
	m, s := r.m, &r.straight
	s.Runs++
	horiz := r.bulk.t[0].dir == East || r.bulk.t[0].dir == West
	lines, n := m.Rows, m.Cols // (a row: its processors are the line's positions)
	if !horiz {
		lines, n = m.Cols, m.Rows
	}
	steps = r.straightTravellers(horiz, lines)
	words := (n + 63) / 64
	s.s, s.e, s.w = grow(s.s, n), growU(s.e, words), growU(s.w, words)
	s.lv = growU(s.lv, (m.Buffers+1)*words)
	s.atFirst = grow(s.atFirst, 2*int(steps)+3)
	start := int32(0)
	for l := range lines {
		end := s.first[l] // (line l's end, after the placing pass)
		if end > start {
			var fine bool
			if held, fine = r.straightLine(l, s.tr[start:end], horiz, held); !fine {
				return 0, false
			}
		}
		start = end
	}
	r.straightCommit(ts, steps)
	m.steps += uint32(steps)
	m.DataSteps += steps
	m.held(int(held))
	return steps, true
}

// straightTravellers fills s.tr from b.t by line (a counting sort: a
// line's pools are a few kilobytes, so the passes over a line's
// travellers stay in cache), with s.first[l] line l's end, and returns
// the most hops one takes.
func (r *router) straightTravellers(horiz bool, lines int) (steps int64) {
	m, b, s := r.m, &r.bulk, &r.straight
	stride := int32(1)
	if !horiz {
		stride = int32(m.Cols)
	}
	s.first = grow(s.first, lines+1)
	clear(s.first)
	for j := range b.t {
		s.first[lineOf(m, b.t[j].pos, horiz)+1]++
	}
	for l := 1; l <= lines; l++ {
		s.first[l] += s.first[l-1]
	}
	s.tr = growS(s.tr, len(b.t))
	for j := range b.t { // (first[l] is line l's next free place, then its end)
		x := &b.t[j]
		t := strav{pos: x.pos, id: b.id[x.i], rem: x.rem, plus: x.dir == East || x.dir == South}
		t.to = x.pos + int32(x.rem)*stride
		if !t.plus {
			t.to = x.pos - int32(x.rem)*stride
		}
		l := lineOf(m, x.pos, horiz)
		s.tr[s.first[l]] = t
		s.first[l]++
		steps = max(steps, int64(x.rem))
	}
	return steps
}

// straightCommit moves the messages: the travellers leave their pools (line
// by line), then arrive by step, plus-bound first (a processor
// takes at most one traveller a step from each side).
func (r *router) straightCommit(ts []trav, steps int64) {
	m, s := r.m, &r.straight
	for i := range s.tr {
		t := &s.tr[i]
		pool := m.Pool(t.pos)
		k := 0
		for pool[k] != t.id {
			k++
		}
		copy(pool[k:], pool[k+1:])
		m.cnt[t.pos]--
	}
	first := grow(s.atFirst, 2*int(steps)+3)
	clear(first)
	for i := range s.tr {
		first[s.tr[i].key()+1]++
	}
	for k := 1; k < len(first); k++ {
		first[k] += first[k-1]
	}
	s.idx = grow(s.idx, len(s.tr))
	for i := range s.tr {
		k := &first[s.tr[i].key()]
		s.idx[*k] = int32(i)
		*k++
	}
	for _, i := range s.idx {
		t := &s.tr[i]
		m.slots[int(t.to)*m.Buffers+int(m.cnt[t.to])] = t.id
		m.cnt[t.to]++
		m.loc[t.id] = t.to
	}
	for i := range ts {
		t := &ts[i]
		t.dv, t.dh = 0, 0
		if t.dests != nil {
			r.dests[t.id] = t.dests
		}
	}
}

func lineOf(m *Machine, p int32, horiz bool) int {
	if horiz {
		return int(p) / m.Cols
	}
	return int(p) % m.Cols
}

// straightLine checks line l's travellers step by step; held grows to
// the most a pool of the line held.
func (r *router) straightLine(l int, ts []strav, horiz bool, held int32) (int32, bool) {
	m, s := r.m, &r.straight
	n, p0, stride := m.Cols, int32(l*m.Cols), int32(1)
	if !horiz {
		n, p0, stride = m.Rows, int32(l), int32(m.Cols)
	}
	words := (n + 63) / 64
	e, w, lv := s.e[:words], s.w[:words], s.lv
	clear(e)
	clear(w)
	clear(lv)
	for x := range n {
		s.s[x] = m.cnt[p0+int32(x)*stride]
	}
	T := int32(0)
	for i := range ts {
		T = max(T, int32(ts[i].rem))
	}
	clear(s.atFirst[:2*T+3])
	for i := range ts {
		t := &ts[i]
		x := (t.pos - p0) / stride
		set := w
		if t.plus {
			set = e
		}
		if set[x>>6]&(1<<(x&63)) != 0 {
			return 0, false // (two on one link at step 1)
		}
		set[x>>6] |= 1 << (x & 63)
		s.s[x]--
		s.atFirst[t.key()+1]++
	}
	for x := range n {
		for k := int32(1); k <= s.s[x]; k++ {
			lv[int(k-1)*words+x>>6] |= 1 << (x & 63)
		}
	}
	for k := 1; k <= 2*int(T)+2; k++ {
		s.atFirst[k] += s.atFirst[k-1]
	}
	s.at = grow(s.at, len(ts))
	for i := range ts {
		t := &ts[i]
		k := &s.atFirst[t.key()]
		s.at[*k] = (t.to-p0)/stride<<1 | int32(b2i(t.plus))
		*k++
	}
	// (atFirst[k] is now key k's end: step t's arrivals are keys 2t and 2t + 1)
	for t := int32(1); t <= T; t++ {
		shiftUp(e)
		shiftDown(w)
		for _, a := range s.at[s.atFirst[2*t-1]:s.atFirst[2*t+1]] {
			x := a >> 1
			if a&1 != 0 {
				e[x>>6] &^= 1 << (x & 63)
			} else {
				w[x>>6] &^= 1 << (x & 63)
			}
			s.s[x]++
			k := s.s[x]
			if k > int32(m.Buffers)+1 {
				return 0, false
			}
			lv[int(k-1)*words+int(x>>6)] |= 1 << (x & 63)
		}
		for s.holds(held+1, words) {
			if held++; held > int32(m.Buffers) {
				return 0, false
			}
		}
	}
	return held, true
}

// holds says whether some pool of the line holds k or more messages.
func (s *straight) holds(k int32, words int) bool {
	level := func(j int32) []uint64 { // (G_j; nil: every position)
		if j <= 0 {
			return nil
		}
		return s.lv[int(j-1)*words:][:words]
	}
	g0, g1, g2 := level(k), level(k-1), level(k-2)
	for i := range words {
		e, w := s.e[i], s.w[i]
		v := e & w
		if g2 != nil {
			v &= g2[i]
		}
		one := e | w
		if g1 != nil {
			one &= g1[i]
		}
		v |= one
		if g0 != nil {
			v |= g0[i]
		}
		if v != 0 {
			return true
		}
	}
	return false
}

// shiftUp moves every bit one place up (x → x+1), shiftDown one down.
func shiftUp(a []uint64) {
	var c uint64
	for i := range a {
		a[i], c = a[i]<<1|c, a[i]>>63
	}
}

func shiftDown(a []uint64) {
	var c uint64
	for i := len(a) - 1; i >= 0; i-- {
		a[i], c = a[i]>>1|c, a[i]<<63
	}
}

// growS is grow for straight travellers.
func growS(s []strav, n int) []strav {
	if cap(s) < n {
		return make([]strav, n)
	}
	return s[:n]
}

// growU is grow for bit sets.
func growU(s []uint64, n int) []uint64 {
	if cap(s) < n {
		return make([]uint64, n)
	}
	return s[:n]
}
