package han

import (
	"cmp"
	"fmt"
	"slices"
)

// move is a move step on every R×C region split into subregions of sh×sw
// (Q: four quadrants; H: two halves): every message outside the subregion
// of a destination it carries sends a copy to the same relative position in
// that subregion, carrying the destinations there (§3.5, §4.5: restricted
// broadcasting; a permutation's message simply moves). Paths go along the
// column first, then the row, one hop a step from step 1; one column copy
// serves both lower subregions and is copied again where it turns, at step
// s/2 + 1 (Thm 3.1, 3.4, 4.1, 4.6: contention-free; the machine refuses the
// step otherwise).
func (r *router) move(R, C, sh, sw int, static int64) error {
	ts := r.travs[:0] // (reused: moveAll hands it back)
	for id := range int32(len(r.dests)) {
		ts = r.plan(ts, id, R, C, sh, sw)
	}
	// In the order of their processors, so that a step walks the machine's
	// arrays forwards (several times faster on big meshes); travellers that
	// copy another's message name it by index, so those keep their order.
	if !slices.ContainsFunc(ts, func(t trav) bool { return t.parent >= 0 }) {
		r.sortBySource(ts)
	}
	return r.moveAll(ts, fmt.Sprintf("%dx%d", R, C), static, true)
}

// moveAll runs a move phase of travellers ts on the machine and records it
// as region's, with its static (worst-case) length; unless sorted, ts are
// put in sortBySource's order when a path needs it.
func (r *router) moveAll(ts []trav, region string, static int64, sorted bool) error {
	m := r.m
	m.PhaseStart(r.stage.Side, "move")
	steps, err := r.travel(ts, sorted)
	clear(ts) // (its destination lists, before the next move reuses it)
	r.travs = ts[:0]
	if err != nil {
		return err
	}
	r.res.MaxBufferAfterMove = max(r.res.MaxBufferAfterMove, m.Held())
	return r.record(Phase{Phase: "move", Kind: "data", Region: region, Static: static, Actual: steps, MaxBuffer: m.PhaseHeld()})
}

// trav is a message (or a copy to be made) on a fixed path.
type trav struct {
	id     int32   // the message travelling; −1 until its first hop
	src    int32   // the message its first hop sends (a copy when copy is set)
	parent int32   // or, when ≥ 0, the traveller whose message its first hop copies
	copy   bool    // its first hop copies the source, which stays
	wait   int32   // steps before its first hop
	dv, dh int32   // hops still to go: south (+) or north (−), east (+) or west (−)
	dests  []int32 // the destinations it carries at arrival (nil: unchanged)
	// rowFirst takes the row leg before the column leg (odd Q's first
	// mapping, for the messages of a region's top row).
	rowFirst bool
	from     int32 // (sortBySource's key: the processor holding src)
	// banLo … banHi are steps without south hops (odd Q's third mapping;
	// 0: none): a message with one left takes its row leg or waits.
	banLo, banHi int32
}

// sortBySource sorts travellers by the processor holding their source
// message, so that a step walks the machine's arrays forwards (several
// times faster on big meshes). When no two travellers leave one processor
// (H and Q after smoothing) the order is the processors' and a pass over
// them places each (no comparisons); otherwise the keys are looked up once
// and the sort compares them as it compared the lookups, so the order is
// the same either way.
func (r *router) sortBySource(ts []trav) {
	m := r.m
	if len(r.keyAt) < m.Processors() {
		r.keyAt = make([]int32, m.Processors())
		for i := range r.keyAt {
			r.keyAt[i] = -1
		}
	}
	unique := true
	for i := range ts {
		ts[i].from = m.Loc(ts[i].src)
		if unique && r.keyAt[ts[i].from] >= 0 {
			unique = false
		}
		if unique {
			r.keyAt[ts[i].from] = int32(i)
		}
	}
	if !unique {
		for i := range ts {
			r.keyAt[ts[i].from] = -1
		}
		slices.SortFunc(ts, func(a, b trav) int { return cmp.Compare(a.from, b.from) })
		return
	}
	sorted := r.travs2[:0]
	for p, i := range r.keyAt[:m.Processors()] {
		if i >= 0 {
			sorted = append(sorted, ts[i])
			r.keyAt[p] = -1
		}
	}
	copy(ts, sorted)
	clear(sorted)
	r.travs2 = sorted[:0]
}

// plan appends message id's travellers for a move on R×C regions split
// into sh×sw subregions.
func (r *router) plan(ts []trav, id int32, R, C, sh, sw int) []trav {
	m := r.m
	p := m.Loc(id)
	pr, pc := int(p)/m.Cols, int(p)%m.Cols
	R0, C0 := pr/R*R, pc/C*C
	sr, sc := (pr-R0)/sh, (pc-C0)/sw
	var g [2][2][]int32 // by (other subregion row, other subregion column)
	var dv, dh int32
	for _, d := range r.dests[id] {
		dsr, dsc := (int(d)/m.Cols-R0)/sh, (int(d)%m.Cols-C0)/sw
		a, b := b2i(dsr != sr), b2i(dsc != sc)
		if a == 1 {
			dv = int32((dsr - sr) * sh)
		}
		if b == 1 {
			dh = int32((dsc - sc) * sw)
		}
		if len(r.dests[id]) == 1 { // (a permutation's message: no copies, no new lists)
			if a+b > 0 {
				ts = append(ts, trav{id: id, src: id, parent: -1, dv: dv, dh: dh})
			}
			return ts
		}
		g[a][b] = append(g[a][b], d)
	}
	first := len(ts)
	if len(g[0][1]) > 0 {
		ts = append(ts, trav{id: -1, src: id, parent: -1, copy: true, dh: dh, dests: g[0][1]})
	}
	switch {
	case len(g[1][0]) > 0:
		ts = append(ts, trav{id: -1, src: id, parent: -1, copy: true, dv: dv, dests: g[1][0]})
		if len(g[1][1]) > 0 {
			ts = append(ts, trav{id: -1, parent: int32(len(ts) - 1), copy: true, wait: abs32(dv), dh: dh, dests: g[1][1]})
		}
	case len(g[1][1]) > 0:
		ts = append(ts, trav{id: -1, src: id, parent: -1, copy: true, dv: dv, dh: dh, dests: g[1][1]})
	}
	if len(g[0][0]) > 0 {
		r.dests[id] = g[0][0]
	} else if first < len(ts) {
		ts[first].copy = false // (nothing stays: the message itself goes)
	}
	return ts
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// travel moves every traveller one hop a step once its wait is over, until
// all have arrived, and returns the steps taken. A copy's first hop makes
// a new message; every arrival leaves the destinations it carried. Unless
// sorted, ts are put in sortBySource's order first, but for a straight
// phase (travelBulk).
func (r *router) travel(ts []trav, sorted bool) (int64, error) {
	if steps, ok := r.travelBulk(ts, sorted); ok {
		return steps, nil
	}
	if !sorted {
		r.sortBySource(ts)
		if steps, ok := r.travelBulk(ts, true); ok {
			return steps, nil
		}
	}
	m := r.m
	live := r.live[:0]
	for i := range ts {
		live = append(live, int32(i))
	}
	var steps int64
	moves, who := r.moves[:0], r.who[:0] // who: per move, its traveller
	defer func() { r.live, r.moves, r.who = live[:0], moves[:0], who[:0] }()
	for len(live) > 0 {
		steps++
		moves, who = moves[:0], who[:0]
		for _, i := range live {
			t := &ts[i]
			if int64(t.wait) >= steps {
				continue
			}
			mv := Move{Msg: t.id}
			if t.id < 0 {
				mv.Msg, mv.Copy = t.src, t.copy
				if t.parent >= 0 {
					mv.Msg = ts[t.parent].id
				}
			}
			mv.From = m.Loc(mv.Msg)
			switch {
			case t.rowFirst && t.dh > 0:
				mv.Dir, t.dh = East, t.dh-1
			case t.rowFirst && t.dh < 0:
				mv.Dir, t.dh = West, t.dh+1
			case t.dv > 0:
				mv.Dir, t.dv = South, t.dv-1
			case t.dv < 0:
				mv.Dir, t.dv = North, t.dv+1
			case t.dh > 0:
				mv.Dir, t.dh = East, t.dh-1
			default:
				mv.Dir, t.dh = West, t.dh+1
			}
			moves, who = append(moves, mv), append(who, i)
		}
		if err := r.data(moves); err != nil {
			return steps, err
		}
		if err := r.arrive(ts, moves, who); err != nil {
			return steps, err
		}
		if r.onStep != nil {
			r.onStep()
		}
		k := 0 // (the arrived drop out, in order)
		for _, i := range live {
			if t := &ts[i]; t.id < 0 || t.dv != 0 || t.dh != 0 {
				live[k] = i
				k++
			}
		}
		live = live[:k]
	}
	return steps, nil
}

// arrive names the messages the step's first hops sent and leaves their
// destination lists with the messages that arrived.
func (r *router) arrive(ts []trav, moves []Move, who []int32) error {
	for k, mv := range moves {
		t := &ts[who[k]]
		if t.id < 0 {
			t.id = mv.Msg
			if mv.Copy { // (the ILLIAC model makes a step's copies direction by direction)
				t.id = mv.New
				for int(mv.New) >= len(r.dests) {
					r.dests = append(r.dests, nil)
				}
			}
		}
		if t.dv == 0 && t.dh == 0 && t.dests != nil {
			r.dests[t.id] = t.dests
		}
	}
	return nil
}
