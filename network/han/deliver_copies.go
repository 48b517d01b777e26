package han

// Delivery of a restricted broadcast in regions of one column (Q and H on
// rectangles, §3.6.4, §4.6.5): a message may still carry several
// destinations of its column. It is routed as a message to its farthest
// destination on each side, farthest first as deliver's permutation
// messages are (one north, one south a processor a step), and leaves a
// copy behind where it must: a message sent north while it has
// destinations south or at its own processor goes as a copy carrying the
// northern ones (and the same southwards), so that a message passes each
// destination on its way and stays at the last.

// columnCopies moves the active messages to their destinations in their
// columns and returns the steps taken.
func (r *router) columnCopies(active []int32) (int64, error) {
	m := r.m
	N, cols := m.Processors(), int32(m.Cols)
	far := [2][]int32{make([]int32, N), make([]int32, N)} // per processor: the chosen message's distance north, south
	var steps int64
	var moves []Move
	var parts [][]int32 // per move: the destinations the message (or copy) sent carries
	for len(active) > 0 {
		steps++
		r.stamp++
		for _, id := range active {
			p := m.Loc(id)
			if r.bestStep[p] != r.stamp {
				r.bestStep[p], r.bestN[p], r.bestS[p] = r.stamp, -1, -1
			}
			n, _, s := r.sides(id)
			for k, best := range [2]*int32{&r.bestN[p], &r.bestS[p]} {
				d := [2]int32{reach(n, p, cols), reach(s, p, cols)}[k]
				if d > 0 && (*best < 0 || d > far[k][p]) {
					*best, far[k][p] = id, d
				}
			}
		}
		moves, parts = moves[:0], parts[:0]
		for _, id := range active {
			moves, parts = r.copyMoves(id, moves, parts)
		}
		if err := r.data(moves); err != nil {
			return steps, err
		}
		for k, mv := range moves {
			if !mv.Copy {
				continue
			}
			for int(mv.New) >= len(r.dests) {
				r.dests = append(r.dests, nil)
			}
			r.dests[mv.New] = parts[k]
			active = append(active, mv.New)
		}
		active = slicesDeleteDone(active, func(i int) bool {
			ds := r.dests[active[i]]
			return len(ds) == 1 && ds[0] == m.Loc(active[i])
		})
	}
	return steps, nil
}

// sides splits message id's destinations into those north of it, at its
// processor and south of it.
func (r *router) sides(id int32) (n, here, s []int32) {
	cols := int32(r.m.Cols)
	x := r.m.Loc(id) / cols
	for _, d := range r.dests[id] {
		switch {
		case d/cols < x:
			n = append(n, d)
		case d/cols > x:
			s = append(s, d)
		default:
			here = append(here, d)
		}
	}
	return n, here, s
}

// reach is the farthest row distance from processor p to ds (0: none).
func reach(ds []int32, p, cols int32) int32 {
	far := int32(0)
	for _, d := range ds {
		far = max(far, abs32(d/cols-p/cols))
	}
	return far
}

// copyMoves appends message id's moves of the step (those it won) and the
// destinations each carries, and leaves the message the rest.
func (r *router) copyMoves(id int32, moves []Move, parts [][]int32) ([]Move, [][]int32) {
	p := r.m.Loc(id)
	goN, goS := r.bestStep[p] == r.stamp && r.bestN[p] == id, r.bestStep[p] == r.stamp && r.bestS[p] == id
	if !goN && !goS {
		return moves, parts
	}
	n, here, s := r.sides(id)
	keep := here
	if goN {
		cp := len(here)+len(s) > 0
		moves, parts = append(moves, Move{From: p, Dir: North, Msg: id, Copy: cp}), append(parts, n)
		if !cp {
			keep = n
		}
	} else {
		keep = append(keep, n...)
	}
	if goS {
		cp := len(here) > 0 || len(n) > 0 && !goN
		moves, parts = append(moves, Move{From: p, Dir: South, Msg: id, Copy: cp}), append(parts, s)
		if !cp {
			keep = s
		}
	} else if len(s) > 0 {
		keep = append(keep, s...)
	}
	r.dests[id] = keep
	return moves, parts
}
