package han

import (
	"errors"
	"testing"
)

// Q on K-D meshes delivers random permutations, rot180, the transpose and
// §3.6.2's crowded move (all 2^K corresponding processors into one
// sub-hypercube: 2^K a processor after the move) on pools of 2^K + 2
// (QKDBuffers; the machine refuses any step that overfills one), 2^K
// after a move; its integer steps are (K − ½)n at most, its static data
// steps within §3.6.2's bound but where a move outlasted the thesis's
// optimistic length (a deviation the result names).
func TestQKD(t *testing.T) {
	for _, c := range [][2]int{{3, 2}, {3, 4}, {3, 8}, {3, 16}, {4, 4}, {4, 8}, {5, 4}} {
		K, n := c[0], c[1]
		inputs := [][]int32{QKDHotSpot(n, K)}
		for i, name := range []string{"random", "random", "rot180", "transpose"} {
			p, _ := PermutationKD(name, n, K, uint64(i+1))
			inputs = append(inputs, p)
		}
		for i, p := range inputs {
			for _, sched := range Schedules {
				r, err := RunQKD(K, n, QKDBuffers(n, K), Lists(p), sched, nil)
				if err != nil {
					t.Fatalf("K=%d n=%d input %d %s: %v", K, n, i, sched, err)
				}
				b := r.Bound
				if r.MaxBuffer > QKDBuffers(n, K) || r.MaxBufferAfterMove > b.MaxBufferAfterMove || float64(r.IntegerSteps) > b.IntegerSteps || float64(r.DataSteps) > b.DataSteps && len(r.Deviations) == 0 {
					t.Errorf("K=%d n=%d input %d %s: %d + %d, buffers %d/%d; bound %g + %g, %d/%d", K, n, i, sched, r.DataSteps, r.IntegerSteps, r.MaxBuffer, r.MaxBufferAfterMove, b.DataSteps, b.IntegerSteps, b.MaxBuffer, b.MaxBufferAfterMove)
				}
				if i == 0 && n > 2 && r.Stages[0].Phases[0].MaxBuffer < 1<<K {
					t.Errorf("K=%d n=%d hot spot: %d after the move, want %d", K, n, r.Stages[0].Phases[0].MaxBuffer, 1<<K)
				}
			}
		}
	}
}

// On 8⁴ the crowded move holds 2^K + 2 = 18 in a processor: 17 buffers
// (Table 5.1's 2^K + 1) are refused.
func TestQKDHotSpotNeedsTwoMore(t *testing.T) {
	r, err := RunQKD(4, 8, 18, Lists(QKDHotSpot(8, 4)), Actual, nil)
	if err != nil || r.MaxBuffer != 18 {
		t.Fatalf("%v, %v", err, r)
	}
	var ref *Refusal
	if _, err := RunQKD(4, 8, 17, Lists(QKDHotSpot(8, 4)), Actual, nil); !errors.As(err, &ref) {
		t.Errorf("17 buffers: %v, want a refused step", err)
	}
}
