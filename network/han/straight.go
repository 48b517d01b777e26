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
// runs the phase step by step and Data refuses it).

// straight is straightBulk's scratch, kept between phases.
type straight struct {
	first, idx []int32  // travellers by line: idx[first[l]:first[l+1]]
	at         []int32  // a line's arrivals by step: at[atFirst[t]:atFirst[t+1]] (x << 1 | plus)
	atFirst    []int32  //
	s          []int32  // per position of the line: messages staying or arrived
	lv         []uint64 // G_1 … G_{Buffers+1}, words a level
	e, w       []uint64 // passing travellers, plus and minus bound
	Runs       int      // (tests: phases tried here)
}

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

// straightBulk runs b.t (bulkStart's, one leg each) line by line; it
// writes b.fin and returns the steps taken and the most messages a pool
// held (from held, the phase's start).
func (r *router) straightBulk(held int32) (steps int64, _ int32, ok bool) {
	m, b, s := r.m, &r.bulk, &r.straight
	s.Runs++
	horiz := b.t[0].dir == East || b.t[0].dir == West
	lines, n := m.Rows, m.Cols // (a row: its processors are the line's positions)
	if !horiz {
		lines, n = m.Cols, m.Rows
	}
	s.first = grow(s.first, lines+1)
	clear(s.first)
	for i := range b.t {
		x := &b.t[i]
		s.first[lineOf(m, x.pos, horiz)+1]++
		steps = max(steps, int64(x.rem))
	}
	for l := 1; l <= lines; l++ {
		s.first[l] += s.first[l-1]
	}
	s.idx = grow(s.idx, len(b.t))
	for i := range b.t { // (first[l] is line l's next free place, then its end)
		l := lineOf(m, b.t[i].pos, horiz)
		s.idx[s.first[l]] = int32(i)
		s.first[l]++
	}
	words := (n + 63) / 64
	s.s, s.e, s.w = grow(s.s, n), growU(s.e, words), growU(s.w, words)
	s.lv = growU(s.lv, (m.Buffers+1)*words)
	s.atFirst = grow(s.atFirst, int(steps)+2)
	start := int32(0)
	for l := range lines {
		end := s.first[l] // (line l's end, after the placing pass)
		if end > start {
			var fine bool
			if held, fine = r.straightLine(l, s.idx[start:end], horiz, held); !fine {
				return 0, 0, false
			}
		}
		start = end
	}
	return steps, held, true
}

func lineOf(m *Machine, p int32, horiz bool) int {
	if horiz {
		return int(p) / m.Cols
	}
	return int(p) % m.Cols
}

// straightLine checks line l's travellers (travel's indices into b.t)
// step by step and writes where they arrive; held grows to the most a
// pool of the line held.
func (r *router) straightLine(l int, ts []int32, horiz bool, held int32) (int32, bool) {
	m, b, s := r.m, &r.bulk, &r.straight
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
	clear(s.atFirst)
	for _, i := range ts {
		t := &b.t[i]
		x := (t.pos - p0) / stride
		plus := t.dir == East || t.dir == South
		set := w
		if plus {
			set = e
		}
		if set[x>>6]&(1<<(x&63)) != 0 {
			return 0, false // (two on one link at step 1)
		}
		set[x>>6] |= 1 << (x & 63)
		s.s[x]--
		T = max(T, int32(t.rem))
		s.atFirst[t.rem+1]++
	}
	for x := range n {
		for k := int32(1); k <= s.s[x]; k++ {
			lv[int(k-1)*words+x>>6] |= 1 << (x & 63)
		}
	}
	for t := 1; t <= int(T)+1; t++ {
		s.atFirst[t] += s.atFirst[t-1]
	}
	s.at = grow(s.at, len(ts))
	for _, i := range ts {
		t := &b.t[i]
		x := (t.pos - p0) / stride
		d, plus := int32(t.rem), t.dir == East || t.dir == South
		if !plus {
			d = -d
		}
		s.at[s.atFirst[t.rem]] = (x+d)<<1 | int32(b2i(plus))
		s.atFirst[t.rem]++
		b.fin[t.i] = t.pos + d*stride
	}
	// (atFirst[t] is now step t's arrivals' end, atFirst[t−1] their start)
	for t := int32(1); t <= T; t++ {
		shiftUp(e)
		shiftDown(w)
		for _, a := range s.at[s.atFirst[t-1]:s.atFirst[t]] {
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

// growU is grow for bit sets.
func growU(s []uint64, n int) []uint64 {
	if cap(s) < n {
		return make([]uint64, n)
	}
	return s[:n]
}
