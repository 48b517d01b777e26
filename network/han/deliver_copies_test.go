package han

import (
	"fmt"
	"testing"
)

// Restricted broadcasts on rectangles and on the ILLIAC model (with and
// without wraparound) cost what permutations cost (Thm 3.4, 4.6: the same
// static schedule, no more buffers; §3.6.4, §4.6.5 for rectangles, §5.2's
// four times for the ILLIAC model): every destination gets its copy, the
// pools stay within Q's 5 / 4 and H's 3, and the static schedule is the
// permutation's on the same machine.
func TestBroadcastRectanglesAndILLIAC(t *testing.T) {
	meshes := [][2]int{{8, 8}, {16, 16}, {8, 4}, {16, 8}, {32, 8}, {16, 4}, {12, 6}, {10, 7}, {9, 9}}
	hws := []Hardware{{}, {Model: ModelILLIAC}, {Model: ModelILLIAC, Wrap: true}}
	copies := 0
	for _, alg := range []string{AlgQ, AlgH} {
		for _, rc := range meshes {
			rows, cols := rc[0], rc[1]
			if Check(alg, rows, cols) != nil {
				continue
			}
			b := Buffers(alg, cols)
			for _, hw := range hws {
				perm, err := PermutationMesh("rot180", rows, cols, 0)
				if err != nil {
					t.Fatal(err)
				}
				p, err := RunMeshOn(hw, alg, rows, cols, b, Lists(perm), Static, nil)
				if err != nil {
					t.Fatalf("%s %dx%d %+v rot180: %v", alg, rows, cols, hw, err)
				}
				for seed := uint64(1); seed <= 12; seed++ {
					name := fmt.Sprintf("%s %dx%d %+v seed %d", alg, rows, cols, hw, seed)
					dests := RandomBroadcastMesh(rows, cols, seed)
					r, err := RunMeshOn(hw, alg, rows, cols, b, cloneLists(dests), Static, nil)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					copies += r.Copies
					if r.DataSteps != p.DataSteps || r.IntegerSteps != p.IntegerSteps {
						t.Errorf("%s: static %d + %d, the permutation's %d + %d", name, r.DataSteps, r.IntegerSteps, p.DataSteps, p.IntegerSteps)
					}
					if r.MaxBuffer > r.Bound.MaxBuffer || r.MaxBufferAfterMove > r.Bound.MaxBufferAfterMove {
						t.Errorf("%s: buffers %d / %d past %d / %d", name, r.MaxBuffer, r.MaxBufferAfterMove, r.Bound.MaxBuffer, r.Bound.MaxBufferAfterMove)
					}
					if want := destCount(dests); r.Messages+r.Copies != want {
						t.Errorf("%s: %d messages and %d copies for %d destinations", name, r.Messages, r.Copies, want)
					}
				}
			}
		}
	}
	if copies == 0 {
		t.Fatal("no copies made")
	}
}

func cloneLists(ls [][]int32) [][]int32 {
	out := make([][]int32, len(ls))
	for i, l := range ls {
		out[i] = append([]int32(nil), l...)
	}
	return out
}

func destCount(ls [][]int32) int {
	n := 0
	for _, l := range ls {
		n += len(l)
	}
	return n
}

// In a column a message drops copies on its way: one message at the top
// of an 8×1 column (delivery of a 2·8 × 2 rectangle's last stage is such a
// column) to rows 2, 5 and 7 takes 7 steps, leaving the original at row 2
// and copies at 5 and 7.
func TestColumnCopies(t *testing.T) {
	dests := make([][]int32, 16*2)
	dests[0] = []int32{2 * 2, 5 * 2, 7 * 2}
	r, err := RunMesh(AlgQ, 16, 2, 5, dests, Actual, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Copies != 2 {
		t.Errorf("%d copies, want 2", r.Copies)
	}
	if r.DataSteps != 7 {
		t.Errorf("%d data steps, want 7 (to row 7, the farthest)", r.DataSteps)
	}
}

// On the ILLIAC model a message that leaves east itself and south as a
// copy in one step (nothing stays) is copied first: the south machine
// step comes after the east one, so the east move waits for a second
// round of directions.
func TestILLIACCopyBeforeMove(t *testing.T) {
	dests := make([][]int32, 64)
	dests[0] = []int32{4, 32} // (0,4) in the east quadrant, (4,0) in the south one
	for _, hw := range []Hardware{{}, {Model: ModelILLIAC}} {
		r, err := RunMeshOn(hw, AlgQ, 8, 8, 5, dests, Actual, nil)
		if err != nil {
			t.Fatalf("%+v: %v", hw, err)
		}
		if r.Copies != 1 || r.DataSteps != map[bool]int64{false: 4, true: 8}[hw.Model == ModelILLIAC] {
			t.Errorf("%+v: %d copies, %d data steps", hw, r.Copies, r.DataSteps)
		}
	}
}
