package han

import (
	"fmt"
	"io"
	"math"
)

// Q on K-dimensional meshes (§3.6.2; digest 002 §3.6.2): on n^K (n = 2^p),
// every stage splits each region of side s into 2^K sub-hypercubes of
// side s/2 and moves every message to the same relative position in its
// destination's, then smooths the sub-hypercubes (2^K messages a
// processor at most: K − 1 row movements and a column movement, b = 2^K)
// and recurses. The thesis gives the move's cost ("optimistic"
// 2^K·s/(2K) a stage: a processor receives at most K messages per s/2
// steps) but no procedure, and says contention exists; here a message
// takes its axes in order (axis 0 first, as Q's column first), with the k²
// move's priorities (moving straight first, then the farthest to go). A
// move that outlasts the claim is reported as a deviation. A processor
// holds at most 2^K messages after a move, and 2^K + 2 during one
// (QKDBuffers).

// VariantQKD names K-D Q (route --variant kd with --algorithm q).
const VariantQKD = "kd"

// QKDBound is §3.6.2's solution on n^K: (2^K/K)n + {(K−1)2^K(2^K+2)/
// (4(2^K+1)) + (2^K−1)/2^K}n data steps, (K − ½)n integer steps; Table 5.1's
// 2^K + 1 buffers (2^K after a move).
func QKDBound(n, K int) Bound {
	f, P := float64(n), math.Ldexp(1, K)
	data := (P/float64(K) + float64(K-1)*P*(P+2)/(4*(P+1)) + (P-1)/P) * f
	integer := (float64(K) - 0.5) * f
	return Bound{data, integer, data + integer, int(P) + 1, int(P),
		fmt.Sprintf("Han 1990 §3.6.2, Table 5.1: Q on K-D, K = %d: (2^K/K)n + {(K−1)2^K(2^K+2)/(4(2^K+1)) + (2^K−1)/2^K}n data + (K − ½)n integer steps, 2^K + 1 buffers", K)}
}

// QKDBuffers is the pool K-D Q needs here: 2^K + 2, one more than Table
// 5.1's 2^K + 1. With the moves' priorities, once a processor holds its
// 2^K arrivals two turning messages can still pass through it, as in
// §3.6.1's k² move (k² + 2): measured on the crowded move for K ≥ 4
// (QKDHotSpot: 18 on 8⁴, 34 on 8⁵).
func QKDBuffers(_, K int) int { return 1<<K + 2 }

// RunQKD routes a (partial) permutation of the n^K processors with Q.
func RunQKD(K, n, buffers int, dests [][]int32, schedule string, log io.Writer) (*Result, error) {
	return runKD(AlgQ+"-"+VariantQKD, K, n, buffers, dests, schedule, log, QKDBound(n, K), (*kd).runQ)
}

// runQ is Q's stages: the move into sub-hypercubes, then smoothing them
// (those of one processor need none).
func (k *kd) runQ() error {
	r := k.r
	k.b = 1 << k.K
	for wide(k.bands[0]) {
		s := widest(k.bands[0])
		r.res.Stages = append(r.res.Stages, Stage{Side: s})
		r.stage = &r.res.Stages[len(r.res.Stages)-1]
		if err := k.moveQ(s); err != nil {
			return err
		}
		for a := range k.K {
			k.bands[a] = halve(k.bands[a])
		}
		if err := k.smooth(); err != nil {
			return err
		}
	}
	return nil
}

// moveQ is the move into sub-hypercubes on every region of side s.
func (k *kd) moveQ(s int) error {
	k.index()
	m, r := k.m, k.r
	K := k.K
	hops := make([]int32, 0, K*len(r.dests)) // per traveller and axis
	var ids []int32
	for id := range int32(len(r.dests)) {
		p, d := m.Loc(id), r.dests[id][0]
		moving := false
		for a := range K {
			b, i := k.local(p, a)
			l, j := b.n-b.n/2, m.Coord(d, a)-b.start
			h := int32(0)
			if (i < l) != (j < l) {
				h, moving = int32(l), true
				if i >= l {
					h = -h
				}
			}
			hops = append(hops, h)
		}
		if moving {
			ids = append(ids, id)
		} else {
			hops = hops[:len(hops)-K]
		}
	}
	m.PhaseStart(r.stage.Side, "move")
	steps, err := k.travelAxes(ids, hops)
	if err != nil {
		return err
	}
	claim := int64(math.Ceil(math.Ldexp(1, K) * float64(s) / float64(2*K)))
	return r.recordClaimedMove(Phase{Phase: "move", Kind: "data", Region: k.regionName(), Static: claim, Actual: steps, MaxBuffer: m.PhaseHeld()},
		"the K-D move", "§3.6.2's optimistic 2^K·s/(2K)")
}

// travelAxes moves travellers ids (hops: K per traveller, their axes
// taken in order) one hop a step where they win their channel: the one
// that crossed into its processor in the same direction the step before,
// else the one with most hops left, ties to the lower traveller. It
// returns the steps taken.
func (k *kd) travelAxes(ids []int32, hops []int32) (int64, error) {
	m, r, K := k.m, k.r, k.K
	nd := 2 * K
	win := make(map[int]int, len(ids)) // channel (processor·2K + direction) → traveller
	last := make([]int64, len(ids))
	lastDir := make([]Dir, len(ids))
	left := func(t int) int32 {
		var s int32
		for _, h := range hops[t*K : t*K+K] {
			s += abs32(h)
		}
		return s
	}
	next := func(t int) (int, Dir) {
		for a, h := range hops[t*K : t*K+K] {
			if h != 0 {
				return a, AxisDir(a, h > 0)
			}
		}
		return -1, 0
	}
	live := make([]int, len(ids))
	for i := range live {
		live[i] = i
	}
	var steps int64
	var moves []Move
	var who []int
	for len(live) > 0 {
		steps++
		clear(win)
		key := func(t int, d Dir) int32 {
			if last[t] == steps-1 && lastDir[t] == d {
				return 1 << 30
			}
			return left(t)
		}
		for _, t := range live {
			_, d := next(t)
			c := int(m.Loc(ids[t]))*nd + int(d)
			if u, ok := win[c]; !ok || key(t, d) > key(u, d) || key(t, d) == key(u, d) && t < u {
				win[c] = t
			}
		}
		moves, who = moves[:0], who[:0]
		for _, t := range live {
			_, d := next(t)
			if win[int(m.Loc(ids[t]))*nd+int(d)] == t {
				moves, who = append(moves, Move{From: m.Loc(ids[t]), Dir: d, Msg: ids[t]}), append(who, t)
			}
		}
		if err := r.data(moves); err != nil {
			return steps, err
		}
		for i, t := range who {
			a, _ := next(t)
			hops[t*K+a] -= max(min(hops[t*K+a], 1), -1)
			last[t], lastDir[t] = steps, moves[i].Dir
		}
		live = slicesDeleteDone(live, func(i int) bool { return left(live[i]) == 0 })
	}
	return steps, nil
}

// QKDHotSpot is §3.6.2's crowded move on n^K: the 2^K corresponding
// processors of the first (n/2)^K / 2^K relative positions all send into
// the first sub-hypercube, to distinct processors, so that after the move
// each of those positions there holds 2^K messages.
func QKDHotSpot(n, K int) []int32 {
	N, q, P := pow(n, K), n/2, 1<<K
	dest := make([]int32, N)
	for i := range dest {
		dest[i] = -1
	}
	at := func(c []int) int32 { // (coordinates → processor)
		p := 0
		for _, x := range c {
			p = p*n + x
		}
		return int32(p)
	}
	next := 0 // the next free processor of the first sub-hypercube (row-major in it)
	c := make([]int, K)
	for r := range pow(q, K) / P {
		for corner := range P {
			for a, x := 0, r; a < K; a++ {
				c[K-1-a] = x%q + (corner>>a&1)*q
				x /= q
			}
			d := make([]int, K)
			for a, x := 0, next; a < K; a++ {
				d[K-1-a], x = x%q, x/q
			}
			dest[at(c)] = at(d)
			next++
		}
	}
	return dest
}
