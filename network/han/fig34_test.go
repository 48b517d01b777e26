package han

import (
	"slices"
	"testing"
)

// Figs. 3.4, 3.6 and 3.7 (digest 002 §5.1 item 4): the upper half of an
// 8×8 region (q = 8) counted and row-moved on the machine. The text states
// only some numbers; the initial counts below are one configuration that
// has them (row 0: 12 messages, (0,3) holding 2 with 3 to its west and 7 to
// its east; row 1: 21, (1,2) holding 3 with 7 west and 11 east; row 2: 4;
// row 3 and the bottom half empty). Every figure checked is what the
// processors sent, received and held.
func TestFig34CountingAndRowMovement(t *testing.T) {
	initial := [][]int{
		{1, 1, 1, 2, 2, 2, 2, 1},
		{4, 3, 3, 3, 2, 2, 2, 2},
		{4, 0, 0, 0, 0, 0, 0, 0},
	}
	r, err := newRouter(8, 8, 5, nil, Actual)
	if err != nil {
		t.Fatal(err)
	}
	for i, row := range initial {
		for j, k := range row {
			for range k {
				if _, err := r.m.Load(at(i, j)); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	type sent struct {
		from, to int32
		value    int64
	}
	var south []sent // the column wave's integers
	var intoWest13 int
	r.m.Log = func(kind string, moves []Move, sends []IntSend) {
		for _, s := range sends {
			if s.Dir == South {
				south = append(south, sent{s.From, r.m.Neighbour(s.From, s.Dir), s.Value})
			}
		}
		for _, mv := range moves {
			if mv.From == at(1, 2) && mv.Dir == East {
				intoWest13++
			}
		}
	}
	if err := r.count(8, 8); err != nil {
		t.Fatal(err)
	}
	k := r.cnt
	// Fig. 3.4: (0,3) computes its row's 12 from W = 3, Z = 2, E = 7;
	// (1,2) its row's 21 from W = 7, Z = 3, E = 11, with N = 12.
	for _, c := range []struct {
		p                     int32
		z, w, e, total, above int32
	}{{at(0, 3), 2, 3, 7, 12, 0}, {at(1, 2), 3, 7, 11, 21, 12}} {
		if got := [5]int32{k[c.p].z, k[c.p].w, k[c.p].e, k[c.p].total, k[c.p].above}; got != [5]int32{c.z, c.w, c.e, c.total, c.above} {
			t.Errorf("processor %d: Z, W, E, total, N = %v, want %v", c.p, got, [5]int32{c.z, c.w, c.e, c.total, c.above})
		}
	}
	// (0,3) passes 12 south; (1,2) passes S₁ = 33; row 2's processors pass S₂ = 37.
	for _, want := range []sent{{at(0, 3), at(1, 3), 12}, {at(1, 2), at(2, 2), 33}, {at(2, 5), at(3, 5), 37}} {
		if !slices.Contains(south, want) {
			t.Errorf("no integer %d from %d to %d in the column wave %v", want.value, want.from, want.to, south)
		}
	}
	if len(south) != 3*8 || r.cnt[at(3, 0)].above != 37 {
		t.Errorf("%d integers south (want 24, three rows of 8); row 3 knows %d above it, want 37", len(south), r.cnt[at(3, 0)].above)
	}
	if _, err := r.rowMove(8, 8); err != nil {
		t.Fatal(err)
	}
	// Fig. 3.7: the final row counts; the extras of row 1 at columns 4–7
	// and 0, of row 2 from column 1; columns 0–4 of rows 0–2 hold 5, 5–7 hold 4.
	want := [][]int{{2, 2, 2, 2, 1, 1, 1, 1}, {3, 2, 2, 2, 3, 3, 3, 3}, {0, 1, 1, 1, 1, 0, 0, 0}}
	cols := make([]int, 8)
	for i, row := range want {
		for j, w := range row {
			if got := r.m.Len(at(i, j)); got != w {
				t.Errorf("(%d,%d) holds %d after row movement, want %d", i, j, got, w)
			}
			cols[j] += r.m.Len(at(i, j))
		}
	}
	if !slices.Equal(cols, []int{5, 5, 5, 5, 5, 4, 4, 4}) {
		t.Errorf("rows 0–2 per column: %v, want [5 5 5 5 5 4 4 4]", cols)
	}
	// Fig. 3.6: (1,3) has L = 10 to its west, L′ = 7 finally: it receives 3 from the west.
	if k[at(1, 3)].left != 10 || intoWest13 != 3 {
		t.Errorf("(1,3): L = %d, received %d from the west; want 10 and 3", k[at(1, 3)].left, intoWest13)
	}
}
