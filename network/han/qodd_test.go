package han

import (
	"errors"
	"testing"
)

// Odd Q's first mapping on odd squares: delivered within 9 buffers, the
// integer steps within 1.5n; moves past the claimed n + 1 are reported
// as deviations, not errors.
func TestOdd1(t *testing.T) {
	for _, n := range []int{3, 5, 7, 9, 13, 15, 33, 63} {
		for _, perm := range []string{"random", "rot180", "transpose"} {
			p, err := Permutation(perm, n, 1)
			if err != nil {
				t.Fatal(err)
			}
			for _, sched := range Schedules {
				r, err := RunOdd1(n, 0, 9, Lists(p), sched, nil)
				if err != nil {
					t.Fatalf("n=%d %s %s: %v", n, perm, sched, err)
				}
				if r.MaxBuffer > 9 || r.MaxBufferAfterMove > 9 || float64(r.IntegerSteps) > r.Bound.IntegerSteps {
					t.Errorf("n=%d %s %s: %d + %d, buffers %d/%d", n, perm, sched, r.DataSteps, r.IntegerSteps, r.MaxBuffer, r.MaxBufferAfterMove)
				}
			}
		}
	}
}

// The nine gather at IV's top-left processor after the first move on 7×7
// (s = 3); on 8 buffers the machine refuses the step.
func TestOdd1Corner(t *testing.T) {
	r, err := RunOdd1(7, 0, 9, Lists(Odd1Corner(3)), Actual, nil)
	if err != nil || r.MaxBufferAfterMove != 9 {
		t.Fatalf("%v, after the move %d", err, r.MaxBufferAfterMove)
	}
	var ref *Refusal
	if _, err := RunOdd1(7, 0, 8, Lists(Odd1Corner(3)), Actual, nil); !errors.As(err, &ref) {
		t.Errorf("8 buffers: %v, want a refused step", err)
	}
}
