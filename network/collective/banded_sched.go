package collective

import (
	"math/bits"
	"slices"
)

// Banded-matrix transposition, the offline part (digest 000a §4.7 (a),
// (b)): the global order τ of the nonzero β-strings and one symmetric
// β-dimension schedule that every node applies to its row slots.

// bandOrder is τ_0 … τ_{2^β−2}: the nonzero β-strings by decreasing
// weight, ties by increasing value (§4.7 (a)).
func bandOrder(beta int) []uint32 {
	var out []uint32
	for x := uint32(1); x < 1<<beta; x++ {
		out = append(out, x)
	}
	slices.SortStableFunc(out, func(a, b uint32) int { return bits.OnesCount32(b) - bits.OnesCount32(a) })
	return out
}

// A bandRow is a row slot of the β-schedule: its routing tag (β bits) and
// the step it is released in (A-rows 0; the B-row τ_k: k+1, once it has
// crossed its Gray link in step k).
type bandRow struct {
	tag     uint32
	release int
}

// bandRows are the A-rows (every nonzero β-string; slots 0..2^β−2) and
// the B-rows τ_k (slots 2^β−1+k).
func bandRows(beta int) []bandRow {
	var rows []bandRow
	for x := uint32(1); x < 1<<beta; x++ {
		rows = append(rows, bandRow{tag: x})
	}
	for k, tau := range bandOrder(beta) {
		rows = append(rows, bandRow{tag: tau, release: k + 1})
	}
	return rows
}

// bandSchedule finds the symmetric β-schedule (§4.7 (b)): in each of the
// 2^β steps a partial permutation of released rows × β dimensions, every
// row cleared by the end. Each β-link has exactly 2^β entries, so every
// column is matched in every step; a row is tight when its weight equals
// the steps left. Each step matches the tight rows first, then every
// column, by augmenting paths (which never unmatch a vertex), preferring
// the row with the least slack, then the heaviest; nil when this greedy
// search gets stuck (the digest's own search is a DFS; this one has not
// been seen to need backtracking for β ≤ 10).
func bandSchedule(beta int) [][]rowStep {
	rows := bandRows(beta)
	steps := 1 << beta
	left := make([]uint32, len(rows))
	for i, r := range rows {
		left[i] = r.tag
	}
	out := make([][]rowStep, steps)
	for t := 0; t < steps; t++ {
		avail := make([]uint32, len(rows)) // (unreleased rows have no entries yet)
		slack := make([]int, len(rows))
		for i, r := range rows {
			if r.release <= t {
				avail[i] = left[i]
			}
			slack[i] = steps - max(t, r.release) - bits.OnesCount32(left[i])
			if slack[i] < 0 {
				return nil
			}
		}
		m := newMatcher(len(rows), beta)
		m.reset(avail)
		for j := range m.byCol { // (least slack first, then heaviest: reset listed heaviest first)
			slices.SortStableFunc(m.byCol[j], func(a, b int32) int { return slack[a] - slack[b] })
		}
		for i := range rows {
			if avail[i] != 0 && slack[i] == 0 && !m.augmentRow(int32(i)) {
				return nil
			}
		}
		for j := 0; j < beta; j++ {
			if !m.augmentCol(int32(j)) {
				return nil
			}
		}
		for j := 0; j < beta; j++ {
			i := m.colRow[j]
			out[t] = append(out[t], rowStep{Row: i, Dim: int32(j)})
			left[i] &^= 1 << j
		}
	}
	for _, l := range left {
		if l != 0 {
			return nil
		}
	}
	return out
}
