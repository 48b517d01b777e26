package han

// Row movement (rowMoveRegions) moves messages only along rows, so each
// row's steps can be run on their own, in a row's few kilobytes of pools,
// instead of a Move list a step through Machine.Data: the same rule a step
// (a processor sends its first message east while it has east flow left,
// and its next west; a link direction carries one message — by
// construction, a processor sends at most once a direction; the pools are
// committed as Data commits them: the senders drop what they sent, then the
// arrivals come in the moves' order, from the west neighbour before the
// east), on copies of the pools. Only when every row finished within the
// rules are the copies swapped in; a pool past Buffers, a send off the
// mesh or a row that cannot send leaves the machine untouched and the
// phase runs through Data, which refuses it (or rowMoveRegions reports it
// stuck) as before. Wraparound, the ILLIAC model, a K-D machine and a step
// log take the step path.

// rowBulk is rowMoveBulk's scratch, kept between phases.
type rowBulk struct {
	slots, cnt []int32   // the pools being worked on (swapped with the machine's)
	act        []int32   // a row's processors with flow left
	fe, fw     []int32   // per column of the row: east and west flow left
	stay       []int32   // per processor: how many of its pool's first messages never moved
	sends      []rowSend // a step's senders
	Runs       int       // (tests: phases tried here)
}

// rowSend is a sender of a step: its column, how many it sends (its first
// k messages) and the messages sent east and west (−1: none).
type rowSend struct{ x, k, e, w int32 }

// rowMoveBulk runs row movement for active (processors in order, with
// r.sendE and r.sendW their flows) row by row, and returns the steps
// taken; ok false: nothing changed.
func (r *router) rowMoveBulk(active []int32) (steps int64, ok bool) {
	m, b := r.m, &r.rowBulk
	if m.SIMD || m.Wrap || m.Dims != nil || m.Log != nil || len(active) == 0 {
		return 0, false
	}
	b.Runs++
	b.slots, b.cnt = grow(b.slots, len(m.slots)), grow(b.cnt, len(m.cnt))
	b.fe, b.fw, b.stay = grow(b.fe, m.Cols), grow(b.fw, m.Cols), grow(b.stay, len(m.cnt))
	copy(b.slots, m.slots)
	copy(b.cnt, m.cnt)
	cols := int32(m.Cols)
	held := int32(m.phaseHeld)
	for i := 0; i < len(active); {
		row, j := active[i]/cols, i
		for j < len(active) && active[j]/cols == row {
			j++
		}
		st, fine := r.rowLine(row, active[i:j], &held)
		if !fine {
			return 0, false
		}
		steps, i = max(steps, st), j
	}
	m.slots, b.slots = b.slots, m.slots
	m.cnt, b.cnt = b.cnt, m.cnt
	for i := 0; i < len(active); { // (the moved messages' places)
		row := active[i] / cols
		for p := row * cols; p < (row+1)*cols; p++ {
			for _, id := range m.Pool(p)[b.stay[p]:] {
				m.loc[id] = p
			}
		}
		for i < len(active) && active[i]/cols == row {
			i++
		}
	}
	for _, p := range active { // (all sent, as the step path leaves them)
		r.sendE[p], r.sendW[p] = 0, 0
	}
	m.steps += uint32(steps)
	m.DataSteps += steps
	m.held(int(held))
	return steps, true
}

// rowLine runs row's row movement in b's pools; its processors with flow
// are act. held grows to the most messages a receiver held.
func (r *router) rowLine(row int32, act []int32, held *int32) (steps int64, ok bool) {
	m, b := r.m, &r.rowBulk
	B, cols := int32(m.Buffers), int32(m.Cols)
	b.act = append(b.act[:0], act...)
	fe, fw, p0 := b.fe, b.fw, row*cols // (only act's columns are read)
	stay := b.stay[p0 : p0+cols]       // (a pool's first messages: those that stayed, then the arrivals)
	copy(stay, b.cnt[p0:p0+cols])
	for _, p := range act {
		fe[p-p0], fw[p-p0] = r.sendE[p], r.sendW[p]
	}
	for {
		sends, k := b.sends[:0], 0
		for _, p := range b.act { // (dropping those with no flow left, and taking the step's flow)
			x := p - p0
			if fe[x]+fw[x] == 0 {
				continue
			}
			b.act[k] = p
			k++
			s := rowSend{x: p, e: -1, w: -1}
			c, pool := b.cnt[p], b.slots[p*B:]
			if fe[x] > 0 && s.k < c {
				s.e, s.k = pool[0], 1
				fe[x]--
			}
			if fw[x] > 0 && s.k < c {
				s.w = pool[s.k]
				s.k++
				fw[x]--
			}
			if s.k > 0 {
				sends = append(sends, s)
			}
		}
		b.act, b.sends = b.act[:k], sends
		if k == 0 {
			break
		}
		if len(sends) == 0 {
			return 0, false // (stuck: the step path reports it)
		}
		steps++
		for _, s := range sends { // (the senders drop their first k)
			pool := b.slots[s.x*B : s.x*B+b.cnt[s.x]]
			for i := s.k; i < int32(len(pool)); i++ { // (a few: no memmove call)
				pool[i-s.k] = pool[i]
			}
			b.cnt[s.x] -= s.k
			stay[s.x-p0] = max(stay[s.x-p0]-s.k, 0)
		}
		for _, s := range sends { // (arrivals in the moves' order)
			if s.e >= 0 && !r.rowArrive(s.x, 1, s.e, row, cols, B, held) ||
				s.w >= 0 && !r.rowArrive(s.x, -1, s.w, row, cols, B, held) {
				return 0, false
			}
		}
	}
	return steps, true
}

// rowArrive puts message id, sent from p by d columns, in its receiver's
// pool, or says it cannot (off the row, or past B).
func (r *router) rowArrive(p, d, id, row, cols, B int32, held *int32) bool {
	b := &r.rowBulk
	q := p + d
	if q < row*cols || q >= (row+1)*cols {
		return false
	}
	c := b.cnt[q]
	if c >= B {
		return false
	}
	b.slots[q*B+c] = id
	b.cnt[q] = c + 1
	*held = max(*held, c+1)
	return true
}
