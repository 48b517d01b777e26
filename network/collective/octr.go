package collective

import "math/bits"

// A rowStep is one entry of a symmetric switching matrix S_t (digest 000a
// §4.3): every node sends the packet in its row slot Row over dimension
// Dim, and stores the packet arriving over Dim in row slot Row.
type rowStep struct{ Row, Dim int32 }

// octr decomposes the task matrix whose rows are tags (routing tags, d
// bits) into symmetric switching matrices by the Optimal Completion Time
// Rule (digest 000a §4.4): at every step one entry is cleared from every
// critical line (a row or column whose sum equals the current critical
// sum h). The matching that does so always exists (Theorem 4); it is found
// by augmenting paths — first from the critical rows, then from the
// critical columns, then from the other columns — since an augmenting path
// never unmatches a matched vertex, every critical line stays covered. A
// row is cleared on its highest-weight entry first among equals (heavy rows
// become critical soonest). The result has exactly h(T_0) steps when the
// task is isotropic (Theorem 5).
func octr(tags []uint32, d int) [][]rowStep {
	rows := append([]uint32(nil), tags...)
	var steps [][]rowStep
	m := newMatcher(len(rows), d)
	for {
		h, colSum := critical(rows, d)
		if h == 0 {
			return steps
		}
		m.reset(rows)
		for i, r := range rows {
			if bits.OnesCount32(r) == h {
				m.augmentRow(int32(i))
			}
		}
		for j := 0; j < d; j++ {
			if colSum[j] == h {
				m.augmentCol(int32(j))
			}
		}
		for j := 0; j < d; j++ {
			if colSum[j] > 0 && colSum[j] < h {
				m.augmentCol(int32(j))
			}
		}
		var st []rowStep
		for j := 0; j < d; j++ {
			if i := m.colRow[j]; i >= 0 {
				st = append(st, rowStep{i, int32(j)})
				rows[i] &^= 1 << j
			}
		}
		steps = append(steps, st)
	}
}

// critical is the critical sum h of the task matrix with rows rows, and
// its column sums.
func critical(rows []uint32, d int) (int, []int) {
	col := make([]int, d)
	h := 0
	for _, r := range rows {
		h = max(h, bits.OnesCount32(r))
		for x := r; x != 0; x &= x - 1 {
			col[bits.TrailingZeros32(x)]++
		}
	}
	for _, c := range col {
		h = max(h, c)
	}
	return h, col
}

// matcher is a bipartite matching between rows and the d columns over the
// 1-entries of a task matrix.
type matcher struct {
	rows   []uint32
	rowCol []int32 // per row: its column, or −1
	colRow []int32 // per column: its row, or −1
	seen   []int32 // per row: the search it was visited in
	stamp  int32
	d      int
	// byCol lists, per column, the rows with a 1 there, heaviest first.
	byCol [][]int32
}

func newMatcher(n, d int) *matcher {
	m := &matcher{rowCol: make([]int32, n), colRow: make([]int32, d), seen: make([]int32, n), d: d, byCol: make([][]int32, d)}
	return m
}

func (m *matcher) reset(rows []uint32) {
	m.rows = rows
	for i := range m.rowCol {
		m.rowCol[i] = -1
	}
	for j := range m.colRow {
		m.colRow[j] = -1
	}
	for j := range m.byCol {
		m.byCol[j] = m.byCol[j][:0]
	}
	// Rows by weight, heaviest first (a counting sort), listed per column.
	var byW [33][]int32
	for i, r := range rows {
		if r != 0 {
			w := bits.OnesCount32(r)
			byW[w] = append(byW[w], int32(i))
		}
	}
	for w := 32; w > 0; w-- {
		for _, i := range byW[w] {
			for x := rows[i]; x != 0; x &= x - 1 {
				j := bits.TrailingZeros32(x)
				m.byCol[j] = append(m.byCol[j], i)
			}
		}
	}
}

// augmentRow matches row i if an augmenting path from it exists.
func (m *matcher) augmentRow(i int32) bool {
	if m.rowCol[i] >= 0 {
		return true
	}
	m.stamp++
	return m.tryRow(i)
}

func (m *matcher) tryRow(i int32) bool {
	m.seen[i] = m.stamp
	for x := m.rows[i]; x != 0; x &= x - 1 {
		j := int32(bits.TrailingZeros32(x))
		r := m.colRow[j]
		if r < 0 || m.seen[r] != m.stamp && m.tryRow(r) {
			m.colRow[j], m.rowCol[i] = i, j
			return true
		}
	}
	return false
}

// augmentCol matches column j if an augmenting path from it exists,
// preferring a free heavy row.
func (m *matcher) augmentCol(j int32) bool {
	if m.colRow[j] >= 0 {
		return true
	}
	for _, i := range m.byCol[j] {
		if m.rowCol[i] < 0 {
			m.colRow[j], m.rowCol[i] = i, j
			return true
		}
	}
	m.stamp++
	for _, i := range m.byCol[j] {
		if m.seen[i] != m.stamp {
			m.seen[i] = m.stamp
			if c := m.rowCol[i]; m.tryCol(c, i) {
				m.colRow[j], m.rowCol[i] = i, j
				return true
			}
		}
	}
	return false
}

// tryCol finds row i's column c another row (an augmenting path from c).
func (m *matcher) tryCol(c, from int32) bool {
	for _, i := range m.byCol[c] {
		if i == from || m.seen[i] == m.stamp {
			continue
		}
		m.seen[i] = m.stamp
		if m.rowCol[i] < 0 || m.tryCol(m.rowCol[i], i) {
			m.colRow[c], m.rowCol[i] = i, c
			return true
		}
	}
	return false
}
