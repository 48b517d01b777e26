package han

import (
	"errors"
	"strings"
	"testing"
)

// The ILLIAC machine refuses a step whose processors send in two
// directions; the distributed one takes it.
func TestIlliacRefusesTwoDirections(t *testing.T) {
	for _, simd := range []bool{false, true} {
		m := NewMachine(2, 2, 2)
		m.SIMD = simd
		a, _ := m.Load(0)
		b, _ := m.Load(3)
		err := m.Data([]Move{{From: 0, Dir: East, Msg: a}, {From: 3, Dir: North, Msg: b}})
		var ref *Refusal
		if simd != errors.As(err, &ref) || simd && !strings.Contains(err.Error(), "ILLIAC: sends north in a step whose instruction sends east") {
			t.Errorf("SIMD %v: %v", simd, err)
		}
	}
}

// Without wraparound the last column has no east link; with it the east
// link leads to column 0 of the same row (and south from the last row to
// row 0).
func TestWrapLinks(t *testing.T) {
	for _, wrap := range []bool{false, true} {
		m := NewMachine(3, 3, 2)
		m.Wrap = wrap
		a, _ := m.Load(5) // (1,2)
		err := m.Data([]Move{{From: 5, Dir: East, Msg: a}})
		if wrap && (err != nil || m.Loc(a) != 3) || !wrap && (err == nil || !strings.Contains(err.Error(), "no east link")) {
			t.Errorf("wrap %v: %v, message at %d", wrap, err, m.Loc(a))
		}
		if wrap && (m.Neighbour(7, South) != 1 || m.Neighbour(0, West) != 2 || m.Neighbour(0, North) != 6) {
			t.Errorf("wrap neighbours: %d %d %d", m.Neighbour(7, South), m.Neighbour(0, West), m.Neighbour(0, North))
		}
	}
}

// Q and H on the ILLIAC model (with and without wraparound): delivered
// with the distributed model's buffers, within four times its static
// schedule phase by phase; rot180 takes exactly the ILLIAC's corner-to-
// corner lower bound 4n − 4 data steps (two opposite corners' messages
// cross the whole mesh both ways, one direction a step), against 2n − 2
// on the distributed model.
func TestIlliacQH(t *testing.T) {
	for _, alg := range []string{AlgQ, AlgH} {
		for _, n := range []int{8, 16, 32} {
			for _, perm := range []string{"random", "rot180", "transpose"} {
				p, _ := Permutation(perm, n, 1)
				d, err := Run(alg, n, Buffers(alg, n), p, Static)
				if err != nil {
					t.Fatal(err)
				}
				for _, wrap := range []bool{false, true} {
					for _, sched := range Schedules {
						r, err := RunMeshOn(Hardware{ModelILLIAC, wrap}, alg, n, n, Buffers(alg, n), Lists(p), sched, nil)
						if err != nil {
							t.Fatalf("%s n=%d %s %s: %v", alg, n, perm, sched, err)
						}
						if r.MaxBuffer > d.Bound.MaxBuffer || r.TotalSteps > 4*d.TotalSteps {
							t.Errorf("%s n=%d %s %s: %d steps (distributed static %d), buffers %d", alg, n, perm, sched, r.TotalSteps, d.TotalSteps, r.MaxBuffer)
						}
						if perm == "rot180" && sched == Actual && r.DataSteps != int64(4*n-4) {
							t.Errorf("%s n=%d rot180: %d data steps on the ILLIAC, want 4n − 4 = %d", alg, n, r.DataSteps, 4*n-4)
						}
					}
				}
			}
		}
	}
}
