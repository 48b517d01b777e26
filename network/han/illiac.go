package han

import "slices"

// The algorithms on the ILLIAC model (Machine.SIMD; §1.4.1, §5.2): a step
// of the distributed model, whose processors send in up to four
// directions, becomes one machine step per direction it uses — north,
// east, south, west — as a controller broadcasting one send instruction
// at a time would run it (§5.2: "a straightforward application … requires
// four times more routing steps", fewer where a phase moves one way). A
// phase's static length is the distributed one times the directions the
// phase can use (dirFactor).

// data runs one distributed step's moves on the machine. A restricted
// broadcast's message may leave as copies and itself in one step: on the
// ILLIAC model its copies go first (copying inside a processor is free,
// §3.5), so a move that would take it away before a copy in a later
// direction waits for a second round of directions. The copies' new ids
// are written back into moves.
func (r *router) data(moves []Move) error {
	m := r.m
	if !m.SIMD {
		return m.Data(moves)
	}
	late := r.lateMoves(moves)
	for round := range 2 {
		for d := North; d <= West; d++ {
			r.sub, r.subAt = r.sub[:0], r.subAt[:0]
			for i, mv := range moves {
				if mv.Dir == d && late(i) == (round == 1) {
					r.sub, r.subAt = append(r.sub, mv), append(r.subAt, int32(i))
				}
			}
			if len(r.sub) == 0 {
				continue
			}
			if err := m.Data(r.sub); err != nil {
				return err
			}
			for k, i := range r.subAt {
				moves[i].New = r.sub[k].New
			}
		}
	}
	return nil
}

// lateMoves says which of moves wait for the second round: a message's
// own move in a direction before one of its copies'.
func (r *router) lateMoves(moves []Move) func(i int) bool {
	if !slices.ContainsFunc(moves, func(mv Move) bool { return mv.Copy }) {
		return func(int) bool { return false }
	}
	r.copyStamp++
	if n := r.m.Messages(); len(r.copyDir) < n {
		r.copyDir, r.copyAt = make([]Dir, n), make([]uint32, n)
	}
	for _, mv := range moves {
		if mv.Copy && (r.copyAt[mv.Msg] != r.copyStamp || mv.Dir > r.copyDir[mv.Msg]) {
			r.copyAt[mv.Msg], r.copyDir[mv.Msg] = r.copyStamp, mv.Dir
		}
	}
	return func(i int) bool {
		mv := moves[i]
		return !mv.Copy && r.copyAt[mv.Msg] == r.copyStamp && r.copyDir[mv.Msg] > mv.Dir
	}
}

// integer runs one distributed step's integer sends on the machine and
// returns the deliveries (valid until the next call).
func (r *router) integer(sends []IntSend) ([]IntSend, error) {
	m := r.m
	if !m.SIMD {
		return m.Integer(sends)
	}
	r.inbox = r.inbox[:0]
	for d := North; d <= West; d++ {
		r.subInt = r.subInt[:0]
		for _, s := range sends {
			if s.Dir == d {
				r.subInt = append(r.subInt, s)
			}
		}
		if len(r.subInt) == 0 {
			continue
		}
		got, err := m.Integer(r.subInt)
		if err != nil {
			return nil, err
		}
		r.inbox = append(r.inbox, got...)
	}
	return r.inbox, nil
}

// dirFactor is how many directions phase ph of alg can use in one
// distributed step: its static length on the ILLIAC model is that many
// times the distributed one.
func dirFactor(alg, phase string) int64 {
	switch {
	case phase == "count", phase == "move" && alg != AlgH:
		return 4 // (row waves east and west, column waves north and south; Q's column and row legs)
	}
	return 2 // (one axis, both ways)
}
