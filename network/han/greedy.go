package han

import "fmt"

// runGreedy is greedy row-column routing (Han 1990 §1.4, the baselines):
// every message moves along its row to its destination column (contention-
// free: at most one message a processor, all moving in lock-step; n − 1
// steps), then along the column; each step every processor sends north and
// south one message each, the first arrived (or, with ff, the farthest from
// its row). Queues grow as they will: the pool is n messages, more than a
// column ever holds.
func (r *router) runGreedy(n int, ff bool) error {
	m := r.m
	r.res.Stages = append(r.res.Stages, Stage{Side: n})
	r.stage = &r.res.Stages[0]
	var ts []trav
	for id, ds := range r.dests {
		if len(ds) != 1 {
			return fmt.Errorf("greedy routing carries a message to one destination, and message %d has %d", id, len(ds))
		}
		p, d := m.Loc(int32(id)), ds[0]
		if dh := d%int32(n) - p%int32(n); dh != 0 {
			ts = append(ts, trav{id: int32(id), src: int32(id), parent: -1, dh: dh})
		}
	}
	region := fmt.Sprintf("%dx%d", n, n)
	m.PhaseStart(n, "row")
	steps, err := r.travel(ts, true)
	if err != nil {
		return err
	}
	r.res.MaxBufferAfterMove = m.Held()
	if err := r.record(Phase{Phase: "row", Kind: "data", Region: region, Static: int64(n - 1), Actual: steps, MaxBuffer: m.PhaseHeld()}); err != nil {
		return err
	}
	var active []int32
	r.target = make([]int32, len(r.dests))
	for id, ds := range r.dests {
		d := ds[0]
		r.target[id] = d / int32(n)
		if m.Loc(int32(id)) != d {
			active = append(active, int32(id))
		}
	}
	m.PhaseStart(n, "column")
	if steps, err = r.columnSteps(active, !ff); err != nil {
		return err
	}
	static := int64(2*n - 2) // (3n − 3 in all: a message can wait n − 2 steps)
	if ff {
		static = int64(n - 1)
	}
	return r.record(Phase{Phase: "column", Kind: "data", Region: region, Static: static, Actual: steps, MaxBuffer: m.PhaseHeld()})
}
