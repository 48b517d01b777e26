package collective

import (
	"fmt"
	"math/bits"
	"strings"

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
	if peAsTE(d, m) {
		setupPEAsTE(k, c, m, tp, seed, ck, px, r)
		return nil
	}
	s := newPeSched(c, m, tp, seed, ck)
	s.load(k)
	px.SlotScheduler, px.limit = s, s.p0+int64(m*n)+int64(4*d)
	r.Packets = int64(m * (n - 1))
	u, text, f, ftext := s.quoted(d, m, tp)
	r.Formula, r.FormulaText = f, ftext
	r.UpperBound, r.UpperText = &u, text
	r.LowerBound, r.LowerText = cubePELower(c, s.act)
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

// peAsTE: with m = ⌈log₂M⌉ = d, §3.7's phases do not exist (k = d−m = 0:
// no scatter subcube, S = (N/M−1)/(d−m) undefined, and every packet would
// go to its source's home over one link, N−1 slots before the subcube TE)
// and the seed says to use a total exchange instead, N/2 slots. One rule,
// used by pe and by pmng (which reverses pe).
func peAsTE(d, m int) bool { return bits.Len(uint(m-1)) == d }

// setupPEAsTE runs the partial exchange as the symmetric OCTR total
// exchange with only the M active nodes' rows loaded: the schedule is
// fixed, so the missing packets leave idle slots and the run takes at most
// the TE's N/2. It needs no ranks, so t_p costs nothing.
func setupPEAsTE(k *kernel.Kernel, c *cube, m, tp int, seed uint64, ck *checker, px *proxy, r *Result) {
	var tags []uint32
	for x := 1; x < c.n; x++ {
		tags = append(tags, uint32(x))
	}
	active := activeSet(c.n, m, seed)
	setupRowsFrom(k, c, tags, active, ck, px, r)
	r.Packets = int64(m * (c.n - 1))
	u, text := peBound(c.d, m, tp)
	r.UpperBound, r.UpperText = &u, text
	if m < c.n { // (M = N keeps the TE's critical sum, the same number)
		var act []int
		for v, a := range active {
			if a {
				act = append(act, v)
			}
		}
		r.LowerBound, r.LowerText = cubePELower(c, act)
	}
	r.Reading = fmt.Sprintf("⌈log₂M⌉ = d: the partial exchange is run as a total exchange by the symmetric OCTR (§3.7: 'prefer TE'), only the %d active nodes' rows loaded (drawn from run.seed); no ranks needed (t_p unused); ", m) + r.Reading
}

// quoted is the bound a run of s quotes: the seed's (peBound) where its
// two assumptions hold for this active set and tree, else the same sum
// with each failed one's term replaced by what it is here, and the seed's
// number returned as formula (f).
func (s *peSched) quoted(d, m, tp int) (u float64, text string, f *float64, ftext string) {
	u, text = peBound(d, m, tp)
	var why []string
	add := 0
	if load, ms := s.phase2Load(), peMS(d, m); load > ms {
		add += load - ms
		why = append(why, fmt.Sprintf("MS = %d replaced by %d, the most phase-2 packets one link carries on §3.7's routes for this active set (Lemma 6 fails: two sources' streams share a link)", ms, load))
	}
	if k, mm := s.k, 1<<s.lg; k > 2 { // (m < d−2: phase 3 as the seed's sum counts it)
		per := ceilDiv(1<<k, k*((k-1)/2))
		c, h := s.tree.branches()
		if p3 := mm*c + h; p3 > mm*per {
			add += p3 - mm*per
			why = append(why, fmt.Sprintf("phase 3's M⌈N/(M(d−m)⌊(d−m−1)/2⌋)⌉ = %d replaced by Mc + h = %d: the scatter tree's largest branch under a subtree root has c = %d nodes (the seed's term needs ≤ %d; it builds no tree) and h = %d hops below its top", mm*per, p3, c, per, h))
		}
	}
	if add == 0 {
		return u, text, nil, ""
	}
	seed := u
	return u + float64(add), "the seed's bound with " + strings.Join(why, "; and "), &seed, text + ": the seed's bound, whose assumptions fail here"
}

// peMS is MS, Lemma 6's phase-2 length less the m + 1 hops: S =
// ⌈(N/M−1)/(d−m)⌉ packets per scatter subtree, M sources' worth.
func peMS(d, mAct int) int {
	m := bits.Len(uint(mAct - 1))
	return 1 << m * ceilDiv(1<<(d-m)-1, d-m)
}

// peBound is the seed's bound for the partial exchange with M' = 2^m ≥ M
// active nodes (§3.7, digest 000a §5.12 totals; m = d: a TE, N/2).
func peBound(d, mAct, tp int) (float64, string) {
	m := bits.Len(uint(mAct - 1))
	mm, n, p := 1<<m, 1<<d, float64(2*d*tp)
	switch {
	case m == d:
		return float64(n / 2), "N/2 (⌈log₂M⌉ = d: a total exchange, §3.7 'prefer TE'; no ranks, so no 2d·t_p)"
	case m == d-1:
		return 0.75*float64(n) + p + float64(d), "0.75N + 2d·t_p + d (§3.7, m = d−1)"
	case m == d-2:
		return 7*float64(n)/8 + p + float64(d-1), "7N/8 + 2d·t_p + d − 1 (§3.7, m = d−2)"
	}
	k := d - m
	f := mm/2 + mm*ceilDiv(n/mm-1, k) + mm*ceilDiv(n, mm*k*((k-1)/2)) + m + 1
	return float64(f) + p, "M/2 + M⌈(N/M−1)/(d−m)⌉ + M⌈N/(M(d−m)⌊(d−m−1)/2⌋)⌉ + 2d·t_p + m + 1 (§3.7, M = 2^m, m < d−2)"
}

// cubePELower is Theorem 1's bound for the partial exchange from act.
func cubePELower(c *cube, act []int) (float64, string) {
	var pairs [][2]int
	for _, src := range act {
		for t := 0; t < c.n; t++ {
			if t != src {
				pairs = append(pairs, [2]int{src, t})
			}
		}
	}
	return theorem1(c, pairs), "Theorem 1 for this active set: the busiest dimension's packet-hops / N, or the longest route (≥ d; the seed's Eqs. 3.14–3.18 are its worst cases)"
}
