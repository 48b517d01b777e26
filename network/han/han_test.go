package han

import (
	"fmt"
	"slices"
	"testing"
)

func run(t *testing.T, alg string, n int, perm string, sched string) *Result {
	t.Helper()
	p, err := Permutation(perm, n, 1)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(alg, n, Buffers(alg, n), p, sched)
	if err != nil {
		t.Fatalf("%s n=%d %s: %v", alg, n, perm, err)
	}
	return r
}

// The static schedules of digest §5.3 (the worst-case phase lengths).
func TestStaticSchedules(t *testing.T) {
	want := map[string][2]int64{"q8": {24, 5}, "h8": {31, 13}, "q16": {55, 15}, "h16": {73, 37},
		"q4": {9, 1}, "h4": {11, 3}, "q32": {118, 37}, "h32": {159, 89}}
	for k, w := range want {
		var n int
		fmt.Sscanf(k[1:], "%d", &n)
		r := run(t, k[:1], n, "random", Static)
		if r.DataSteps != w[0] || r.IntegerSteps != w[1] {
			t.Errorf("%s: %d data + %d integer, want %d + %d", k, r.DataSteps, r.IntegerSteps, w[0], w[1])
		}
	}
}

// rot180 under Q and H and the transpose under Q: every processor holds one
// message after every move, so smoothing moves nothing: 2n − 2 data steps.
func TestCornerToCorner(t *testing.T) {
	for _, n := range []int{4, 8, 16, 32} {
		for _, c := range [][2]string{{"q", "rot180"}, {"h", "rot180"}, {"q", "transpose"}} {
			r := run(t, c[0], n, c[1], Actual)
			if r.DataSteps != int64(2*n-2) || r.MaxBufferAfterMove != 1 {
				t.Errorf("%s %s n=%d: %d data steps, %d after a move; want %d, 1", c[0], c[1], n, r.DataSteps, r.MaxBufferAfterMove, 2*n-2)
			}
		}
	}
}

// The buffer maxima are never exceeded on random permutations (Thm 3.1,
// 4.1), and the maxima are reached.
func TestBufferMaxima(t *testing.T) {
	seen := map[string][2]int{}
	for _, n := range []int{8, 16, 32} {
		for seed := uint64(1); seed <= 8; seed++ {
			p, _ := Permutation("random", n, seed)
			for _, alg := range Algorithms {
				r, err := Run(alg, n, Buffers(alg, n), p, Actual)
				if err != nil {
					t.Fatalf("%s n=%d seed %d: %v", alg, n, seed, err)
				}
				b := ThesisBound(alg, n, n)
				if r.MaxBuffer > b.MaxBuffer || r.MaxBufferAfterMove > b.MaxBufferAfterMove {
					t.Errorf("%s n=%d seed %d: buffers %d/%d past %d/%d", alg, n, seed, r.MaxBuffer, r.MaxBufferAfterMove, b.MaxBuffer, b.MaxBufferAfterMove)
				}
				s := seen[alg]
				seen[alg] = [2]int{max(s[0], r.MaxBuffer), max(s[1], r.MaxBufferAfterMove)}
			}
		}
	}
	t.Logf("worst seen: %v", seen)
}

func TestPermutationsRoute(t *testing.T) {
	for _, perm := range Permutations {
		for _, alg := range Algorithms {
			run(t, alg, 16, perm, Actual)
		}
	}
}

// The reference model's actual-completion data steps (digest 002 §5.4,
// 002_han_refmodel.py: FIFO row movement, column targets in list order —
// the policies this machine's algorithms use) for n = 8, 16, 32.
func TestReferenceModelActual(t *testing.T) {
	want := map[[2]string][3]int64{
		{"q", "rot180"}: {14, 30, 62}, {"h", "rot180"}: {14, 30, 62},
		{"q", "transpose"}: {14, 30, 62}, {"h", "transpose"}: {20, 41, 82},
		{"q", "bit-reversal"}: {13, 42, 66}, {"h", "bit-reversal"}: {12, 38, 62},
	}
	integer := map[string][3]int64{"q": {5, 15, 37}, "h": {13, 37, 89}}
	for k, w := range want {
		for i, n := range []int{8, 16, 32} {
			r := run(t, k[0], n, k[1], Actual)
			if r.DataSteps != w[i] || r.IntegerSteps != integer[k[0]][i] {
				t.Errorf("%s %s n=%d: %d + %d, want %d + %d", k[0], k[1], n, r.DataSteps, r.IntegerSteps, w[i], integer[k[0]][i])
			}
		}
	}
}

// The greedy baselines on the transpose (every row's messages meet at one
// processor of the diagonal): farthest-first finishes in 2n − 2 steps,
// first-come-first-served in 3n − 4 (within 3n − 3), and both hold n
// messages at one processor, where Q and H hold at most 5 and 3.
func TestGreedyBaselines(t *testing.T) {
	for _, n := range []int{8, 16, 32} {
		ff := run(t, AlgGreedyFF, n, "transpose", Actual)
		g := run(t, AlgGreedy, n, "transpose", Actual)
		if ff.DataSteps != int64(2*n-2) || ff.MaxBuffer != n {
			t.Errorf("greedy-ff n=%d: %d steps, %d buffers; want %d, %d", n, ff.DataSteps, ff.MaxBuffer, 2*n-2, n)
		}
		if g.DataSteps != int64(3*n-4) || g.MaxBuffer != n {
			t.Errorf("greedy n=%d: %d steps, %d buffers; want %d, %d", n, g.DataSteps, g.MaxBuffer, 3*n-4, n)
		}
		q, h := run(t, AlgQ, n, "transpose", Actual), run(t, AlgH, n, "transpose", Actual)
		if q.MaxBuffer > 5 || h.MaxBuffer > 3 {
			t.Errorf("n=%d: Q %d, H %d buffers", n, q.MaxBuffer, h.MaxBuffer)
		}
	}
	// Any side, not only powers of two.
	run(t, AlgGreedyFF, 12, "random", Static)
}

// The static schedule's per-stage phase lengths (digest 002 §5.3): Q as
// (side, move, counting, row, column), H as (side, move 1, counting 1,
// row 1, column 1, move 2, counting 2, row 2, column 2).
func TestStaticPerStage(t *testing.T) {
	lengths := func(r *Result) [][]int64 {
		var out [][]int64
		for _, s := range r.Stages {
			l := []int64{int64(s.Side)}
			for _, p := range s.Phases {
				l = append(l, p.Steps)
			}
			out = append(out, l)
		}
		return out
	}
	for _, c := range []struct {
		alg  string
		n    int
		want string
	}{
		{AlgQ, 8, "[[8 8 4 4 3] [4 4 1 2 1] [2 2]]"},
		{AlgQ, 16, "[[16 16 10 9 6] [8 8 4 4 3] [4 4 1 2 1] [2 2]]"},
		{AlgH, 8, "[[8 4 6 3 4 4 4 3 2] [4 2 2 1 2 2 1 1 1] [2 1 1]]"},
	} {
		if got := fmt.Sprint(lengths(run(t, c.alg, c.n, "random", Static))); got != c.want {
			t.Errorf("%s n=%d: %s, want %s", c.alg, c.n, got, c.want)
		}
	}
}

// The static lengths are reached (digest §5.4): on a 16×16 mesh, Lemma
// 2.3's row input takes Q's first row movement the full ⌊1.2q⌋ = 9 steps,
// and a top-packed quadrant takes its column movement the full 3q/4 = 6.
func TestQWorstPhases(t *testing.T) {
	for _, c := range []struct {
		dest  []int32
		phase int
		want  int64
	}{{WorstRowInput(16), 2, 9}, {WorstColumnInput(16), 3, 6}} {
		r, err := Run(AlgQ, 16, 5, c.dest, Actual)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Stages[0].Phases[c.phase]; got.Actual != c.want || got.Static != c.want {
			t.Errorf("%s movement: %+v, want %d of %d", got.Phase, got, c.want, c.want)
		}
	}
}

// Restricted broadcasts (Thm 3.4, 4.6): every copy delivered, the same
// static schedule as a permutation, and Q's 5 / 4 and H's 3 / 2 buffers
// never exceeded.
func TestRestrictedBroadcast(t *testing.T) {
	copies := 0
	for _, n := range []int{4, 8, 16, 32} {
		for seed := uint64(1); seed <= 6; seed++ {
			b := RandomBroadcast(n, seed)
			for _, alg := range []string{AlgQ, AlgH} {
				r, err := RunBroadcast(alg, n, Buffers(alg, n), b, Static, nil)
				if err != nil {
					t.Fatalf("%s n=%d seed %d: %v", alg, n, seed, err)
				}
				p := run(t, alg, n, "random", Static)
				bd := ThesisBound(alg, n, n)
				if r.DataSteps != p.DataSteps || r.IntegerSteps != p.IntegerSteps || r.MaxBuffer > bd.MaxBuffer || r.MaxBufferAfterMove > bd.MaxBufferAfterMove {
					t.Errorf("%s n=%d seed %d: %d + %d steps, buffers %d / %d", alg, n, seed, r.DataSteps, r.IntegerSteps, r.MaxBuffer, r.MaxBufferAfterMove)
				}
				copies += r.Copies
			}
		}
	}
	if copies == 0 {
		t.Error("no copies made")
	}
}

// Fig. 3.11 (Q, 8×8, first move): E at (5,2) has destinations in all four
// quadrants; its column copy reaches (1,2) at step 4, is copied there and
// reaches (1,6) at step 8, along the row J took to (1,6) by step 4; no
// processor holds more than 4 messages after the move.
func TestFig311Broadcast(t *testing.T) {
	c := func(r, c int) int32 { return int32(r*8 + c) }
	dests := make([][]int32, 64)
	for src, ds := range map[int32][]int32{
		c(0, 1): {c(2, 0), c(5, 3)}, c(4, 1): {c(2, 1), c(6, 6), c(7, 3)}, c(4, 5): {c(2, 2)}, c(0, 5): {c(2, 3)},
		c(5, 2): {c(0, 1), c(6, 7), c(3, 4), c(5, 0), c(3, 5), c(5, 1)}, c(6, 0): {c(1, 0)},
		c(2, 6): {c(0, 2), c(6, 3)}, c(3, 7): {c(0, 6), c(1, 6), c(2, 6)}, c(1, 2): {c(1, 7)},
	} {
		dests[src] = ds
	}
	r, err := newRouter(8, 8, 5, dests, Actual)
	if err != nil {
		t.Fatal(err)
	}
	var at16 []int
	r.onStep = func() { at16 = append(at16, r.m.Len(c(1, 6))) }
	if err := r.move(8, 8, 4, 4, 8); err != nil {
		t.Fatal(err)
	}
	if want := []int{0, 0, 0, 1, 1, 1, 1, 2}; !slices.Equal(at16, want) {
		t.Errorf("(1,6) held %v after the steps, want %v (J at step 4, E's copy at step 8)", at16, want)
	}
	if h := r.m.Held(); h > 4 {
		t.Errorf("%d messages at a processor after the move", h)
	}
	if _, err := RunBroadcast(AlgQ, 8, 5, dests, Static, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := RunBroadcast(AlgH, 8, 3, dests, Static, nil); err != nil {
		t.Fatal(err)
	}
}

// Move steps (Thm 3.1, 4.1): Q's first move takes exactly s steps when a
// message targets the diagonal quadrant and s/2 when messages only change
// row or column quadrant; H's two moves s/2 each.
func TestMoveSteps(t *testing.T) {
	const n = 16
	one := func(src, dst int32) []int32 {
		d := make([]int32, n*n)
		for i := range d {
			d[i] = -1
		}
		d[src] = dst
		return d
	}
	for _, c := range []struct {
		alg      string
		src, dst int32
		want     []int64 // the moves' actual lengths in stage 1
	}{
		{AlgQ, 0, 9*n + 9, []int64{16}},   // (0,0) → (9,9): diagonal
		{AlgQ, 0, 9, []int64{8}},          // row only
		{AlgQ, 0, 9 * n, []int64{8}},      // column only
		{AlgH, 0, 9*n + 9, []int64{8, 8}}, // both halves
	} {
		r, err := Run(c.alg, n, Buffers(c.alg, n), one(c.src, c.dst), Actual)
		if err != nil {
			t.Fatal(err)
		}
		var got []int64
		for _, p := range r.Stages[0].Phases {
			if p.Phase == "move" {
				got = append(got, p.Actual)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s %d → %d: moves %v, want %v", c.alg, c.src, c.dst, got, c.want)
		}
	}
}

// Rectangles (§3.6.4, §4.6.5): Q and H deliver on r×c meshes (r ≥ c,
// powers of two) within the buffer maxima and the thesis's bounds; Q's
// first move takes (r + c)/2 steps.
func TestRectangles(t *testing.T) {
	for _, rc := range [][2]int{{16, 8}, {32, 4}, {8, 2}, {64, 16}, {64, 4}, {128, 4}} {
		rows, cols := rc[0], rc[1]
		for i, perm := range []string{"random", "random", "random", "rot180", "bit-reversal", "shuffle"} {
			p, err := PermutationMesh(perm, rows, cols, uint64(i)) // (three random permutations)
			if err != nil {
				t.Fatal(err)
			}
			for _, alg := range []string{AlgQ, AlgH} {
				r, err := RunMesh(alg, rows, cols, Buffers(alg, cols), Lists(p), Static, nil)
				if err != nil {
					t.Fatalf("%s %d×%d %s: %v", alg, rows, cols, perm, err)
				}
				b := ThesisBound(alg, rows, cols)
				if r.MaxBuffer > b.MaxBuffer || r.MaxBufferAfterMove > b.MaxBufferAfterMove ||
					float64(r.DataSteps) > b.DataSteps || float64(r.IntegerSteps) > b.IntegerSteps {
					t.Errorf("%s %d×%d %s: %d + %d steps, buffers %d / %d; bound %+v", alg, rows, cols, perm, r.DataSteps, r.IntegerSteps, r.MaxBuffer, r.MaxBufferAfterMove, b)
				}
				if mv := r.Stages[0].Phases[0]; alg == AlgQ && mv.Static != int64(rows+cols)/2 {
					t.Errorf("Q %d×%d: first move %d steps, want %d", rows, cols, mv.Static, (rows+cols)/2)
				}
			}
		}
	}
	if err := Check(AlgQ, 8, 16); err == nil {
		t.Error("8 rows × 16 columns accepted")
	}
	if err := Check(AlgGreedy, 16, 8); err == nil {
		t.Error("greedy on a rectangle accepted")
	}
}
