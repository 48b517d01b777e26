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

// The reference construction's matching (the schedule builds its tree
// incrementally, mnbCands.match; this is what it is compared with).

// matchDims matches dimensions to distinct candidates (a maximum matching
// by augmenting paths, first candidates first).
func matchDims(cand [][]int32, n int) []int32 {
	d := len(cand)
	dimOf := make(map[int32]int, d)
	match := make([]int32, d)
	for j := range match {
		match[j] = -1
	}
	var try func(j int, seen map[int32]bool) bool
	try = func(j int, seen map[int32]bool) bool {
		for _, y := range cand[j] {
			if seen[y] {
				continue
			}
			seen[y] = true
			o, taken := dimOf[y]
			if !taken || try(o, seen) {
				match[j], dimOf[y] = y, j
				return true
			}
		}
		return false
	}
	// Dimensions with the fewest candidates first.
	order := make([]int32, d)
	for j := range order {
		order[j] = int32(j)
	}
	sortBy(order, func(j int32) int { return len(cand[j]) })
	for _, j := range order {
		try(int(j), map[int32]bool{})
	}
	return match
}

// sortBy sorts xs by key, stably.
func sortBy(xs []int32, key func(int32) int) {
	keys := make(map[int32]int, len(xs))
	for _, x := range xs {
		keys[x] = key(x)
	}
	slices.SortStableFunc(xs, func(a, b int32) int { return keys[a] - keys[b] })
}
