package han

import (
	"fmt"
	"io"
)

// Q on an odd square with §3.6.3's second and third mappings (digest 002
// §3.6.3). A region of R×C is cut into quadrants II (top left), I (top
// right), III (bottom left) and IV (bottom right), the top and left halves
// the larger (⌈R/2⌉, ⌈C/2⌉). Every message outside its destination's
// quadrant goes to a fixed processor of it, a function of the region's
// sizes and its own position only (each processor computes it locally):
//   - on an odd square (2s+1)² the thesis's table: the second mapping's
//     for s ≥ 3 (its column offsets s−3 … s−1 need it; on 5×5, s = 2,
//     our reading wraps s−3 to column 1), the third's for s ≥ 5 (below
//     that its exceptions collide: 6–8 messages at IV(1,1) and IV(2,1);
//     on 5×5 to 9×9 it takes the second's table, whose 6 no fixed mapping
//     can beat on 7×7 and 9×9: see OddNeed); the third's targets into III
//     are the transposes of its targets into I (the thesis gives none;
//     digest §8 item 14), the small-to-large ones the same relative
//     position in the ordinary region;
//   - on a region with one odd side (the recursion's (s+1)×s and s×(s+1),
//     which the thesis leaves to "a mapping similar to" it): oddBand;
//   - on 3×3 and the thin rectangles: a message at a position the target
//     quadrant also has keeps it; one on the larger quadrant's extra row
//     or column goes to the target processor that has the fewest sources
//     mapped to it so far, in the order of the diagonals.
//
// Paths are column first, then row; the second mapping's conflicts (the
// east port of III(i,s)) go to the message with farthest to go, which is
// what the k² move's priorities do, so both run with them. The third
// mapping forbids south hops in steps s+1 … 2s: a message with a south
// hop left then takes its row leg first or waits.

// The odd mappings' names (route --variant odd2|odd3).
const (
	VariantOdd2 = "odd2"
	VariantOdd3 = "odd3"
)

// The quadrants of a region, in the order the tables index them.
const (
	quadII  = iota // top left
	quadI          // top right
	quadIII        // bottom left
	quadIV         // bottom right
)

// OddBound is Table 5.1's "Q on arbitrary square" for the mapping:
// ≅ 4.3n data + 1.5n integer steps; the second mapping needs 6 buffers,
// the third 5 (§3.6.3).
func OddBound(variant string) func(n, k int) Bound {
	buf := map[string]int{VariantOdd2: 6, VariantOdd3: 5}[variant]
	return func(n, _ int) Bound {
		f := float64(n)
		return Bound{4.3 * f, 1.5 * f, 5.8 * f, buf, buf,
			fmt.Sprintf("Han 1990 §3.6.3, Table 5.1: Q on an arbitrary square ≅ 4.3n data + 1.5n integer steps; the %s mapping %d buffers", map[string]string{VariantOdd2: "second", VariantOdd3: "third"}[variant], buf)}
	}
}

// OddNeed is the pool the mapping needs on n×n: the thesis's 6 (second)
// or 5 (third), or more where the recursion meets a small odd square:
// fixed targets on a 7×7 or 9×9 region map at least six sources to some
// processor of IV ((2s+1)² sources on s² processors) and an input can
// send all six (s² ≥ 6), so the third mapping needs 6 there (it takes
// the second's table, whose most is 6).
func OddNeed(variant string) func(n, k int) int {
	return func(n, _ int) int {
		need := OddBound(variant)(n, 0).MaxBuffer
		g := grid{rows: []span{{0, n}}, cols: []span{{0, n}}}
		seen := map[[2]int]bool{}
		for wide(g.rows) || wide(g.cols) {
			for _, a := range g.rows {
				for _, b := range g.cols {
					if k := [2]int{a.n, b.n}; !seen[k] {
						seen[k] = true
						need = max(need, newOddMap(a.n, b.n, variant).worst)
					}
				}
			}
			g = grid{rows: halve(g.rows), cols: halve(g.cols)}
		}
		return need
	}
}

// RunOddMapped routes a (partial) permutation with odd Q's second
// (variant odd2) or third (odd3) mapping on an odd n×n mesh.
func RunOddMapped(variant string) func(n, k, buffers int, dests [][]int32, schedule string, log io.Writer) (*Result, error) {
	return func(n, k, buffers int, dests [][]int32, schedule string, log io.Writer) (*Result, error) {
		if msg := Odd1Sides(n, 0); msg != "" {
			return nil, fmt.Errorf("%s", msg)
		}
		return runVariant(AlgQ+"-"+variant, n, buffers, dests, schedule, log, OddBound(variant)(n, k), func(r *router) error { return r.runQOddMapped(n, variant) })
	}
}

// runQOddMapped is the stages: quadrants by halve, the mapping's move,
// smoothing with the most messages the mapping can leave in a processor
// (its worst case, counted from the mapping: the static schedule's b).
func (r *router) runQOddMapped(n int, variant string) error {
	g := grid{rows: []span{{0, n}}, cols: []span{{0, n}}}
	maps := map[[2]int]*oddMap{}
	for wide(g.cols) || wide(g.rows) {
		r.res.Stages = append(r.res.Stages, Stage{Side: max(widest(g.rows), widest(g.cols))})
		r.stage = &r.res.Stages[len(r.res.Stages)-1]
		b, err := r.moveMapped(g, variant, maps)
		if err != nil {
			return err
		}
		g = grid{rows: halve(g.rows), cols: halve(g.cols)}
		if err := r.smoothGrid(g, b); err != nil {
			return err
		}
	}
	return nil
}

// moveMapped is the mapping's move on every region of g; it returns the
// most messages the mappings can leave in one processor.
func (r *router) moveMapped(g grid, variant string, maps map[[2]int]*oddMap) (int, error) {
	m := r.m
	rowBand, colBand := bandOf(g.rows, m.Rows), bandOf(g.cols, m.Cols)
	static, worst := 0, 4
	for _, a := range g.rows {
		for _, b := range g.cols {
			key := [2]int{a.n, b.n}
			if maps[key] == nil {
				maps[key] = newOddMap(a.n, b.n, variant)
			}
			om := maps[key]
			static, worst = max(static, om.claim), max(worst, om.worst)
		}
	}
	var ts []trav
	for id := range int32(len(r.dests)) {
		p, d := m.Loc(id), r.dests[id][0]
		pr, pc := int(p)/m.Cols, int(p)%m.Cols
		a, b := g.rows[rowBand[pr]], g.cols[colBand[pc]]
		om := maps[[2]int{a.n, b.n}]
		ti, tj, ok := om.target(pr-a.start, pc-b.start, int(d)/m.Cols-a.start, int(d)%m.Cols-b.start)
		if !ok {
			continue
		}
		t := trav{id: id, src: id, parent: -1, dv: int32(a.start + ti - pr), dh: int32(b.start + tj - pc)}
		if om.banLo > 0 {
			t.banLo, t.banHi = om.banLo, om.banHi
		}
		ts = append(ts, t)
	}
	m.PhaseStart(r.stage.Side, "move")
	steps, err := r.travelPriority(ts)
	if err != nil {
		return 0, err
	}
	claim := "§3.6.3's longest path n + 2"
	return worst, r.recordClaimedMove(Phase{Phase: "move", Kind: "data", Region: gridName(g), Static: int64(static), Actual: steps, MaxBuffer: m.PhaseHeld()},
		"the "+variant+" mapping's move", claim)
}

// oddMap is a mapping on an R×C region: per source quadrant X, target
// quadrant Y and X's local processor, the local processor in Y.
type oddMap struct {
	h, w  [4]int        // quadrant sizes
	to    [4][4][]int32 // to[X][Y][u·w[X]+v]: Y's local processor (row-major)
	worst int           // the most messages the mapping can leave in a processor
	claim int           // the move's length the thesis claims (⌈R/2⌉ + ⌈C/2⌉, + 1 on an odd region)
	banLo int32         // the third mapping's steps without south hops (0: none)
	banHi int32         //
	load  [4][]int32    // sources mapped to each processor of Y, its own included
	split [2][2]int     // the halves: split[0] rows (top, bottom), split[1] columns (left, right)
	table func(X, Y, u, v int) (int, int, bool)
}

// newOddMap builds the mapping of an R×C region.
func newOddMap(R, C int, variant string) *oddMap {
	om := &oddMap{split: [2][2]int{{R - R/2, R / 2}, {C - C/2, C / 2}}}
	for X := range 4 {
		om.h[X], om.w[X] = om.split[0][X/2], om.split[1][X%2]
	}
	om.claim = om.split[0][0] + om.split[1][0]
	if R%2 == 1 || C%2 == 1 {
		om.claim++
	}
	s := R / 2
	switch {
	case R != C || R%2 == 0:
	case s >= 2 && (variant == VariantOdd2 || s < 5): // (s = 2: our reading, below)
		om.table = func(X, Y, u, v int) (int, int, bool) { return odd2Table(X, Y, u, v, s) }
	case variant == VariantOdd3 && s >= 5:
		om.table = func(X, Y, u, v int) (int, int, bool) { return odd3Table(X, Y, u, v, s) }
		om.banLo, om.banHi = int32(s+1), int32(2*s)
	}
	if R != C && min(R, C) >= 4 {
		om.table = func(X, Y, u, v int) (int, int, bool) { return oddBand(X, Y, u, v, R, C, variant) }
	}
	for Y := range 4 {
		om.build(Y)
	}
	return om
}

// build fills the targets into Y: the table's, or the same position where
// Y has it and the spread order where not; then counts Y's worst load.
func (om *oddMap) build(Y int) {
	nY := om.h[Y] * om.w[Y]
	if nY == 0 { // (a band of one is not split: no message goes there)
		return
	}
	om.load[Y] = make([]int32, nY)
	for i := range om.load[Y] {
		om.load[Y][i] = 1 // (its own message)
	}
	var special [][3]int // X, u, v of the sources the same position does not take
	for X := range 4 {
		if X == Y {
			continue
		}
		om.to[X][Y] = make([]int32, om.h[X]*om.w[X])
		for u := range om.h[X] {
			for v := range om.w[X] {
				i, j, ok := u, v, u < om.h[Y] && v < om.w[Y]
				if om.table != nil {
					i, j, ok = om.table(X, Y, u, v)
				}
				if !ok {
					special = append(special, [3]int{X, u, v})
					continue
				}
				om.to[X][Y][u*om.w[X]+v] = int32(i*om.w[Y] + j)
				om.load[Y][i*om.w[Y]+j]++
			}
		}
	}
	if len(special) > 0 {
		sp := om.newSpread(Y)
		for _, x := range special {
			q := sp.take()
			om.to[x[0]][Y][x[1]*om.w[x[0]]+x[2]] = q
			om.load[Y][q]++
		}
	}
	for _, l := range om.load[Y] {
		om.worst = max(om.worst, min(int(l), nY))
	}
}

// spread takes Y's processors with the fewest sources mapped to them, in
// the order of the diagonals ((k mod h, (k mod h + ⌊k/h⌋) mod w) for k =
// 0, 1, …: distinct rows and columns before any repeats); a processor
// taken goes to the back of the next load's queue.
type spread struct {
	byLoad [][]int32
	lo     int
}

func (om *oddMap) newSpread(Y int) *spread {
	h, w := om.h[Y], om.w[Y]
	sp := &spread{}
	for k := range h * w {
		q := int32((k%h)*w + (k%h+k/h)%w)

		l := int(om.load[Y][q])
		for len(sp.byLoad) <= l+1 {
			sp.byLoad = append(sp.byLoad, nil)
		}
		sp.byLoad[l] = append(sp.byLoad[l], q)
	}
	return sp
}

func (sp *spread) take() int32 {
	for len(sp.byLoad[sp.lo]) == 0 {
		sp.lo++
	}
	q := sp.byLoad[sp.lo][0]
	sp.byLoad[sp.lo] = sp.byLoad[sp.lo][1:]
	if len(sp.byLoad) <= sp.lo+1 {
		sp.byLoad = append(sp.byLoad, nil)
	}
	sp.byLoad[sp.lo+1] = append(sp.byLoad[sp.lo+1], q)
	return q
}

// target is the local processor (in the region) a message at local (i,j)
// bound for local (di,dj) moves to, and false when it stays.
func (om *oddMap) target(i, j, di, dj int) (int, int, bool) {
	top, left := om.split[0][0], om.split[1][0]
	X, Y := b2i(i >= top)*2+b2i(j >= left), b2i(di >= top)*2+b2i(dj >= left)
	if X == Y {
		return 0, 0, false
	}
	u, v := i-b2i(i >= top)*top, j-b2i(j >= left)*left
	q := int(om.to[X][Y][u*om.w[X]+v])
	return q/om.w[Y] + (Y/2)*top, q%om.w[Y] + (Y%2)*left, true
}

// odd2Table is the second mapping on a (2s+1)² region, s ≥ 3 (§3.6.3,
// Figs. 3.16–3.17; digest §3.6.3's table): the special lines are the
// middle row (I's and II's row s) and column (II's and III's column s);
// every other position keeps its local coordinates.
func odd2Table(X, Y, u, v, s int) (int, int, bool) {
	switch {
	case Y == quadII:
		return u, v, true
	case Y == quadI && v == s && X == quadII:
		return u, s - 1, true
	case Y == quadI && v == s: // (III)
		return u, s - 2, true
	case Y == quadIII && X == quadII && u == s && v == s:
		return s - 1, s, true
	case Y == quadIII && X == quadII && u == s:
		return v, s - 1, true
	case Y == quadIII && X == quadI && u == s:
		return s - 1 - v, 0, true
	case Y == quadIV && X == quadI && u == s:
		return s - 1 - v, 0, true
	case Y == quadIV && X == quadII && u == s && v == s:
		return s - 1, s - 1, true
	case Y == quadIV && X == quadII && u == s: // (s = 2: column s − 3 wraps to 1)
		return v, (2*s - 3) % s, true
	case Y == quadIV && X == quadII && v == s:
		return u, s - 2, true
	case Y == quadIV && X == quadIII && v == s:
		return u, s - 1, true
	}
	return u, v, true
}

// odd3Table is the third mapping on a (2s+1)² region, s ≥ 5 (§3.6.3,
// Figs. 3.18–3.19; digest §3.6.3's table): II's ordinary region is its
// bottom-right s×s, I's its top s rows, III's its left s columns towards
// IV and its right s towards I; the targets into III are the transposes of
// those into I, the small-to-large ones the ordinary region's.
func odd3Table(X, Y, u, v, s int) (int, int, bool) {
	switch {
	case Y == quadI && X == quadII && v == s:
		return u, s - 1, true
	case Y == quadI && X == quadIII && v == 0:
		return u, 0, true
	case Y == quadI && X == quadIII:
		return u, v - 1, true
	case Y == quadIII && X == quadII && u == s:
		return s - 1, v, true
	case Y == quadIII && X == quadI && u == 0:
		return 0, v, true
	case Y == quadIII && X == quadI:
		return u - 1, v, true
	case Y == quadIV && X == quadIII && v == s:
		return u, s - 1, true
	case Y == quadIV && X == quadI && u == s:
		return s - 1, v, true
	case Y == quadIV && X == quadI && u == s-1 && v == s-1:
		return s - 2, s - 2, true
	case Y == quadIV && X == quadII:
		return odd3IntoIV(u, v, s)
	}
	return u, v, true // (I, II, III, IV into a quadrant that has the position)
}

// odd3IntoIV is the third mapping from II into IV: (i−1, j−1) but for
// the top row, the left column and four exceptions.
func odd3IntoIV(u, v, s int) (int, int, bool) {
	switch [2]int{u, v} {
	case [2]int{1, 1}, [2]int{2, 1}, [2]int{0, 0}, [2]int{1, 0}:
		return u, v, true
	case [2]int{s, 1}:
		return s - 2, 1, true
	case [2]int{1, s}:
		return 1, s - 2, true
	}
	switch {
	case u == 0:
		return 0, v - 1, true
	case v == 0:
		return u - 1, 0, true
	}
	return u - 1, v - 1, true
}

// oddBand is the mappings' rule on a region with one odd side (R even,
// C = 2b+1; an odd R is the transpose), both sides at least 4: the left
// quadrants' extra column (their last, the middle one) goes, as in the
// second mapping, to the target's last column from one of II and III and
// its last but one from the other; in the third, to the target's first
// column from II and its last from III (into IV; into I the reverse),
// the ordinary positions shifted as the third mapping shifts them. No
// processor gets two.
func oddBand(X, Y, u, v, R, C int, variant string) (int, int, bool) {
	if R%2 == 1 {
		tr := [4]int{quadII, quadIII, quadI, quadIV}
		i, j, ok := oddBand(tr[X], tr[Y], v, u, C, R, variant)
		return j, i, ok
	}
	b := C / 2
	if variant == VariantOdd2 {
		switch {
		case v < b || Y == quadII || Y == quadIII:
			return u, v, true
		case Y == quadIV && X == quadIII, Y == quadI && X == quadII:
			return u, b - 1, true
		}
		return u, b - 2, true
	}
	switch {
	case Y == quadIV && X == quadII && v > 0, Y == quadI && X == quadIII && v > 0:
		return u, v - 1, true
	case Y == quadIV && X == quadIII && v == b, Y == quadI && X == quadII && v == b:
		return u, b - 1, true
	}
	return u, v, true
}
