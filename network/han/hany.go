package han

import (
	"fmt"
	"slices"
	"strings"
)

// H on any R×C mesh (§4.6.4, §4.6.5; digest 002 §3.9.4–3.9.5): every
// region is halved along its columns, the left half the larger
// (⌈C/2⌉), then along its rows, the top half the larger. A message moves
// to the same relative position in the other half; from the larger half's
// extra column (row) it goes to the smaller half's last one, so that the
// smaller half's outer column holds at most two messages during the move
// (no transients pass it) and three after. Smoothing is H's (two buffers'
// worth), on regions of every size at once; regions of one column are
// delivered directly.

// runHAny is Algorithm H on a rows×cols mesh of any sides (rows ≥ cols).
func (r *router) runHAny(rows, cols int) error {
	g := grid{rows: []span{{0, rows}}, cols: []span{{0, cols}}}
	for wide(g.cols) {
		r.res.Stages = append(r.res.Stages, Stage{Side: widest(g.cols)})
		r.stage = &r.res.Stages[len(r.res.Stages)-1]
		if err := r.moveHalves(g, false); err != nil {
			return err
		}
		b := held(g.cols)
		g.cols = halve(g.cols)
		if err := r.smoothGrid(g, b); err != nil {
			return err
		}
		if wide(g.rows) {
			if err := r.moveHalves(g, true); err != nil {
				return err
			}
			b := held(g.rows)
			g.rows = halve(g.rows)
			if err := r.smoothGrid(g, b); err != nil {
				return err
			}
		}
	}
	if wide(g.rows) {
		return r.deliver(widest(g.rows))
	}
	return nil
}

// held is the most messages a processor holds after a move into the
// halves of bands bs: 2, or 3 where an odd band's extra line went to the
// smaller half's last (its smoothing's worst cases are Thm 2.1's and
// 2.3's with b = 3: the thesis's "unchanged" does not hold on 3-row
// regions, where column movement can take 2 steps against b = 2's 1).
func held(bs []span) int {
	for _, b := range bs {
		if b.n%2 == 1 && b.n > 1 {
			return 3
		}
	}
	return 2
}

func wide(bs []span) bool { return widest(bs) >= 2 }

func widest(bs []span) int {
	w := 0
	for _, b := range bs {
		w = max(w, b.n)
	}
	return w
}

// halve splits every band of two or more into ⌈n/2⌉ and ⌊n/2⌋.
func halve(bs []span) []span {
	var out []span
	for _, b := range bs {
		if b.n < 2 {
			out = append(out, b)
			continue
		}
		l := b.n - b.n/2
		out = append(out, span{b.start, l}, span{b.start + l, b.n / 2})
	}
	return out
}

// moveHalves is the move into the halves of g's regions, split along
// their columns (with vertical: their rows): every message whose destination lies in the
// other half goes along its row (column), contention-free, ⌈n/2⌉ steps at most.
func (r *router) moveHalves(g grid, vertical bool) error {
	m, old := r.m, g.cols
	if vertical {
		old = g.rows
	}
	band := make([]int32, max(m.Rows, m.Cols)) // per row or column: its band in old
	for i, b := range old {
		for x := b.start; x < b.start+b.n; x++ {
			band[x] = int32(i)
		}
	}
	line := func(p int32) int {
		if vertical {
			return int(p) / m.Cols
		}
		return int(p) % m.Cols
	}
	if cap(r.travs) < len(r.dests) { // (a traveller a message at most; append's growth would copy it over and over)
		r.travs = make([]trav, 0, len(r.dests))
	}
	ts := r.travs[:0] // (reused: moveAll hands it back)
	static := 0
	for id := range int32(len(r.dests)) {
		at := line(m.Loc(id))
		b := old[band[at]]
		l := b.n - b.n/2
		static = max(static, l)
		i := at - b.start
		hops := -l
		if i < l {
			hops = l
			if i >= b.n-l {
				hops = b.n - l // (the larger half's extra line: to the smaller's last)
			}
		}
		t := trav{id: id, src: id, parent: -1}
		if ds := r.dests[id]; len(ds) == 1 { // (a permutation's message: no copies, no new lists)
			if (line(ds[0])-b.start < l) == (i < l) {
				continue
			}
		} else if t = r.splitCopy(id, func(d int32) bool { return (line(d)-b.start < l) != (i < l) }); t.src < 0 {
			continue
		}
		if vertical {
			t.dv = int32(hops)
		} else {
			t.dh = int32(hops)
		}
		ts = append(ts, t)
	}
	// (In the order of their processors, as move does, when a path needs it.)
	return r.moveAll(ts, gridName(g), int64(static), false)
}

// gridName is a grid's regions for a phase's region field: every
// distinct size, in the order the regions first show it (each side's
// distinct bands, rows before columns: a grid of 512×512 regions names
// one size).
func gridName(g grid) string {
	var ns []string
	for _, a := range distinctBands(g.rows) {
		for _, b := range distinctBands(g.cols) {
			ns = append(ns, fmt.Sprintf("%dx%d", a, b))
		}
	}
	return strings.Join(ns, "/")
}

// distinctBands is the bands' sizes, each once, in order of appearance.
func distinctBands(bs []span) []int {
	var out []int
	for _, b := range bs {
		if !slices.Contains(out, b.n) {
			out = append(out, b.n)
		}
	}
	return out
}

// splitCopy splits a restricted broadcast's message id by the
// destinations the other half holds (other): none, no traveller (src −1);
// all, the message itself travels; some, a copy carrying them travels and
// the message keeps the rest (§4.5: one travelling copy a processor).
func (r *router) splitCopy(id int32, other func(int32) bool) trav {
	var here, there []int32
	for _, d := range r.dests[id] {
		if other(d) {
			there = append(there, d)
		} else {
			here = append(here, d)
		}
	}
	switch {
	case len(there) == 0:
		return trav{src: -1}
	case len(here) == 0:
		return trav{id: id, src: id, parent: -1}
	}
	r.dests[id] = here
	return trav{id: -1, src: id, parent: -1, copy: true, dests: there}
}
