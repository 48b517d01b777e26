package han

import "slices"

// Smoothing (digest §3.2–3.4, §3.7.2–3.7.3): every R×C region of the mesh,
// all at once, re-spreads its messages so that each processor holds at most
// one. The region is split by rows into a top half and a bottom half, each
// counted and distributed on its own; the bottom half runs the top half's
// program in the mirrored frame (i,j) → (R−1−i, C−1−j). The top half's
// messages pack into the region's lowest row-major indices, the bottom
// half's into the highest.
//
// Every number a processor uses comes from the counting waves it took part
// in (integer steps on the machine), not from a global view.

// counted is what counting leaves at processor p, in its half's frame: its
// own count, the count to its left in its row, its row's total, the total in
// the rows above; w and e are scratch, the row waves' values received from
// west and east. A processor's numbers are read together, so they are kept
// together.
type counted struct{ z, left, total, above, w, e int32 }

// span is a band of rows or columns: start … start+n−1.
type span struct{ start, n int }

// grid is the regions a phase works on: every row band × every column
// band, so that walking the bands in order walks the processors in order.
type grid struct{ rows, cols []span }

// spans cuts 0 … total−1 into bands of size.
func spans(s []span, total, size int) []span {
	for x := 0; x < total; x += size {
		s = append(s, span{x, size})
	}
	return s
}

// tile is the mesh cut into R×C regions.
func (r *router) tile(R, C int) grid {
	r.grid.rows, r.grid.cols = spans(r.grid.rows[:0], r.m.Rows, R), spans(r.grid.cols[:0], r.m.Cols, C)
	return r.grid
}

// countSteps is the counting phase's length on an R×C region: row waves
// (C − 1) then the column wave down the larger half (⌈R/2⌉ − 1) (Lemmas
// 3.1, 4.1; the halves of an odd region are ⌊R/2⌋ on top and ⌈R/2⌉ below).
func countSteps(R, C int) int { return (C - 1) + max(R-R/2-1, 0) }

// count runs the counting phase on every R×C region.
func (r *router) count(R, C int) error { return r.countRegions(r.tile(R, C)) }

// countRegions runs the counting phase on the grid's regions, all at once.
func (r *router) countRegions(g grid) error {
	m, k := r.m, r.cnt
	for p := range m.Processors() {
		k[p].z, k[p].w, k[p].e, k[p].above = int32(m.Len(int32(p))), 0, 0, 0
	}
	steps := 0
	for _, a := range g.rows {
		for _, b := range g.cols {
			steps = max(steps, countSteps(a.n, b.n))
		}
	}
	sends := r.sends[:0] // (scratch kept between phases: allocation is a cost at 1024²)
	defer func() { r.sends = sends[:0] }()
	if r.countBulk(g, steps) {
		steps = 0 // (the waves' values written, their steps counted)
	}
	for t := 1; t <= steps; t++ {
		sends = sends[:0]
		for _, a := range g.rows {
			for _, b := range g.cols {
				sends = r.waveSends(sends, a, b, t)
			}
		}
		got, err := r.integer(sends)
		if err != nil {
			return err
		}
		for _, g := range got {
			switch g.Dir {
			case East:
				k[g.From].w = int32(g.Value)
			case West:
				k[g.From].e = int32(g.Value)
			default: // the column wave: the total in the rows above (in the half's frame)
				k[g.From].above = int32(g.Value)
			}
		}
	}
	g.each(m.Cols, func(p int32, i, j int, a, b span) {
		k[p].total = k[p].w + k[p].z + k[p].e
		k[p].left = k[p].w
		if i >= a.n/2 {
			k[p].left = k[p].e // (mirrored: its left is the east)
		}
	})
	return nil
}

// each calls f for every processor p in order, with its row i and column
// j in its region of row band a and column band b.
func (g grid) each(cols int, f func(p int32, i, j int, a, b span)) {
	for _, a := range g.rows {
		for i := range a.n {
			for _, b := range g.cols {
				p := int32((a.start+i)*cols + b.start)
				for j := range b.n {
					f(p+int32(j), i, j, a, b)
				}
			}
		}
	}
}

// waveSends appends step t's integer messages of the region of row band a
// and column band b.
// A processor sends as soon as it knows what it sends: the row waves leave
// the row's ends at step 1 and advance a column a step; a processor of
// column c knows its row's total after step K = max(c, C−1−c), so row i of
// a half sends the total above it and its row's down the half at K + 1 + i.
func (r *router) waveSends(sends []IntSend, a, b span, t int) []IntSend {
	m, k := r.m, r.cnt
	R, C := a.n, b.n
	at := func(i, j int) int32 { return int32((a.start+i)*m.Cols + b.start + j) }
	if t <= C-1 {
		for i := range R {
			p, q := at(i, t-1), at(i, C-t)
			sends = append(sends, IntSend{p, East, int64(k[p].w + k[p].z)}, IntSend{q, West, int64(k[q].e + k[q].z)})
		}
	}
	top, bottom := R/2, R-R/2
	for j := range C {
		i := t - 1 - max(j, C-1-j)
		if i < 0 {
			continue
		}
		if i < top-1 {
			p := at(i, j)
			sends = append(sends, IntSend{p, South, int64(k[p].above + k[p].w + k[p].z + k[p].e)})
		}
		if i < bottom-1 {
			q := at(R-1-i, C-1-j)
			sends = append(sends, IntSend{q, North, int64(k[q].above + k[q].w + k[q].z + k[q].e)})
		}
	}
	return sends
}

// fcp is the Final Configuration Property's column count: messages in
// column c of the first rows holding s messages, on a row of q processors.
func fcp(s, c, q int32) int32 {
	if c < s%q {
		return s/q + 1
	}
	return s / q
}

// cum is Σ_{c'<c} fcp(s, c', q).
func cum(s, c, q int32) int32 { return c*(s/q) + min(c, s%q) }

// rowMove runs row movement on every R×C region: each processor sends, as
// soon as it holds a message, the flows its counts give its two row links
// (Lemma 2.2: the time is the largest flow). It returns the steps taken.
func (r *router) rowMove(R, C int) (int64, error) { return r.rowMoveRegions(r.tile(R, C)) }

// rowMoveRegions is rowMove on the grid's regions, all at once.
func (r *router) rowMoveRegions(g grid) (int64, error) {
	m, k := r.m, r.cnt
	active := r.act[:0]
	defer func() { r.act = active[:0] }()
	g.each(m.Cols, func(p int32, i, j int, a, b span) {
		q, fc := int32(b.n), int32(j)
		if i >= a.n/2 {
			fc = q - 1 - fc
		}
		sp, s := k[p].above, k[p].above+k[p].total
		F := fcp(s, fc, q) - fcp(sp, fc, q)
		L2 := cum(s, fc, q) - cum(sp, fc, q)
		right, left := max((k[p].left+k[p].z)-(L2+F), 0), max(L2-k[p].left, 0)
		if i >= a.n/2 {
			right, left = left, right
		}
		r.sendE[p], r.sendW[p] = right, left
		if right+left > 0 {
			active = append(active, p)
		}
	})
	return r.rowSteps(active)
}

// rowSteps sends the active processors' flows (r.sendE, r.sendW; in
// processor order) along their rows, a message a link a step, and returns
// the steps taken.
func (r *router) rowSteps(active []int32) (int64, error) {
	if steps, ok := r.rowMoveBulk(active); ok {
		return steps, nil
	}
	m, moves := r.m, r.moves[:0]
	defer func() { r.moves = moves[:0] }()
	var steps int64
	for len(active) > 0 {
		moves = moves[:0]
		for _, p := range active {
			pool, used := m.Pool(p), 0
			if r.sendE[p] > 0 && used < len(pool) {
				moves = append(moves, Move{From: p, Dir: East, Msg: pool[used]})
				used++
			}
			if r.sendW[p] > 0 && used < len(pool) {
				moves = append(moves, Move{From: p, Dir: West, Msg: pool[used]})
			}
		}
		if len(moves) == 0 {
			return steps, internalf("row movement stuck with %d processors still to send", len(active))
		}
		if err := r.data(moves); err != nil {
			return steps, err
		}
		steps++
		for _, mv := range moves {
			if mv.Dir == East {
				r.sendE[mv.From]--
			} else {
				r.sendW[mv.From]--
			}
		}
		active = slices.DeleteFunc(active, func(p int32) bool { return r.sendE[p]+r.sendW[p] == 0 })
	}
	return steps, nil
}

// colMove runs column movement on every R×C region: a top-half processor
// with u messages above it in its column numbers its own u, u+1, …; a
// bottom-half one with v below numbers R−1−v, R−2−v, …; each step every
// processor sends north the north-bound message farthest from its row and
// south the farthest south-bound one (Thm 2.3). It returns the steps taken.
func (r *router) colMove(R, C int) (int64, error) { return r.colMoveRegions(r.tile(R, C)) }

// colMoveRegions is colMove on the grid's regions, all at once.
func (r *router) colMoveRegions(g grid) (int64, error) {
	m, k := r.m, r.cnt
	if len(r.target) < m.Messages() { // (copies made since)
		r.target = make([]int32, m.Messages())
	}
	active := r.act[:0]
	defer func() { r.act = active[:0] }()
	g.each(m.Cols, func(p int32, i, j int, a, b span) {
		q := int32(b.n)
		for x, id := range m.Pool(p) {
			var row int
			if i < a.n/2 {
				row = int(fcp(k[p].above, int32(j), q)) + x
			} else {
				row = a.n - 1 - int(fcp(k[p].above, q-1-int32(j), q)) - x
			}
			r.target[id] = int32(a.start + row)
			if row != i {
				active = append(active, id)
			}
		}
	})
	return r.columnSteps(active, false)
}

// columnSteps moves the active messages to their target rows along their
// columns: each step every processor sends north the north-bound message
// that wins and south the south-bound one that wins — the farthest from its
// target, or with fifo the one that arrived first. It returns the steps taken.
func (r *router) columnSteps(active []int32, fifo bool) (int64, error) {
	m := r.m
	cols := int32(m.Cols)
	wins := func(id, than, p int32) bool {
		if fifo {
			pool := m.Pool(p)
			return slices.Index(pool, id) < slices.Index(pool, than)
		}
		return abs32(r.target[id]-p/cols) > abs32(r.target[than]-p/cols)
	}
	var steps int64
	moves := slices.Grow(r.moves[:0], len(active)) // (a move an active message at most: append's growth copies)
	defer func() { r.moves = moves[:0] }()
	for len(active) > 0 {
		steps++
		r.stamp++
		moves = moves[:0]
		for _, id := range active {
			p := m.Loc(id)
			slot := &r.bestS[p]
			if r.target[id] < p/cols {
				slot = &r.bestN[p]
			}
			if r.bestStep[p] != r.stamp {
				r.bestStep[p], r.bestN[p], r.bestS[p] = r.stamp, -1, -1
			}
			if *slot < 0 || wins(id, *slot, p) {
				*slot = id
			}
		}
		for _, id := range active {
			p := m.Loc(id)
			if r.bestN[p] == id {
				moves = append(moves, Move{From: p, Dir: North, Msg: id})
			} else if r.bestS[p] == id {
				moves = append(moves, Move{From: p, Dir: South, Msg: id})
			}
		}
		if !m.dataColumns(moves) {
			if err := r.data(moves); err != nil {
				return steps, err
			}
		}
		active = slices.DeleteFunc(active, func(id int32) bool { return m.Loc(id)/cols == r.target[id] })
	}
	return steps, nil
}

func abs32(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}
