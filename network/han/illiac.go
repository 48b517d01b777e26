package han

// The algorithms on the ILLIAC model (Machine.SIMD; §1.4.1, §5.2): a step
// of the distributed model, whose processors send in up to four
// directions, becomes one machine step per direction it uses — north,
// east, south, west — as a controller broadcasting one send instruction
// at a time would run it (§5.2: "a straightforward application … requires
// four times more routing steps", fewer where a phase moves one way). A
// phase's static length is the distributed one times the directions the
// phase can use (dirFactor).

// data runs one distributed step's moves on the machine.
func (r *router) data(moves []Move) error {
	m := r.m
	if !m.SIMD {
		return m.Data(moves)
	}
	for d := North; d <= West; d++ {
		r.sub = r.sub[:0]
		for _, mv := range moves {
			if mv.Dir == d {
				r.sub = append(r.sub, mv)
			}
		}
		if len(r.sub) == 0 {
			continue
		}
		if err := m.Data(r.sub); err != nil {
			return err
		}
	}
	return nil
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
