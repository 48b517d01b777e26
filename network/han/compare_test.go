package han

import "testing"

// The greedy baselines hold a whole row at one processor on the transpose
// (n messages: digest 002 §4.3), Q and H no more than their pools at every
// side (and the same most at every side).
func TestCompareBuffers(t *testing.T) {
	sides := []int{8, 16, 32}
	pts, err := Compare(sides)
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != len(sides)*len(CompareAlgorithms) {
		t.Fatalf("%d points", len(pts))
	}
	first := map[string]int{}
	for _, p := range pts {
		switch p.Algorithm {
		case AlgGreedy, AlgGreedyFF:
			if p.MaxBuffer != p.N || p.Input != "transpose" || p.Bound != p.N {
				t.Errorf("%+v: want n on the transpose", p)
			}
		default:
			if _, ok := first[p.Algorithm]; !ok {
				first[p.Algorithm] = p.MaxBuffer
			}
			if p.MaxBuffer > p.Bound || p.MaxBuffer != first[p.Algorithm] || p.MaxBuffer < 3 {
				t.Errorf("%+v: want one value ≤ the bound at every side", p)
			}
		}
	}
	if err := CompareSides([]int{12}); err == nil {
		t.Error("side 12 accepted")
	}
}
