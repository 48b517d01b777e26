package collective

import (
	"slices"
	"testing"
)

// mnbStepsRef is the first, direct reading of mnbSteps (every slot lists
// and sorts all candidates): the incremental one must build the same tree.
func mnbStepsRef(d int) [][]bcastStep {
	n := 1 << d
	have := make([]bool, n)
	have[0] = true
	left := n - 1
	var steps [][]bcastStep
	for left > 0 {
		cand := make([][]int32, d)
		for y := 1; y < n; y++ {
			if have[y] {
				continue
			}
			for j := 0; j < d; j++ {
				if have[y^1<<j] {
					cand[j] = append(cand[j], int32(y))
				}
			}
		}
		held := func(y int32) int {
			c := 0
			for j := 0; j < d; j++ {
				if have[int(y)^1<<j] {
					c++
				}
			}
			return c
		}
		for j := range cand {
			sortBy(cand[j], held)
		}
		match := matchDims(cand, n)
		var st []bcastStep
		for j, y := range match {
			if y >= 0 {
				st = append(st, bcastStep{Off: y ^ 1<<j, Dim: int32(j)})
				have[y] = true
				left--
			}
		}
		steps = append(steps, st)
	}
	return steps
}

func TestMnbStepsSameTree(t *testing.T) {
	for d := 1; d <= 10; d++ {
		if got, want := mnbSteps(d), mnbStepsRef(d); !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("d=%d: the incremental tree differs from the direct one", d)
		}
	}
}
