package han

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// rowMoveBulk leaves the machine exactly as row movement through Data
// does (pools in order, places, steps, maxima), after H's and Q's moves
// on permutations and restricted broadcasts, odd sides and rectangles;
// and on pools of 2 with a row's left half holding two each ("stacked",
// no move first).
func TestRowBulkMatchesSteps(t *testing.T) {
	for _, c := range []struct {
		alg        string
		rows, cols int
		input      string
		buffers    int // (0: the algorithm's)
	}{
		{AlgH, 16, 16, "random", 0}, {AlgH, 64, 64, "random", 0}, {AlgH, 37, 37, "random", 0},
		{AlgH, 40, 24, "random", 0}, {AlgH, 32, 32, "shuffle", 0}, {AlgH, 32, 32, "broadcast", 0},
		{AlgQ, 32, 32, "random", 0}, {AlgQ, 64, 64, "bit-reversal", 0}, {AlgQ, 32, 32, "broadcast", 0},
		{AlgH, 16, 16, "stacked", 2},
	} {
		name := fmt.Sprintf("%s %dx%d %s buffers %d", c.alg, c.rows, c.cols, c.input, c.buffers)
		var ms [2]*Machine
		var steps [2]int64
		var errs [2]error
		runs := 0
		for k := range 2 {
			dests := RandomBroadcastMesh(c.rows, c.cols, 3)
			if c.input != "broadcast" {
				p, err := PermutationMesh(strings.Replace(c.input, "stacked", "random", 1), c.rows, c.cols, 3)
				if err != nil {
					t.Fatal(err)
				}
				dests = Lists(p)
			}
			r, err := newRouter(c.rows, c.cols, max(Buffers(c.alg, c.cols), c.buffers), dests, Static)
			if err != nil {
				t.Fatal(err)
			}
			g := grid{rows: []span{{0, c.rows}}, cols: []span{{0, c.cols}}}
			switch {
			case c.input == "stacked":
				loadStacked(t, r, c.rows, c.cols)
			case c.alg == AlgH:
				err = r.moveHalves(g, false)
				g.cols = halve(g.cols)
			default:
				err = r.move(c.rows, c.cols, c.rows/2, c.cols/2, int64(c.rows))
				g = r.tile(c.rows/2, c.cols/2)
			}
			if err == nil {
				err = r.countRegions(g)
			}
			if err != nil {
				t.Fatal(err)
			}
			if k == 1 {
				r.m.Log = func(string, []Move, []IntSend) {} // (step by step)
			}
			r.m.PhaseStart(c.cols, "row")
			steps[k], errs[k] = r.rowMoveRegions(g)
			ms[k] = r.m
			if k == 0 {
				runs = r.rowBulk.Runs
			}
		}
		if runs != 1 {
			t.Errorf("%s: rowMoveBulk tried %d times", name, runs)
		}
		if (errs[0] == nil) != (errs[1] == nil) || errs[0] != nil && errs[0].Error() != errs[1].Error() {
			t.Errorf("%s: errors %v and %v", name, errs[0], errs[1])
			continue
		}
		if errs[0] != nil {
			t.Errorf("%s: refused: %v", name, errs[0])
		}
		a, b := ms[0], ms[1]
		if steps[0] != steps[1] || !samePools(a, b) || !reflect.DeepEqual(a.cnt, b.cnt) || !reflect.DeepEqual(a.loc, b.loc) ||
			a.steps != b.steps || a.DataSteps != b.DataSteps || a.maxHeld != b.maxHeld || a.phaseHeld != b.phaseHeld {
			t.Errorf("%s: bulk and step-by-step machines differ (steps %d/%d, held %d/%d)", name, steps[0], steps[1], a.maxHeld, b.maxHeld)
		}
	}
}

// loadStacked puts a second message, bound for its own processor, at
// every processor of each row's left half.
func loadStacked(t *testing.T, r *router, rows, cols int) {
	for p := range int32(rows * cols) {
		if int(p)%cols < cols/2 {
			if _, err := r.m.Load(p); err != nil {
				t.Fatal(err)
			}
			r.dests = append(r.dests, []int32{p})
		}
	}
}

// Row movement's rules hold on the bulk path as on Data's: flows (set
// here, not counted) that overfill a pool, send off the mesh or cannot
// be sent are refused (or reported stuck) with the same words, at the same
// step, and nothing moves before; flows within the rules move the same.
func TestRowBulkRefusesAsData(t *testing.T) {
	type flow struct{ p, e, w int32 }
	for _, c := range []struct {
		name  string
		flows []flow // (8×8, pools of 2, one message a processor of rows 0 and 3, two at (0,1) and (3,4))
		want  string // ("": moves)
	}{
		{"overfilled at step 2", []flow{{1, 2, 0}, {24, 1, 0}}, "refused data step 2 at processor (0,2): its pool of 2 buffers would hold 3"},
		{"off the mesh", []flow{{24, 1, 0}, {31, 1, 0}}, "no east link"},
		{"stuck", []flow{{24, 1, 0}, {19, 1, 0}}, "row movement stuck with 1 processors still to send"},
		{"both ways", []flow{{1, 1, 1}, {2, 1, 0}, {28, 1, 1}, {29, 1, 0}}, ""},
	} {
		var errs [2]error
		var ms [2]*Machine
		runs := 0
		for k := range 2 {
			d := make([]int32, 64)
			for p := range d {
				d[p] = -1
				if p < 8 || p >= 24 && p < 32 {
					d[p] = int32(p)
				}
			}
			r, err := newRouter(8, 8, 2, Lists(d), Static)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range []int32{1, 28} {
				if _, err := r.m.Load(p); err != nil {
					t.Fatal(err)
				}
			}
			if k == 1 {
				r.m.Log = func(string, []Move, []IntSend) {}
			}
			var active []int32
			for _, f := range c.flows {
				r.sendE[f.p], r.sendW[f.p] = f.e, f.w
				active = append(active, f.p)
			}
			_, errs[k] = r.rowSteps(active)
			ms[k] = r.m
			runs += r.rowBulk.Runs
		}
		if runs != 1 {
			t.Errorf("%s: rowMoveBulk tried %d times", c.name, runs)
		}
		if (errs[0] == nil) != (errs[1] == nil) || errs[0] != nil && errs[0].Error() != errs[1].Error() {
			t.Errorf("%s: errors %v and %v", c.name, errs[0], errs[1])
			continue
		}
		if c.want == "" && errs[0] != nil || c.want != "" && (errs[0] == nil || !strings.Contains(errs[0].Error(), c.want)) {
			t.Errorf("%s: %v, want %q", c.name, errs[0], c.want)
		}
		if c.want == "" && (!samePools(ms[0], ms[1]) || !reflect.DeepEqual(ms[0].loc, ms[1].loc) || ms[0].steps != ms[1].steps) {
			t.Errorf("%s: bulk and step-by-step machines differ", c.name)
		}
	}
}

// Column movement's steps through dataColumns leave the machine as Data's
// do, and a step that would overfill a pool or leave the mesh is refused
// by Data with the same words: targets set here (8×8, pools of 2, a
// message at every processor of columns 0 and 3, two at (1,0) and (4,3)).
func TestColumnStepsMatchData(t *testing.T) {
	for _, c := range []struct {
		name    string
		targets map[int32]int32 // processor → its first message's target row (others: their own row)
		want    string          // ("": moves)
	}{
		{"farthest first, both ways", map[int32]int32{0: 3, 8: 0, 24: 7, 27: 0, 59: 2, 35: 6}, ""},
		{"overfilled at step 2", map[int32]int32{24: 0, 32: 1}, "refused data step 2 at processor (1,0): its pool of 2 buffers would hold 3"},
		{"off the mesh", map[int32]int32{3: -1}, "no north link"},
	} {
		var errs [2]error
		var ms [2]*Machine
		for k := range 2 {
			d := make([]int32, 64)
			for p := range d {
				d[p] = -1
				if p%8 == 0 || p%8 == 3 {
					d[p] = int32(p)
				}
			}
			r, err := newRouter(8, 8, 2, Lists(d), Static)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range []int32{8, 35} {
				if _, err := r.m.Load(p); err != nil {
					t.Fatal(err)
				}
			}
			if k == 1 {
				r.m.Log = func(string, []Move, []IntSend) {} // (through Data)
			}
			r.target = make([]int32, r.m.Messages())
			var active []int32
			for id := range int32(r.m.Messages()) {
				p := r.m.Loc(id)
				r.target[id] = p / 8
				if to, ok := c.targets[p]; ok && r.m.Pool(p)[0] == id {
					r.target[id] = to
					active = append(active, id)
				}
			}
			_, errs[k] = r.columnSteps(active, false)
			ms[k] = r.m
		}
		if (errs[0] == nil) != (errs[1] == nil) || errs[0] != nil && errs[0].Error() != errs[1].Error() {
			t.Errorf("%s: errors %v and %v", c.name, errs[0], errs[1])
			continue
		}
		if c.want == "" && errs[0] != nil || c.want != "" && (errs[0] == nil || !strings.Contains(errs[0].Error(), c.want)) {
			t.Errorf("%s: %v, want %q", c.name, errs[0], c.want)
		}
		a, b := ms[0], ms[1]
		if !samePools(a, b) || !reflect.DeepEqual(a.loc, b.loc) || a.steps != b.steps || a.DataSteps != b.DataSteps || a.maxHeld != b.maxHeld {
			t.Errorf("%s: machines differ (steps %d/%d)", c.name, a.steps, b.steps)
		}
	}
}
