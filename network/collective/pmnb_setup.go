package collective

import (
	"fmt"
	"math/bits"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/internal/kernel"
)

// maxTp bounds task.tp (slots per prefix hop).
const maxTp = 64

// setupPmnbAlgs loads pmnb's Algorithms I and III, and 𝒜_0 and II when
// task.tp > 0 (the prefix channel); done is false when pmnb.go's own
// 𝒜_0 / II (ranks known, t_p = 0) should run instead.
func setupPmnbAlgs(k *kernel.Kernel, c *cube, m int, params map[string]string, seed uint64, ck *checker, px *proxy, r *Result) (done bool, err error) {
	alg := params["task.algorithm"]
	if alg == "" {
		alg = "a0"
	}
	switch alg {
	case "a0", "i", "ii", "iii":
	default:
		return true, inputerr.New("task.algorithm", alg, "a0 (𝒜_0, no splitting), i (Algorithm I), ii (Algorithm II, split into d mini-packets), iii (Algorithm III, classes without splitting)")
	}
	tp, err := intParam(params, "task.tp", 0, 0, maxTp)
	if err != nil {
		return true, err
	}
	if tp == 0 && (alg == "a0" || alg == "ii") {
		return false, nil
	}
	if _, ok := params["task.algorithm"]; ok {
		r.Params = append(r.Params, "task.algorithm="+alg)
	}
	if _, ok := params["task.tp"]; ok {
		r.Params = append(r.Params, fmt.Sprintf("task.tp=%d", tp))
	}
	if alg == "i" {
		setupPmnbI(k, c, m, tp, seed, ck, px, r)
		return true, nil
	}
	d, n := c.d, c.n
	s := newPmnbAlg(c, alg, m, tp, seed, ck)
	if s.per > 1 {
		*ck = *newCheckerCols(n, n*s.per)
		s.ck = ck
	}
	s.load(k)
	px.SlotScheduler, px.limit = s, s.length()+1
	r.Packets = int64(m * s.per)
	prefix := "ranks known in advance (t_p = 0)"
	if tp > 0 {
		prefix = fmt.Sprintf("ranks by the prefix channel: %d hops of t_p = %d slots, messages on the links, the data phase after it", 2*d*len(s.pre.rounds), tp)
	}
	f, u := pmnbExact(alg, d, m, tp), pmnbUpper(alg, d, m, tp)
	switch alg {
	case "a0":
		r.Formula, r.FormulaText = &f, "2d·t_p + d + Σ_{k=1..d} ⌈M/2^k⌉ (𝒜_0 exact: prefix, packing, broadcast; digest 000a §7.3)"
		r.UpperBound, r.UpperText = &u, "M(N−1)/N + 2d·t_p + 2d (Lemma 5)"
		r.LowerBound, r.LowerText = float64(max(d, ceilDiv(m-1, d))), "max(d, ⌈(M−1)/d⌉) (Eq. 3.11 without splitting)"
		r.Reading = "𝒜_0 single class, no splitting; active nodes drawn from run.seed; " + prefix
	case "ii":
		px.split = int64(d)
		r.Formula, r.FormulaText = &f, "2d·t_p + 1 + (1/d)·Σ_{k=1..d} ⌈M/2^k⌉ (Algorithm II exact; digest 000a §5.11.2, §7.3)"
		r.UpperBound, r.UpperText = &u, "(M/d)(N−1)/N + 2d·t_p + 2 (Theorem 8; Fig. 3.5 splitting row)"
		r.LowerBound, r.LowerText = float64(m-1)/float64(d), "(M−1)/d (Eq. 3.11)"
		r.Reading = "Algorithm II: each packet split into d mini-packets, class c by 𝒜_c on labels rotated by c; one router slot per mini-slot (a prefix hop: t_p·d mini-slots); packets counts mini-packets; " + prefix
	case "iii":
		r.Formula, r.FormulaText = &f, "4d·t_p + d + Σ_{k=1..d} ⌈⌈M/d⌉/2^k⌉ (Algorithm III exact with subphases aligned on ⌈M/d⌉; digest 000a §5.11.3, §7.3)"
		r.UpperBound, r.UpperText = &u, "⌈M/d⌉ + 2d + 4d·t_p − 1 (§3.6.3; Fig. 3.5 no-splitting row)"
		r.LowerBound, r.LowerText = float64(max(d, ceilDiv(m-1, d))), "max(d, ⌈(M−1)/d⌉) (Eq. 3.11 without splitting)"
		r.Reading = "Algorithm III: class r_s mod d runs 𝒜_c on labels rotated by c, subphases aligned on ⌈M/d⌉ (digest 000a §5.11.3 caveat); active nodes drawn from run.seed; " + prefix
	}
	return true, nil
}

// sumCeil is Σ_{k=1..d} ⌈x/2^k⌉ (the exact broadcast phase of 𝒜_0 with
// x packets, digest 000a §5.11.2).
func sumCeil(x, d int) int {
	s := 0
	for k := 1; k <= d; k++ {
		s += ceilDiv(x, 1<<k)
	}
	return s
}

// pmnbExact is the digest's exact length of PMNB algorithm alg (§7.3 plus
// the prefix term; Algorithm I: the seed's formula, exact when the subcube
// MNB is optimal).
func pmnbExact(alg string, d, m, tp int) float64 {
	p := float64(2 * d * tp)
	switch alg {
	case "i":
		lg := bits.Len(uint(m - 1))
		mnb := 0
		if lg > 0 {
			mnb = ceilDiv(1<<lg-1, lg)
		}
		return float64(mnb+2*d-lg) + p
	case "ii":
		return float64(2*d*tp*d+d+sumCeil(m, d)) / float64(d) // (mini-slots / d, as the run measures)
	case "iii":
		return 2*p + float64(d+sumCeil(ceilDiv(m, d), d))
	}
	return p + float64(d+sumCeil(m, d))
}

// pmnbUpper is the seed's bound for alg (Lemma 5, Theorem 8 and §3.6.3 as
// in Fig. 3.5; Algorithm I's formula).
func pmnbUpper(alg string, d, m, tp int) float64 {
	n, df, p := float64(int(1)<<d), float64(d), float64(2*d*tp)
	switch alg {
	case "i":
		return pmnbExact(alg, d, m, tp)
	case "ii":
		return float64(m)/df*(n-1)/n + p + 2
	case "iii":
		return float64(ceilDiv(m, d)+2*d-1) + 2*p
	}
	return float64(m)*(n-1)/n + p + 2*df
}
