package collective

import (
	"fmt"
	"math/bits"

	"github.com/flitsim/flitsim/internal/kernel"
)

// setupPE loads the partial exchange (task pe: task.m active nodes,
// task.tp).
func setupPE(k *kernel.Kernel, c *cube, params map[string]string, seed uint64, ck *checker, px *proxy, r *Result) error {
	d, n := c.d, c.n
	m, err := intParam(params, "task.m", 1<<(d/2), 1, n)
	if err != nil {
		return err
	}
	tp, err := intParam(params, "task.tp", 0, 0, maxTp)
	if err != nil {
		return err
	}
	r.Params = []string{fmt.Sprintf("task.m=%d", m)}
	if _, ok := params["task.tp"]; ok {
		r.Params = append(r.Params, fmt.Sprintf("task.tp=%d", tp))
	}
	if m == n && tp == 0 { // (every node active: the task is a TE, which §3.7 says to prefer)
		var tags []uint32
		for x := 1; x < n; x++ {
			tags = append(tags, uint32(x))
		}
		setupRows(k, c, tags, ck, px, r)
		u, text := peBound(d, m, tp)
		r.UpperBound, r.UpperText = &u, text
		r.Reading = "M = N: the partial exchange is a total exchange, run by the symmetric OCTR (§3.7: 'prefer TE'); " + r.Reading
		return nil
	}
	s := newPeSched(c, m, tp, seed, ck)
	s.load(k)
	px.SlotScheduler, px.limit = s, s.p0+int64(m*n)+int64(4*d)
	r.Packets = int64(m * (n - 1))
	u, text := peBound(d, m, tp)
	r.UpperBound, r.UpperText = &u, text
	var pairs [][2]int
	for _, src := range s.act {
		for t := 0; t < n; t++ {
			if t != src {
				pairs = append(pairs, [2]int{src, t})
			}
		}
	}
	r.LowerBound, r.LowerText = theorem1(c, pairs), "Theorem 1 for this active set: the busiest dimension's packet-hops / N, or the longest route (≥ d; the seed's Eqs. 3.14–3.18 are its worst cases)"
	prefix := "ranks known in advance (t_p = 0)"
	if tp > 0 {
		prefix = fmt.Sprintf("ranks by the prefix channel (2d hops of t_p = %d slots)", tp)
	}
	px.after = func(r *Result) {
		r.Reading += fmt.Sprintf("; measured: phase 2 done at %d, phase 3 at %d, phase 4 at %d (data slots)", s.phaseEnd[2], s.phaseEnd[3], s.phaseEnd[4])
	}
	r.Reading = fmt.Sprintf("§3.7 routes with m = %d, k = d−m = %d: home = rank·2^k + own low bits; phase 2 to the home's scatter-tree child (tree subtrees ≤ %d nodes), phase 3 down the subtree, phase 4 over dimensions k..d−1; phases overlap: every node non-wasting, earliest phase first (phase 3 furthest first), oldest first; active nodes drawn from run.seed; %s", s.lg, s.k, s.tree.largest(), prefix)
	return nil
}

// peBound is the seed's bound for the partial exchange with M' = 2^m ≥ M
// active nodes (§3.7, digest 000a §5.12 totals; m = d: a TE, N/2).
func peBound(d, mAct, tp int) (float64, string) {
	m := bits.Len(uint(mAct - 1))
	mm, n, p := 1<<m, 1<<d, float64(2*d*tp)
	switch {
	case m == d:
		return float64(n/2) + p, "N/2 + 2d·t_p (M = N: a total exchange, §3.7 'prefer TE')"
	case m == d-1:
		return 0.75*float64(n) + p + float64(d), "0.75N + 2d·t_p + d (§3.7, m = d−1)"
	case m == d-2:
		return 7*float64(n)/8 + p + float64(d-1), "7N/8 + 2d·t_p + d − 1 (§3.7, m = d−2)"
	}
	k := d - m
	f := mm/2 + mm*ceilDiv(n/mm-1, k) + mm*ceilDiv(n, mm*k*((k-1)/2)) + m + 1
	return float64(f) + p, "M/2 + M⌈(N/M−1)/(d−m)⌉ + M⌈N/(M(d−m)⌊(d−m−1)/2⌋)⌉ + 2d·t_p + m + 1 (§3.7, M = 2^m, m < d−2)"
}
