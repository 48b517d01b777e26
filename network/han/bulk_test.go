package han

import (
	"cmp"
	"reflect"
	"slices"
	"testing"
)

// travelBulk leaves the machine exactly as the step-by-step travel does:
// the same pools in the same order, places, step counts and maxima, on
// moves of Q (one and two legs), H's halves (odd sides: two messages at a
// processor) and greedy's row phase (arrivals piling up, in order).
func TestBulkTravelMatchesSteps(t *testing.T) {
	type mk = bulkMaker
	qMove := func(n int) mk {
		return func(r *router) []trav {
			var ts []trav
			for id := range int32(len(r.dests)) {
				ts = r.plan(ts, id, n, n, n/2, n/2)
			}
			r.sortBySource(ts)
			return ts
		}
	}
	rowPhase := func(n int) mk {
		return func(r *router) []trav {
			var ts []trav
			for id, ds := range r.dests {
				if dh := ds[0]%int32(n) - r.m.Loc(int32(id))%int32(n); dh != 0 {
					ts = append(ts, trav{id: int32(id), src: int32(id), parent: -1, dh: dh})
				}
			}
			return ts
		}
	}
	halves := func(r *router) []trav { // (moveHalves' travellers, built as it does)
		for row := range int32(4) { // (a second message at (row, 1), staying in the left half)
			if _, err := r.m.Load(row*9 + 1); err != nil {
				t.Fatal(err)
			}
			r.dests = append(r.dests, []int32{row*9 + 2})
		}
		var ts []trav
		for id := range int32(len(r.dests)) {
			c := r.m.Loc(id) % int32(r.m.Cols)
			if c < 5 && r.dests[id][0]%int32(r.m.Cols) >= 5 {
				ts = append(ts, trav{id: id, src: id, parent: -1, dh: 5 - c/4}) // (column 4, the extra: to the last, 8)
			}
		}
		r.sortBySource(ts)
		return ts
	}
	straightHalves := func(n int, vertical bool, extra int) mk { return straightHalvesMaker(t, n, vertical, extra) }
	for _, c := range []bulkCase{
		{"H halves rows random 16", 16, 16, 3, "random", straightHalves(16, false, 0)},
		{"H halves columns random 64", 64, 64, 3, "random", straightHalves(64, true, 0)},
		{"H halves columns rot180 16", 16, 16, 3, "rot180", straightHalves(16, true, 0)},
		{"H halves rows 2 a processor (declined: a link twice)", 16, 16, 4, "random", straightHalves(16, false, 3)},
		{"greedy row transpose 16 (declined: 5 at step 2)", 16, 16, 4, "transpose", rowPhase(16)},
		{"Q move random 16", 16, 16, 5, "random", qMove(16)},
		{"Q move transpose 16", 16, 16, 5, "transpose", qMove(16)},
		{"greedy row transpose 16", 16, 16, 16, "transpose", rowPhase(16)},
		{"greedy row random 32", 32, 32, 32, "random", rowPhase(32)},
		{"H halves 9×9 two a processor", 9, 9, 3, "stacked", halves},
		{"Q move overfull (declined: Fig. 3.3)", 8, 8, 4, "fig33", qMove(8)},
	} {
		checkBulkCase(t, c, true)
	}
	// moveHalves leaves its travellers unsorted (a straight phase does not
	// need the order; the step path sorts them first): here in reverse.
	for _, c := range []bulkCase{
		{"H halves columns random 32, unsorted", 32, 32, 3, "random", reversed(straightHalves(32, true, 0))},
		{"H halves rows 2 a processor, unsorted (declined: a link twice)", 16, 16, 4, "random", reversed(straightHalves(16, false, 3))},
	} {
		checkBulkCase(t, c, false)
	}
}

// straightHalvesMaker makes H's halves along rows or columns (straightBulk), from the tiling
// moveHalves uses; extra adds a second message at (i, 1) for the
// first rows, bound for column (or row) n−1: two travellers leave one
// processor in one direction (the step must be refused).
func straightHalvesMaker(t *testing.T, n int, vertical bool, extra int) bulkMaker {
	return func(r *router) []trav {
		for i := range int32(extra) {
			if _, err := r.m.Load(i*int32(n) + 1); err != nil {
				t.Fatal(err)
			}
			r.dests = append(r.dests, []int32{i*int32(n) + int32(n) - 1})
		}
		line := func(p int32) int32 { return p % int32(n) }
		if vertical {
			line = func(p int32) int32 { return p / int32(n) }
		}
		var ts []trav
		for id := range int32(len(r.dests)) {
			at, to, l := line(r.m.Loc(id)), line(r.dests[id][0]), int32(n-n/2)
			if (at < l) == (to < l) {
				continue
			}
			hops := l
			if at >= l {
				hops = -l
			}
			tr := trav{id: id, src: id, parent: -1, dh: hops}
			if vertical {
				tr.dh, tr.dv = 0, hops
			}
			ts = append(ts, tr)
		}
		r.sortBySource(ts)
		return ts
	}
}

// reversed is mk's travellers in reverse order.
func reversed(mk bulkMaker) bulkMaker {
	return func(r *router) []trav {
		ts := mk(r)
		slices.Reverse(ts)
		return ts
	}
}

// A bulkMaker builds a move's travellers on a fresh router.
type bulkMaker func(r *router) []trav

// bulkCase is one of TestBulkTravelMatchesSteps's moves.
type bulkCase struct {
	name       string
	rows, cols int
	buffers    int
	perm       string
	make       bulkMaker
}

// checkBulkCase runs c's move in bulk and step by step and compares the
// machines (buffers 4: the move must be refused the same way); sorted
// says whether c's travellers are in sortBySource's order.
func checkBulkCase(t *testing.T, c bulkCase, sorted bool) {
	t.Helper()
	var ms [2]*Machine
	var tss [2][]trav
	var errs [2]error
	for k := range 2 {
		dests, err := bulkInput(c.perm, c.rows, c.cols)
		if err != nil {
			t.Fatal(err)
		}
		r, err := newRouter(c.rows, c.cols, c.buffers, dests, Actual)
		if err != nil {
			t.Fatal(err)
		}
		if k == 1 {
			r.onStep = func() {} // (step by step)
		}
		ts := c.make(r)
		straight := straightTravs(ts)
		_, errs[k] = r.travel(ts, sorted)
		slices.SortStableFunc(ts, func(a, b trav) int { return cmp.Compare(a.id, b.id) }) // (to compare them)
		ms[k], tss[k] = r.m, ts
		if k == 0 && straight != (r.straight.Runs > 0) {
			t.Errorf("%s: straight legs %v, straightBulk ran %d times", c.name, straight, r.straight.Runs)
		}
	}
	a, b := ms[0], ms[1]
	if (errs[0] == nil) != (errs[1] == nil) || errs[0] != nil && errs[0].Error() != errs[1].Error() {
		t.Errorf("%s: errors %v and %v", c.name, errs[0], errs[1])
		return
	}
	if errs[0] != nil {
		if c.buffers != 4 {
			t.Errorf("%s: %v", c.name, errs[0])
		}
		return
	}
	if c.buffers == 4 {
		t.Errorf("%s: not refused", c.name)
	}
	if !samePools(a, b) || !reflect.DeepEqual(a.cnt, b.cnt) || !reflect.DeepEqual(a.loc, b.loc) ||
		a.steps != b.steps || a.DataSteps != b.DataSteps || a.maxHeld != b.maxHeld || a.phaseHeld != b.phaseHeld {
		t.Errorf("%s: bulk and step-by-step machines differ (steps %d/%d, held %d/%d)", c.name, a.steps, b.steps, a.maxHeld, b.maxHeld)
	}
	if !reflect.DeepEqual(tss[0], tss[1]) {
		t.Errorf("%s: travellers differ", c.name)
	}
}

// bulkInput is a permutation's destination lists ("stacked": a random
// one, to which halves adds second messages; "fig33": Fig. 3.3's five).
func bulkInput(name string, rows, cols int) ([][]int32, error) {
	if name == "fig33" { // (five messages meet at (2,2) after step 2)
		d := make([]int32, 64)
		for i := range d {
			d[i] = -1
		}
		for src, to := range map[int]int32{2*8 + 2: 9, 2: 45, 4*8 + 2: 27, 2 * 8: 7, 2*8 + 4: 0} {
			d[src] = to
		}
		return Lists(d), nil
	}
	if name != "stacked" {
		p, err := PermutationMesh(name, rows, cols, 7)
		return Lists(p), err
	}
	p, err := PermutationMesh("random", rows, cols, 9)
	return Lists(p), err
}

// samePools compares every processor's pool, in order (the slots past a
// pool's count are stale).
func samePools(a, b *Machine) bool {
	for p := range int32(a.Processors()) {
		if !reflect.DeepEqual(a.Pool(p), b.Pool(p)) {
			return false
		}
	}
	return true
}

// straightTravs says whether every traveller has one leg, all along rows
// or all along columns (straightBulk's phases).
func straightTravs(ts []trav) bool {
	for _, x := range ts {
		if (x.dv == 0) == (x.dh == 0) || (x.dv == 0) != (ts[0].dv == 0) {
			return false
		}
	}
	return len(ts) > 0
}
