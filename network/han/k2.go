package han

import (
	"fmt"
	"io"
)

// Q with k² partitions (§3.6.1, digest 002 §3.6.1): on an n×n mesh, n =
// k^p (k even, k ≥ 4), every stage on s×s regions moves every message to
// the same relative position in its destination's submesh of s/k × s/k
// (column first, then row, 0, s/k, …, (k−1)s/k hops each way), then smooths
// every submesh (k² buffers' worth) and recurses. The move is not
// contention-free: a message moving straight keeps its channel; among the
// messages waiting or turning, the one with farthest to go wins. A
// processor holds at most k² + 2 messages during a move and k² after.

// VariantK2 names Q with k² partitions (route --variant k2).
const VariantK2 = "k2"

// K2Sides says whether Q with k² partitions runs on an n×n mesh, as a
// bad-input message naming what is wrong ("" when it does).
func K2Sides(n, k int) string {
	switch {
	case k < 4 || k%2 != 0 || k > 16:
		return fmt.Sprintf("route.k=%d: the partitions a side makes must be an even number from 4 to 16", k)
	case n <= k || n > MaxSide(AlgQ) || !powerOf(n, k):
		return fmt.Sprintf("topology.k=%d: Q with route.k=%d needs a side that is a power of %d, above %d and at most %d", n, k, k, k, MaxSide(AlgQ))
	}
	return ""
}

// K2Bound is §3.6.1's bound on n×n: (5k+3)/4·n data and 1.5/(k−1)·n
// integer steps, k² + 2 buffers (k² after a move).
func K2Bound(n, k int) Bound {
	f, kf := float64(n), float64(k)
	data, integer := (5*kf+3)/4*f, 1.5/(kf-1)*f
	return Bound{data, integer, data + integer, k*k + 2, k * k,
		fmt.Sprintf("Han 1990 §3.6.1: Q with k² partitions, k = %d: (5k+3)/4·n data + 1.5/(k−1)·n integer steps, k² + 2 buffers", k)}
}

// RunK2 routes a (partial) permutation with Q on k² partitions on an n×n
// mesh of pools of buffers messages.
func RunK2(n, k, buffers int, dests [][]int32, schedule string, log io.Writer) (*Result, error) {
	if msg := K2Sides(n, k); msg != "" {
		return nil, fmt.Errorf("%s", msg)
	}
	return runVariant(AlgQ+"-"+VariantK2, n, buffers, dests, schedule, log, K2Bound(n, k), func(r *router) error { return r.runK2(n, k) })
}

// runK2 is the stages on s = n, n/k, …, k: the move takes at most (k−1)s
// steps (§3.6.1); the submeshes of the last stage are single processors.
func (r *router) runK2(n, k int) error {
	for s := n; s >= k; s /= k {
		w := s / k
		r.res.Stages = append(r.res.Stages, Stage{Side: s})
		r.stage = &r.res.Stages[len(r.res.Stages)-1]
		if err := r.movePriority(s, w, int64((k-1)*s)); err != nil {
			return err
		}
		if w >= 2 {
			if err := r.smooth(w, w, k*k); err != nil {
				return err
			}
		}
	}
	return nil
}

// movePriority is the k² move on every s×s region into submeshes of w×w.
func (r *router) movePriority(s, w int, static int64) error {
	m := r.m
	var ts []trav
	for id := range int32(len(r.dests)) {
		ts = r.plan(ts, id, s, s, w, w)
	}
	m.PhaseStart(r.stage.Side, "move")
	steps, err := r.travelPriority(ts)
	if err != nil {
		return err
	}
	return r.recordClaimedMove(Phase{Phase: "move", Kind: "data", Region: fmt.Sprintf("%dx%d", s, s), Static: static, Actual: steps, MaxBuffer: m.PhaseHeld()},
		"the k² move", "§3.6.1's (k−1)s")
}

// recordClaimedMove records a move whose static length is the thesis's
// claim for its priorities, not a proof: an input that outlasts it is
// reported (Result.Deviations), and its static schedule waits for the last
// message rather than deliver it late.
func (r *router) recordClaimedMove(ph Phase, what, claim string) error {
	r.res.MaxBufferAfterMove = max(r.res.MaxBufferAfterMove, r.m.Held())
	if ph.Actual > ph.Static {
		ph.OverStatic, ph.Static = ph.Static, ph.Actual
		r.res.Deviations = append(r.res.Deviations, fmt.Sprintf("stage %d: %s took %d steps, past %s = %d", r.stage.Side, what, ph.Actual, claim, ph.OverStatic))
	}
	return r.record(ph)
}

// travelPriority moves permutation travellers (column leg, then row leg)
// with §3.6.1's priorities: each step every out-channel takes the message
// that crossed into its processor in the same direction the step before
// (moving straight), else the one with the most hops left, ties to the
// lower traveller. It returns the steps taken.
func (r *router) travelPriority(ts []trav) (int64, error) {
	m := r.m
	n4 := 4 * m.Processors()
	if len(r.win) < n4 {
		r.win, r.winStep = make([]int32, n4), make([]int64, n4)
	}
	last := make([]int64, len(ts)) // per traveller: the step it last moved (its direction: lastDir)
	lastDir := make([]Dir, len(ts))
	live := make([]int32, len(ts))
	for i := range live {
		live[i] = int32(i)
	}
	key := func(i int32, step int64, d Dir) int32 {
		t := &ts[i]
		if last[i] == step-1 && lastDir[i] == d {
			return 1 << 30
		}
		return abs32(t.dv) + abs32(t.dh)
	}
	var steps int64
	var moves []Move
	var who []int32
	for len(live) > 0 {
		steps++
		r.stamp++
		for _, i := range live {
			d, ok := stepDir(&ts[i], steps)
			if !ok {
				continue
			}
			c := int(m.Loc(ts[i].id))*4 + int(d)
			if r.winStep[c] != r.stamp {
				r.winStep[c], r.win[c] = r.stamp, i
				continue
			}
			if j := r.win[c]; key(i, steps, d) > key(j, steps, d) || key(i, steps, d) == key(j, steps, d) && i < j {
				r.win[c] = i
			}
		}
		moves, who = moves[:0], who[:0]
		for _, i := range live {
			t := &ts[i]
			d, ok := stepDir(t, steps)
			if !ok || r.win[int(m.Loc(t.id))*4+int(d)] != i || r.winStep[int(m.Loc(t.id))*4+int(d)] != r.stamp {
				continue
			}
			moves, who = append(moves, Move{From: m.Loc(t.id), Dir: d, Msg: t.id}), append(who, i)
		}
		if err := r.data(moves); err != nil {
			return steps, err
		}
		for k, mv := range moves {
			i := who[k]
			t := &ts[i]
			switch mv.Dir {
			case South:
				t.dv--
			case North:
				t.dv++
			case East:
				t.dh--
			default:
				t.dh++
			}
			last[i], lastDir[i] = steps, mv.Dir
		}
		live = slicesDeleteDone(live, func(k int) bool { t := &ts[live[k]]; return t.dv == 0 && t.dh == 0 })
	}
	return steps, nil
}

// stepDir is a traveller's hop in step: its next, unless that is south in
// its banned steps (then its row leg, or none: it waits).
func stepDir(t *trav, step int64) (Dir, bool) {
	d := nextDir(t)
	if d != South || step < int64(t.banLo) || step > int64(t.banHi) {
		return d, true
	}
	switch {
	case t.dh > 0:
		return East, true
	case t.dh < 0:
		return West, true
	}
	return South, false
}

// nextDir is a permutation traveller's next hop: its column leg first
// (rowFirst: its row leg).
func nextDir(t *trav) Dir {
	switch {
	case t.rowFirst && t.dh > 0:
		return East
	case t.rowFirst && t.dh < 0:
		return West
	case t.dv > 0:
		return South
	case t.dv < 0:
		return North
	case t.dh > 0:
		return East
	}
	return West
}
