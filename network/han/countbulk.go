package han

// A counting phase's waves are legal by construction — every wave stays
// in its region, and a step sends at most one integer a link direction
// (one east and one west send a row, one south or north send a column
// and half) — and their values are prefix sums: what a processor has
// received from the west when the row wave has passed is the count of the
// messages to its west, from the east those to its east, and the column
// wave brings a half's row the total of the rows before it (Lemmas 3.1,
// 4.1). So, with no step log and on the distributed model, countBulk
// writes what the waves would deliver and counts their steps, without
// sending them one by one.

// countBulk leaves r.cnt's w, e and above as steps integer steps of
// waveSends on g's regions would, and counts the steps; ok false: the
// waves must run on the machine (ILLIAC, a K-D machine or a step log).
func (r *router) countBulk(g grid, steps int) bool {
	m := r.m
	if m.SIMD || m.Dims != nil || m.Log != nil {
		return false
	}
	for _, a := range g.rows {
		for _, b := range g.cols {
			r.countRegion(a, b)
		}
	}
	m.steps += uint32(steps)
	m.IntegerSteps += int64(steps)
	return true
}

// countRegion is one region's waves: the row waves, then the column
// waves down the top half and up the bottom half.
func (r *router) countRegion(a, b span) {
	m, k := r.m, r.cnt
	R, C := a.n, b.n
	at := func(i int) int { return (a.start+i)*m.Cols + b.start }
	var total [2]int32 // per half: the rows' totals so far
	top := R / 2
	for i := range R { // (the top half top-down, the bottom half bottom-up; each row's own order does not matter)
		row := i
		if i >= top {
			row = R - 1 - (i - top)
		}
		ks := k[at(row):][:C]
		w := int32(0)
		for j := range ks {
			ks[j].w, w = w, w+ks[j].z
		}
		e := int32(0)
		for j := C - 1; j >= 0; j-- {
			ks[j].e, e = e, e+ks[j].z
		}
		h := b2i(i >= top)
		for j := range ks {
			ks[j].above = total[h]
		}
		total[h] += w
	}
}
