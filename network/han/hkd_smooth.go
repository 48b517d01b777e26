package han

import (
	"cmp"
	"slices"
)

// move is the move along axis a: every message whose destination lies in
// the other half of its band along a goes ⌈S_a/2⌉ hops along it, one a
// step, all from step 1 (contention-free: a processor holds at most one
// message bound for the other half, §4.6.1).
func (k *kd) move(a int) error {
	k.index()
	m, r := k.m, k.r
	var ts []trav
	static := 0
	for id := range int32(len(r.dests)) {
		p := m.Loc(id)
		b, i := k.local(p, a)
		l := b.n - b.n/2
		static = max(static, l)
		j := m.Coord(r.dests[id][0], a) - b.start
		if (i < l) == (j < l) {
			continue
		}
		hops := int32(l)
		if i >= l {
			hops = -hops
		}
		ts = append(ts, trav{id: id, dv: hops})
	}
	slices.SortFunc(ts, func(x, y trav) int { return cmp.Compare(m.Loc(x.id), m.Loc(y.id)) })
	m.PhaseStart(r.stage.Side, "move")
	var steps int64
	var moves []Move
	for len(ts) > 0 {
		steps++
		moves = moves[:0]
		for i := range ts {
			t := &ts[i]
			moves = append(moves, Move{From: m.Loc(t.id), Dir: AxisDir(a, t.dv > 0), Msg: t.id})
			t.dv -= max(min(t.dv, 1), -1)
		}
		if err := r.data(moves); err != nil {
			return err
		}
		ts = slices.DeleteFunc(ts, func(t trav) bool { return t.dv == 0 })
	}
	r.res.MaxBufferAfterMove = max(r.res.MaxBufferAfterMove, m.Held())
	return r.record(Phase{Phase: "move", Kind: "data", Region: k.regionName(), Static: int64(static), Actual: steps, MaxBuffer: m.PhaseHeld()})
}

// smooth smooths every region (but those of at most two processors: the
// next move takes their messages as they are, digest §8 item 25).
func (k *kd) smooth() error {
	k.index()
	size, count, rows, col := 1, int64(0), int64(0), int64(0)
	for a := range k.K {
		w := widest(k.bands[a])
		size *= w
		if a > 0 {
			count, rows = count+int64(w-1), rows+RowBound(k.b, w)
		}
	}
	if size <= 2 {
		return nil
	}
	w0 := widest(k.bands[0])
	count += int64(max(w0-w0/2-1, 0))
	col = ColBound(k.b, w0)
	m, r := k.m, k.r
	region := k.regionName()
	m.PhaseStart(r.stage.Side, "count")
	if err := k.count(); err != nil {
		return err
	}
	if err := r.record(Phase{Phase: "count", Kind: "integer", Region: region, Static: count, Actual: count, MaxBuffer: m.PhaseHeld()}); err != nil {
		return err
	}
	m.PhaseStart(r.stage.Side, "row")
	var steps int64
	for a := k.K - 1; a >= 1; a-- {
		s, err := k.rowMove(a)
		if err != nil {
			return err
		}
		steps += s
	}
	if err := r.record(Phase{Phase: "row", Kind: "data", Region: region, Static: rows, Actual: steps, MaxBuffer: m.PhaseHeld()}); err != nil {
		return err
	}
	m.PhaseStart(r.stage.Side, "column")
	steps, err := k.colMove()
	if err != nil {
		return err
	}
	if err := r.record(Phase{Phase: "column", Kind: "data", Region: region, Static: col, Actual: steps, MaxBuffer: m.PhaseHeld()}); err != nil {
		return err
	}
	if h := m.Held(); h > 1 {
		return internalf("after smoothing %s regions a processor holds %d messages", region, h)
	}
	return nil
}

// count runs the counting waves: along axes K−1 … 1 both ways (each
// processor learns the totals of the blocks of depth a+1 before and after
// its own on its line: bef[a], and its depth-a block's total blk[a]),
// then along axis 0 down each half (bef[0]).
func (k *kd) count() error {
	m := k.m
	N := m.Processors()
	for p := range N {
		k.blk[k.K][p] = int32(m.Len(int32(p)))
	}
	for a := k.K - 1; a >= 0; a-- {
		for p := range N {
			k.acc[0][p], k.acc[1][p] = 0, 0
		}
		if err := k.wave(a); err != nil {
			return err
		}
		for p := range int32(N) {
			lo, hi := k.acc[0][p], k.acc[1][p] // (from the physical − and + sides)
			if k.mir[p] {
				lo, hi = hi, lo
			}
			k.bef[a][p] = lo
			if a > 0 {
				k.blk[a][p] = lo + k.blk[a+1][p] + hi
			}
		}
	}
	return nil
}

// wave runs the integer steps along axis a: every line carries the
// depth-(a+1) block totals from both ends (axis 0: from each half's
// outer end only, within the half); acc[0] sums what came from the −
// side, acc[1] from the +.
func (k *kd) wave(a int) error {
	r := k.r
	steps := widest(k.bands[a]) - 1
	if a == 0 {
		w := widest(k.bands[0])
		steps = w - w/2 - 1
	}
	var sends []IntSend
	for t := 1; t <= steps; t++ {
		sends = sends[:0]
		// (the senders are at coordinate t − 1 and, from the other end,
		// S − t of their bands: every band along an axis has one size)
		w := widest(k.bands[a])
		for j, i := range []int{t - 1, w - t} {
			if j == 1 && i == t-1 {
				break // (the middle: its senders are in already)
			}
			for _, p := range k.byAt[a][i] {
				sends = k.waveSend(sends, a, p, t)
			}
		}
		got, err := r.integer(sends)
		if err != nil {
			return err
		}
		for _, g := range got {
			if g.Dir == AxisDir(a, true) {
				k.acc[0][g.From] = int32(g.Value)
			} else {
				k.acc[1][g.From] = int32(g.Value)
			}
		}
	}
	return nil
}

// waveSend appends processor p's integer message of wave step t along
// axis a, if it sends one.
func (k *kd) waveSend(sends []IntSend, a int, p int32, t int) []IntSend {
	i, n := int(k.at[a][p]), int(k.size[a][p])
	v := int64(k.blk[a+1][p])
	if a == 0 {
		top := n / 2
		if i < top && i == t-1 && i+1 < top {
			sends = append(sends, IntSend{p, AxisDir(a, true), v + int64(k.acc[0][p])})
		}
		if i >= top && i == n-t && i-1 >= top {
			sends = append(sends, IntSend{p, AxisDir(a, false), v + int64(k.acc[1][p])})
		}
		return sends
	}
	if i == t-1 && i+1 < n {
		sends = append(sends, IntSend{p, AxisDir(a, true), v + int64(k.acc[0][p])})
	}
	if i == n-t && i > 0 {
		sends = append(sends, IntSend{p, AxisDir(a, false), v + int64(k.acc[1][p])})
	}
	return sends
}

// telescope is the FCP transform of the row movements along axes K−1 …
// a+1 at processor p: the messages a prefix of s messages (in the
// lexicographic order of the half) leaves in p's slice after them.
func (k *kd) telescope(p int32, a int, s int32) int32 {
	for b := k.K - 1; b > a; b-- {
		s = fcp(s, k.fr[b][p], k.size[b][p])
	}
	return s
}

// rowMove is the row movement along axis a (K−1 … 1) on every region: each
// processor sends, as soon as it holds a message, the flows its telescoped
// counts give its two links along a (Lemma 2.2). It returns the steps.
func (k *kd) rowMove(a int) (int64, error) {
	m, r := k.m, k.r
	var active []int32
	for p := range int32(m.Processors()) {
		P := int32(0) // messages before p's depth-a block: Σ_{i<a} bef[i]
		for i := range a {
			P += k.bef[i][p]
		}
		lp := k.telescope(p, a, P)
		lt := k.telescope(p, a, P+k.blk[a][p]) - lp
		Pa := P + k.bef[a][p]
		lf := k.telescope(p, a, Pa) - lp
		z := k.telescope(p, a, Pa+k.blk[a+1][p]) - k.telescope(p, a, Pa)
		if z != int32(m.Len(p)) {
			return 0, internalf("row movement along axis %d: processor %d counts %d messages, holds %d", a, p, z, m.Len(p))
		}
		x, q := k.fr[a][p], k.size[a][p]
		F := fcp(lp+lt, x, q) - fcp(lp, x, q)
		L2 := cum(lp+lt, x, q) - cum(lp, x, q)
		plus, minus := max(lf+z-(L2+F), 0), max(L2-lf, 0)
		if k.mir[p] {
			plus, minus = minus, plus
		}
		k.send[0][p], k.send[1][p] = minus, plus
		if plus+minus > 0 {
			active = append(active, p)
		}
	}
	var steps int64
	var moves []Move
	for len(active) > 0 {
		moves = moves[:0]
		for _, p := range active {
			pool, used := m.Pool(p), 0
			for dir := range 2 {
				if k.send[dir][p] > 0 && used < len(pool) {
					moves = append(moves, Move{From: p, Dir: AxisDir(a, dir == 1), Msg: pool[used]})
					used++
				}
			}
		}
		if len(moves) == 0 {
			return steps, internalf("row movement along axis %d stuck with %d processors still to send", a, len(active))
		}
		if err := r.data(moves); err != nil {
			return steps, err
		}
		steps++
		for _, mv := range moves {
			k.send[b2i(mv.Dir == AxisDir(a, true))][mv.From]--
		}
		active = slices.DeleteFunc(active, func(p int32) bool { return k.send[0][p]+k.send[1][p] == 0 })
	}
	return steps, nil
}

// colMove is the column movement along axis 0: a processor numbers its
// messages from the telescoped count of its half's messages before it on
// its axis-0 line; each goes to that index (the bottom half: mirrored),
// farthest first (Thm 2.3). It returns the steps.
func (k *kd) colMove() (int64, error) {
	m, r := k.m, k.r
	if len(r.target) < m.Messages() {
		r.target = make([]int32, m.Messages())
	}
	var active []int32
	for p := range int32(m.Processors()) {
		i, n := int(k.at[0][p]), int(k.size[0][p])
		start := m.Coord(p, 0) - i
		above := k.telescope(p, 0, k.bef[0][p])
		for x, id := range m.Pool(p) {
			row := int(above) + x
			if k.mir[p] {
				row = n - 1 - row
			}
			r.target[id] = int32(start + row)
			if row != i {
				active = append(active, id)
			}
		}
	}
	return r.columnSteps(active, false)
}
