package han

import (
	"fmt"
	"reflect"
	"testing"
)

// countBulk leaves every processor's counts and the machine's step counts
// as the waves sent step by step do, on grids of equal, odd and mixed
// bands (H's halvings of odd sides, rectangles, one-row and one-column
// regions), on pools of 0 to 3 messages.
func TestCountBulkMatchesWaves(t *testing.T) {
	for _, c := range []struct{ rows, cols, halvings int }{
		{16, 16, 1}, {37, 37, 1}, {37, 37, 3}, {40, 24, 2}, {9, 9, 6}, {13, 5, 2}, {2, 2, 1}, {1, 1, 0},
	} {
		name := fmt.Sprintf("%dx%d halved %d times", c.rows, c.cols, c.halvings)
		var rs [2]*router
		for k := range 2 {
			dests := RandomBroadcastMesh(c.rows, c.cols, 5)
			r, err := newRouter(c.rows, c.cols, 3, dests, Static)
			if err != nil {
				t.Fatal(err)
			}
			for p := range int32(c.rows * c.cols) { // (pools of 0 … 3)
				for range int(p*7) % 4 {
					if r.m.Len(p) < 3 {
						if _, err := r.m.Load(p); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
			g := grid{rows: []span{{0, c.rows}}, cols: []span{{0, c.cols}}}
			for h := range c.halvings {
				if h%2 == 0 {
					g.cols = halve(g.cols)
				} else {
					g.rows = halve(g.rows)
				}
			}
			if k == 1 {
				r.m.Log = func(string, []Move, []IntSend) {} // (the waves step by step)
			}
			if err := r.countRegions(g); err != nil {
				t.Fatal(err)
			}
			rs[k] = r
		}
		a, b := rs[0], rs[1]
		if !reflect.DeepEqual(a.cnt, b.cnt) || a.m.steps != b.m.steps || a.m.IntegerSteps != b.m.IntegerSteps {
			t.Errorf("%s: counts or steps differ (steps %d/%d)", name, a.m.IntegerSteps, b.m.IntegerSteps)
		}
		if c.rows > 2 && a.m.IntegerSteps == 0 {
			t.Errorf("%s: no waves", name)
		}
	}
}
