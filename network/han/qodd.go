package han

import (
	"fmt"
	"io"
)

// Q on an odd square (§3.6.3, digest 002 §3.6.3), the first mapping: a
// (2s+1)² region is split into II = (s+1)² (top left), I = (s+1)×s, III =
// s×(s+1) and IV = s². Each quadrant's bottom-right s×s part is its
// ordinary region; the larger quadrants' top row and left column (the
// region's) are special. An ordinary message goes to the same relative
// position in the target quadrant's ordinary region; a special-row message
// to the target's top row (its column as an ordinary one's), a special-
// column message to its left column, the corner to its corner. Messages of
// the region's top row take their row leg first, the rest their column
// leg. Their paths are not all disjoint (a special column's message
// crosses the turning row legs from III to I one step late), so the move
// runs with the k² move's priorities (straight first, then farthest to
// go). The top-left processor of IV gathers up to 9 messages, the rest of
// its top row 6. Later stages split the (s+1)- and s-sided bands the same
// way (the thesis leaves them to "a mapping similar to" it; a band of one
// is not split).

// VariantOdd1 names odd Q's first mapping (route --variant odd1).
const VariantOdd1 = "odd1"

// Odd1Sides says whether odd Q's first mapping runs on n×n.
func Odd1Sides(n, _ int) string {
	if n < 3 || n%2 == 0 || n > MaxSide(AlgQ) {
		return fmt.Sprintf("topology.k=%d: Q's odd mappings need an odd side from 3 to %d", n, MaxSide(AlgQ)-1)
	}
	return ""
}

// Odd1Bound is Table 5.1's "Q on arbitrary square": ≅ 4.3n data + 1.5n
// integer steps; the first mapping needs 9 buffers (§3.6.3).
func Odd1Bound(n, _ int) Bound {
	f := float64(n)
	return Bound{4.3 * f, 1.5 * f, 5.8 * f, 9, 9, "Han 1990 §3.6.3, Table 5.1: Q on an arbitrary square ≅ 4.3n data + 1.5n integer steps; the first mapping 9 buffers"}
}

// RunOdd1 routes a (partial) permutation with odd Q's first mapping.
func RunOdd1(n, _, buffers int, dests [][]int32, schedule string, log io.Writer) (*Result, error) {
	if msg := Odd1Sides(n, 0); msg != "" {
		return nil, fmt.Errorf("%s", msg)
	}
	return runVariant(AlgQ+"-"+VariantOdd1, n, buffers, dests, schedule, log, Odd1Bound(n, 0), func(r *router) error { return r.runQOdd1(n) })
}

// runQOdd1 is the stages: quadrants by halve (the top and left the
// larger), the first mapping's move, smoothing with the worst occupancy
// after it (b = 9 in rows and columns that hold a special target, else 4:
// the static schedule takes b = 9 where a band was odd).
func (r *router) runQOdd1(n int) error {
	g := grid{rows: []span{{0, n}}, cols: []span{{0, n}}}
	for wide(g.cols) || wide(g.rows) {
		r.res.Stages = append(r.res.Stages, Stage{Side: max(widest(g.rows), widest(g.cols))})
		r.stage = &r.res.Stages[len(r.res.Stages)-1]
		if err := r.moveOdd1(g); err != nil {
			return err
		}
		b := 4
		if held(g.rows) == 3 || held(g.cols) == 3 {
			b = 9
		}
		g = grid{rows: halve(g.rows), cols: halve(g.cols)}
		if err := r.smoothGrid(g, b); err != nil {
			return err
		}
	}
	return nil
}

// odd1Target is the first mapping along one axis: a message at x bound
// for y, in band b, goes to this line; rowFirst-style flags say whether x
// is the band's special line (the larger half's first, b odd).
func odd1Target(b span, x, y int) (int, bool) {
	if b.n < 2 {
		return x, false
	}
	top, fl := b.n-b.n/2, b.n/2
	half := func(z int) (int, int) { // its half's start and size
		if z-b.start < top {
			return b.start, top
		}
		return b.start + top, fl
	}
	hs, hn := half(x)
	ts, tn := half(y)
	i := x - hs - (hn - fl) // (its ordinary coordinate; < 0: special)
	if i < 0 {
		return ts, true
	}
	return ts + i + (tn - fl), false
}

// moveOdd1 is the first mapping's move on every region of g.
func (r *router) moveOdd1(g grid) error {
	m := r.m
	rowBand, colBand := bandOf(g.rows, m.Rows), bandOf(g.cols, m.Cols)
	var ts []trav
	static := 0
	for _, a := range g.rows {
		for _, b := range g.cols {
			static = max(static, a.n-a.n/2+b.n-b.n/2)
		}
	}
	for id := range int32(len(r.dests)) {
		p, d := m.Loc(id), r.dests[id][0]
		pr, pc, dr, dc := int(p)/m.Cols, int(p)%m.Cols, int(d)/m.Cols, int(d)%m.Cols
		a, b := g.rows[rowBand[pr]], g.cols[colBand[pc]]
		tr, specialRow := odd1Target(a, pr, dr)
		tc, _ := odd1Target(b, pc, dc)
		if tr == pr && tc == pc {
			continue
		}
		ts = append(ts, trav{id: id, src: id, parent: -1, dv: int32(tr - pr), dh: int32(tc - pc), rowFirst: specialRow})
	}
	m.PhaseStart(r.stage.Side, "move")
	steps, err := r.travelPriority(ts)
	if err != nil {
		return err
	}
	return r.recordClaimedMove(Phase{Phase: "move", Kind: "data", Region: gridName(g), Static: int64(static), Actual: steps, MaxBuffer: m.PhaseHeld()},
		"the first mapping's move", "§3.6.3's longest path n + 1")
}

// bandOf is, per line 0 … n−1, the index of its band in bs.
func bandOf(bs []span, n int) []int32 {
	out := make([]int32, n)
	for i, b := range bs {
		for x := b.start; x < b.start+b.n; x++ {
			out[x] = int32(i)
		}
	}
	return out
}

// Odd1Corner is §3.6.3's nine messages for IV's top-left processor on a
// (2s+1)² mesh: four ordinary ones (I(1,0), II(1,1), III(0,1) and IV's
// own), I's and III's top-left special ones and II's special corner (0,0),
// (0,1) and (1,0), each bound for a distinct processor of IV.
func Odd1Corner(s int) []int32 {
	n := 2*s + 1
	dest := make([]int32, n*n)
	for i := range dest {
		dest[i] = -1
	}
	src := [][2]int{{1, s + 1}, {1, 1}, {s + 1, 1}, {s + 1, s + 1}, {0, s + 1}, {s + 1, 0}, {0, 0}, {0, 1}, {1, 0}}
	for k, p := range src {
		dest[p[0]*n+p[1]] = int32((s+1+k/s)*n + s + 1 + k%s)
	}
	return dest
}
