package han

// Adversarial inputs of the digest (002 §5.4, §7) that take Q's first-stage
// smoothing phases to their worst-case lengths on an n×n mesh (n ≥ 8, a
// power of two; quadrant side q = n/2). Both are partial permutations into
// quadrant II, destinations in row-major order.

// WorstRowInput is Lemma 2.3's row input: the four corresponding processors
// of local (0,0), (1,0), (1,1) and (1,2) all send to quadrant II, so after
// the move its row 0 holds 4 messages and row 1 twelve in columns 0–2; for
// q = 8 the extras of row 1 fall at columns 4–7 and row movement carries 9
// messages over one link: ⌊1.2q⌋ steps.
func WorstRowInput(n int) []int32 {
	return intoQuadrantII(n, func(add func(r, c int)) {
		for _, l := range [][2]int{{0, 0}, {1, 0}, {1, 1}, {1, 2}} {
			for _, o := range [][2]int{{0, 0}, {0, n / 2}, {n / 2, 0}, {n / 2, n / 2}} {
				add(l[0]+o[0], l[1]+o[1])
			}
		}
	})
}

// WorstColumnInput sends mesh rows 0, 1, n/2 and n/2 + 1 to quadrant II:
// its rows 0 and 1 hold 4 messages a processor, and column movement takes
// Thm 2.3's q − 1 − ⌊(q−1)/4⌋ steps (6 for q = 8).
func WorstColumnInput(n int) []int32 {
	return intoQuadrantII(n, func(add func(r, c int)) {
		for _, r := range []int{0, 1, n / 2, n/2 + 1} {
			for c := range n {
				add(r, c)
			}
		}
	})
}

// intoQuadrantII gives the processors each names the destinations 0, 1, …
// of quadrant II in row-major order; the others send nothing.
func intoQuadrantII(n int, each func(add func(r, c int))) []int32 {
	dest := make([]int32, n*n)
	for i := range dest {
		dest[i] = -1
	}
	q, next := n/2, 0
	each(func(r, c int) {
		dest[r*n+c] = int32((next/q)*n + next%q)
		next++
	})
	return dest
}
