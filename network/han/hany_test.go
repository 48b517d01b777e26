package han

import (
	"errors"
	"testing"
)

// H on squares and rectangles of any sides (§4.6.4, §4.6.5): delivered,
// at most 3 messages a processor during a move and after it, the integer
// steps within the thesis's bound; the data steps of the static schedule
// (Thm 2.1/2.3 with b = 3 after an odd split) within 1.2 times it (the
// thesis says ≅ 5.5n: docs/han.md, verify han-h-odd-steps).
func TestHAnySides(t *testing.T) {
	for _, c := range [][2]int{{3, 3}, {5, 5}, {7, 7}, {9, 9}, {12, 12}, {13, 13}, {33, 33}, {63, 63}, {9, 5}, {15, 9}, {48, 12}, {64, 48}, {100, 36}} {
		rows, cols := c[0], c[1]
		for _, perm := range []string{"random", "rot180", "transpose"} {
			if perm == "transpose" && rows != cols {
				continue
			}
			p, err := PermutationMesh(perm, rows, cols, 1)
			if err != nil {
				t.Fatal(err)
			}
			for _, sched := range Schedules {
				r, err := RunMesh(AlgH, rows, cols, 3, Lists(p), sched, nil)
				if err != nil {
					t.Fatalf("%d×%d %s %s: %v", rows, cols, perm, sched, err)
				}
				b := r.Bound
				if float64(r.DataSteps) > 1.2*b.DataSteps || float64(r.IntegerSteps) > b.IntegerSteps || r.MaxBuffer > 3 || r.MaxBufferAfterMove > 3 {
					t.Errorf("%d×%d %s %s: %d + %d steps, buffers %d/%d; bound %g + %g", rows, cols, perm, sched, r.DataSteps, r.IntegerSteps, r.MaxBuffer, r.MaxBufferAfterMove, b.DataSteps, b.IntegerSteps)
				}
			}
		}
	}
}

// §4.6.4's move on 5×5 (s = 2): the left half is 3 columns wide; a message
// of its last column bound for the right half goes to the right half's
// last column (2 hops), one of column 1 to the same relative position
// there, also the last column (3 hops); after the move it holds both.
func TestHOddMove(t *testing.T) {
	dest := make([]int32, 25)
	for i := range dest {
		dest[i] = -1
	}
	dest[2], dest[1] = 3, 4 // (0,2) → (0,3), (0,1) → (0,4)
	r, err := newRouter(5, 5, 3, Lists(dest), Actual)
	if err != nil {
		t.Fatal(err)
	}
	r.res = &Result{Stages: []Stage{{Side: 5}}}
	r.stage = &r.res.Stages[0]
	if err := r.moveHalves(grid{rows: []span{{0, 5}}, cols: []span{{0, 5}}}, false); err != nil {
		t.Fatal(err)
	}
	if got := r.m.Pool(4); len(got) != 2 || r.stage.Phases[0].Actual != 3 || r.stage.Phases[0].Static != 3 {
		t.Errorf("(0,4) holds %v after %+v", got, r.stage.Phases[0])
	}
}

// On two buffers the outer column's third message is refused.
func TestHOddRefusedOnTwoBuffers(t *testing.T) {
	p, _ := PermutationMesh("random", 9, 9, 1)
	var ref *Refusal
	if _, err := RunMesh(AlgH, 9, 9, 2, Lists(p), Actual, nil); !errors.As(err, &ref) {
		t.Errorf("2 buffers: %v, want a refused step", err)
	}
}
