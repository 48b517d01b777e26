package han

import (
	"fmt"
	"io"
)

// k-strip H (§4.6.3, digest 002 §3.9.3): on an n×n mesh, n = k^p (k even,
// 4 ≤ k < n), every stage on s×s regions moves along rows into k vertical
// strips of s × s/k, smooths the strips, moves along columns into k squares
// of s/k a strip, smooths the squares, and recurses on them. A processor
// holds at most k + 1 messages during a move and k after. With k = 2 it is
// Algorithm H.

// VariantKStrip names k-strip H (route --variant kstrip).
const VariantKStrip = "kstrip"

// KStripSides says whether k-strip H runs on an n×n mesh with k strips,
// as a bad-input message naming what is wrong ("" when it does).
func KStripSides(n, k int) string {
	switch {
	case k < 4 || k%2 != 0 || k > 64:
		return fmt.Sprintf("route.k=%d: the strips a stage makes must be an even number from 4 to 64", k)
	case n <= k || n > MaxSide(AlgH) || !powerOf(n, k):
		return fmt.Sprintf("topology.k=%d: k-strip H with route.k=%d needs a side that is a power of %d, above %d and at most %d", n, k, k, k, MaxSide(AlgH))
	}
	return ""
}

func powerOf(n, k int) bool {
	for n > 1 && n%k == 0 {
		n /= k
	}
	return n == 1
}

// KStripBound is §4.6.3's bound for k strips on n×n: 2n + {k(k+2)/(2(k²−1))
// + (k+1)/k}n data steps and (k+5)n/(2(k−1)) integer steps (k = 4: 4.05n
// + 1.5n), k + 1 buffers (k after a move).
func KStripBound(n, k int) Bound {
	f, kf := float64(n), float64(k)
	data := (2 + kf*(kf+2)/(2*(kf*kf-1)) + (kf+1)/kf) * f
	integer := (kf + 5) / (2 * (kf - 1)) * f
	return Bound{data, integer, data + integer, k + 1, k,
		fmt.Sprintf("Han 1990 §4.6.3: k-strip H, k = %d: {2 + k(k+2)/(2(k²−1)) + (k+1)/k}n data + (k+5)n/(2(k−1)) integer steps, k + 1 buffers", k)}
}

// RunKStrip routes a (partial) permutation (dests: one destination a
// message) with k-strip H on an n×n mesh of pools of buffers messages.
func RunKStrip(n, k, buffers int, dests [][]int32, schedule string, log io.Writer) (res *Result, err error) {
	if msg := KStripSides(n, k); msg != "" {
		return nil, fmt.Errorf("%s", msg)
	}
	return runVariant(AlgH+"-"+VariantKStrip, n, buffers, dests, schedule, log, KStripBound(n, k), func(r *router) error { return r.runKStrip(n, k) })
}

// runVariant runs a variant's stages (run) on an n×n machine loaded with a
// (partial) permutation, with the event log at log, and totals the result.
func runVariant(name string, n, buffers int, dests [][]int32, schedule string, log io.Writer, b Bound, run func(*router) error) (res *Result, err error) {
	for p, ds := range dests {
		if len(ds) > 1 {
			return nil, fmt.Errorf("processor %d: %d destinations: %s routes permutations (no restricted broadcasts, so far)", p, len(ds), name)
		}
	}
	if schedule != Static && schedule != Actual {
		return nil, fmt.Errorf("schedule %q (allowed: static, actual)", schedule)
	}
	r, err := newRouter(n, n, buffers, dests, schedule)
	if err != nil {
		return nil, err
	}
	if log != nil {
		flush := r.m.EventLog(log)
		defer func() {
			if ferr := flush(); err == nil && ferr != nil {
				res, err = nil, ferr
			}
		}()
	}
	r.res = &Result{Algorithm: name, Rows: n, Cols: n, Schedule: schedule, Buffers: buffers, Messages: len(r.dests), Bound: b}
	if err := run(r); err != nil {
		return r.res, err
	}
	return r.finish(n)
}

// runKStrip is the stages on s = n, n/k, …, k: each move goes up to (k−1)s/k
// hops along one axis (contention-free: a processor holds one message when
// it starts); the strips s × s/k are smoothed with k buffers' worth, as are
// the squares, which at s = k are single processors (the second move
// delivers).
func (r *router) runKStrip(n, k int) error {
	for s := n; s >= k; s /= k {
		w := s / k
		r.res.Stages = append(r.res.Stages, Stage{Side: s})
		r.stage = &r.res.Stages[len(r.res.Stages)-1]
		if err := r.move(s, s, s, w, int64((k-1)*w)); err != nil {
			return err
		}
		if err := r.smooth(s, w, k); err != nil {
			return err
		}
		if err := r.move(s, w, w, w, int64((k-1)*w)); err != nil {
			return err
		}
		if w >= 2 {
			if err := r.smooth(w, w, k); err != nil {
				return err
			}
		}
	}
	return nil
}
