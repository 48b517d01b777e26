package han

import (
	"errors"
	"testing"
)

// Q with k² partitions delivers within §3.6.1's bound and k² + 2 buffers
// (k² after a move), on random, named and Fig. 3.12's hot-spot inputs; its
// static counting is 1.5s/k − 2 a smoothed stage (s = n, …, k², the last
// stage's submeshes single processors).
func TestK2(t *testing.T) {
	for _, c := range [][2]int{{16, 4}, {64, 4}, {36, 6}, {64, 8}} {
		n, k := c[0], c[1]
		var integer int64
		for s := n; s > k; s /= k {
			integer += int64(3*s/(2*k) - 2)
		}
		inputs := map[string][]int32{"hot spot": K2HotSpot(n, k)}
		for _, perm := range []string{"random", "rot180", "transpose"} {
			p, err := Permutation(perm, n, 1)
			if err != nil {
				t.Fatal(err)
			}
			inputs[perm] = p
		}
		for name, p := range inputs {
			for _, sched := range Schedules {
				r, err := RunK2(n, k, k*k+2, Lists(p), sched, nil)
				if err != nil {
					t.Fatalf("n=%d k=%d %s %s: %v", n, k, name, sched, err)
				}
				b := r.Bound
				if float64(r.DataSteps) > b.DataSteps || float64(r.IntegerSteps) > b.IntegerSteps || r.MaxBuffer > k*k+2 || r.MaxBufferAfterMove > k*k {
					t.Errorf("n=%d k=%d %s %s: %d + %d steps, buffers %d/%d; bound %g + %g, %d/%d", n, k, name, sched, r.DataSteps, r.IntegerSteps, r.MaxBuffer, r.MaxBufferAfterMove, b.DataSteps, b.IntegerSteps, k*k+2, k*k)
				}
				if r.IntegerSteps != integer {
					t.Errorf("n=%d k=%d %s %s: %d integer steps, want %d", n, k, name, sched, r.IntegerSteps, integer)
				}
				t.Logf("n=%d k=%d %s %s: %d + %d, buffers %d/%d, first move %d", n, k, name, sched, r.DataSteps, r.IntegerSteps, r.MaxBuffer, r.MaxBufferAfterMove, r.Stages[0].Phases[0].Actual)
			}
		}
	}
	if b := K2Bound(100, 4); b.DataSteps != 575 || b.IntegerSteps != 50 || b.MaxBuffer != 18 {
		t.Errorf("k = 4 bound at n = 100: %g + %g, %d buffers; want 5.75n + 0.5n, 18", b.DataSteps, b.IntegerSteps, b.MaxBuffer)
	}
}

// On k² buffers Fig. 3.12's hot spot overfills a processor with
// transients: the machine refuses the step.
func TestK2RefusedOnFewerBuffers(t *testing.T) {
	var ref *Refusal
	if _, err := RunK2(64, 4, 16, Lists(K2HotSpot(64, 4)), Actual, nil); !errors.As(err, &ref) {
		t.Errorf("16 buffers: %v, want a refused step", err)
	}
}

// The hot spot outlasts §3.6.1's (k−1)n move under its priorities on 64×64
// (207 steps against 192): reported as a deviation, the static schedule
// waiting for the last message; still within the data-step bound.
func TestK2HotSpotDeviation(t *testing.T) {
	r, err := RunK2(64, 4, 18, Lists(K2HotSpot(64, 4)), Static, nil)
	if err != nil {
		t.Fatal(err)
	}
	mv := r.Stages[0].Phases[0]
	if len(r.Deviations) != 1 || mv.OverStatic != 192 || mv.Static != 207 || mv.Steps != 207 || r.DataSteps != 368 || float64(r.DataSteps) > r.Bound.DataSteps {
		t.Errorf("move %+v, deviations %q, %d data steps (bound %g)", mv, r.Deviations, r.DataSteps, r.Bound.DataSteps)
	}
}
