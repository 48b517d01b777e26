package han

import (
	"errors"
	"fmt"
	"testing"
)

// kdStatic is the static schedule of H on n^K from the thesis's phase
// lengths (§4.6.2): per stage, for each axis a = K−1 … 0, a move of s/2
// and a smoothing of the region halved along a — counting S_1 + … +
// S_{K−1} + S_0/2 − K, row movements Σ (S_i − 1), column movement S_0/2 —
// skipped on regions of at most two processors.
func kdStatic(n, K int) (data, integer int64) {
	for s := n; s >= 2; s /= 2 {
		S := make([]int, K)
		for a := range S {
			S[a] = s
		}
		for a := K - 1; a >= 0; a-- {
			data += int64(s / 2)
			S[a] = s / 2
			size := 1
			for _, x := range S {
				size *= x
			}
			if size <= 2 {
				continue
			}
			for i := 1; i < K; i++ {
				integer += int64(S[i] - 1)
				data += int64(S[i] - 1)
			}
			integer += int64(max(S[0]-S[0]/2-1, 0))
			data += ColBound(2, S[0])
		}
	}
	return data, integer
}

// H on 3-D and K-D meshes delivers random permutations, rot180 and the
// transpose with 3 buffers (2 after every move); the static schedule is
// the thesis's phase lengths exactly, within Thm 4.7's 12.5n + 9.5n (and
// §4.6.2's bound for K = 4, 5); the actual schedule never exceeds it.
func TestKD(t *testing.T) {
	for _, c := range [][2]int{{3, 2}, {3, 4}, {3, 8}, {3, 16}, {4, 4}, {4, 8}, {5, 4}} {
		K, n := c[0], c[1]
		wd, wi := kdStatic(n, K)
		for i, name := range []string{"random", "random", "rot180", "transpose"} {
			p, err := PermutationKD(name, n, K, uint64(i+1))
			if err != nil {
				t.Fatal(err)
			}
			for _, sched := range Schedules {
				r, err := RunKD(K, n, 3, Lists(p), sched, nil)
				if err != nil {
					t.Fatalf("K=%d n=%d %s %s: %v", K, n, name, sched, err)
				}
				if r.MaxBuffer > 3 || r.MaxBufferAfterMove > 2 {
					t.Errorf("K=%d n=%d %s: buffers %d, %d after a move", K, n, name, r.MaxBuffer, r.MaxBufferAfterMove)
				}
				b := r.Bound
				if sched == Static && (r.DataSteps != wd || r.IntegerSteps != wi || float64(wd) > b.DataSteps || float64(wi) > b.IntegerSteps) {
					t.Errorf("K=%d n=%d static %d + %d, want %d + %d within %g + %g", K, n, r.DataSteps, r.IntegerSteps, wd, wi, b.DataSteps, b.IntegerSteps)
				}
				if sched == Actual && (r.DataSteps > wd || r.IntegerSteps > wi) {
					t.Errorf("K=%d n=%d %s actual %d + %d past the static %d + %d", K, n, name, r.DataSteps, r.IntegerSteps, wd, wi)
				}
			}
		}
	}
}

// The first stage's per-pair lengths on n×n×n are §4.6.1's: smoothing 1
// 2n − 3 integer and 2n − 2 data steps (rows n − 1 and n/2 − 1, column
// n/2), smoothing 2 3n/2 − 3 and 3n/2 − 2, smoothing 3 5n/4 − 3 and
// 5n/4 − 2, moves n/2 each.
func TestKD3Stage(t *testing.T) {
	const n = 16
	p, _ := PermutationKD("random", n, 3, 1)
	r, err := RunKD(3, n, 3, Lists(p), Static, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	for _, ph := range r.Stages[0].Phases {
		got = append(got, ph.Steps)
	}
	// move, count, row, column; × 3
	want := []int64{8, 2*n - 3, n - 1 + n/2 - 1, n / 2, 8, 3*n/2 - 3, 2 * (n/2 - 1), n / 2, 8, 5*n/4 - 3, n/2 - 1 + n/2 - 1, n / 4}
	if len(got) != len(want) {
		t.Fatalf("%d phases, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("phase %d: %d steps, want %d (all %v)", i, got[i], want[i], got)
		}
	}
}

// Lemma 4.3's three: on the z-line x = y = 0 of 8×8×8, (0,0,1) and
// (0,0,5) swap, crossing at (0,0,3) at step 2, which keeps its own; on 3
// buffers it holds 3, on 2 the machine refuses the step and names (0,0,3).
func TestKDRefusedOnTwoBuffers(t *testing.T) {
	p, _ := PermutationKD("rot180", 8, 3, 1)
	for i := range p {
		p[i] = int32(i)
	}
	p[1], p[5] = 5, 1
	r, err := RunKD(3, 8, 3, Lists(p), Actual, nil)
	if err != nil || r.MaxBuffer != 3 {
		t.Fatalf("3 buffers: %v, %v", err, r)
	}
	var ref *Refusal
	if _, err := RunKD(3, 8, 2, Lists(p), Actual, nil); !errors.As(err, &ref) || ref.Step != 2 || fmt.Sprint(ref.Coords) != "[0 0 3]" {
		t.Errorf("2 buffers: %v, want a refused step naming (x,y,z)", err)
	}
}
