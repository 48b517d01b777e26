package verify

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/flitsim/flitsim/network/esmintree"
)

// Chiang 1995 §6.5, Figs 6.8–6.12: the tree algorithms on the six Table 6.1
// patterns over random destination sets from node 0 (500 per size, as the
// thesis), by the code of `flitsim multicast-tree --dests random:A-B`
// (esmintree.Study, the trees the simulated ESMIN's router takes); the
// simulated ESMIN carries a subset (chiang-fig6.8-6.12-simulated). The
// plain tier checks the thresholds' sizes, the full tier every size.

// studySets is the thesis's number of random destination sets per size.
const studySets = 500

// studyPoint is alg's study of k destinations on Table 6.1 pattern p
// (0-based); every algorithm of one pattern and size sees the same sets.
func studyPoint(p int, alg esmintree.Alg, k int) (esmintree.Point, error) {
	net, err := esmintree.New(parseInts(table61[p] + ",0"))
	if err != nil {
		return esmintree.Point{}, err
	}
	return net.Study(alg, 0, k, studySets, rand.New(rand.NewPCG(1995, uint64(k)))), nil
}

// sizes lists the destination counts lo … hi.
func sizes(lo, hi int) []int {
	var ks []int
	for k := lo; k <= hi; k++ {
		ks = append(ks, k)
	}
	return ks
}

func init() {
	for _, t := range []struct {
		suffix, tier   string
		over10, from20 []int
	}{{"", TierQuick, []int{11}, []int{20}}, {"-full", TierFull, sizes(11, 19), sizes(20, 64)}} {
		Register(Claim{
			ID:     "chiang-fig6.11-rb-blocking" + t.suffix,
			Source: "Chiang 1995 §6.5.3, Fig 6.11",
			Tier:   t.tier,
			Claim: fmt.Sprintf("RB's blocking rate B on CU-ESMIN(64:10), every Table 6.1 pattern, source 0, %d random destination "+
				"sets per size: \"over 20%% when there are more than 10 destinations and 40%% when there are 20 or more\" "+
				"(sizes %s)", studySets, spanOf(t.over10, t.from20)),
			Published: "B > 0.20 (k > 10), B > 0.40 (k ≥ 20), every pattern",
			Tolerance: "the lowest B of the patterns and sizes above each bound (binomial noise at 500 sets: ±0.04)",
			Measure:   func() (string, bool, error) { return measureRBStudy(t.over10, t.from20) },
		})
	}
	for _, t := range []struct {
		suffix, tier string
		ks           []int
	}{{"", TierQuick, []int{4, 8, 16, 32}}, {"-full", TierFull, sizes(2, 64)}} {
		Register(Claim{
			ID:     "chiang-fig6.12-lb-rm-fb" + t.suffix,
			Source: "Chiang 1995 §6.5.3, Fig 6.12",
			Tier:   t.tier,
			Claim: fmt.Sprintf("traffic T (mean channels carrying a copy) on CU-ESMIN(64:10), every Table 6.1 pattern, source 0, "+
				"%d random destination sets per size, the same sets for each algorithm: LB < RM < FB (sizes %s)", studySets, spanOf(t.ks)),
			Published: "LB < RM < FB",
			Tolerance: "strict order of the means at every pattern and size; LB ≤ RM ≤ FB within one 95 % CI where a gap is smaller",
			Measure:   func() (string, bool, error) { return measureOrderStudy(t.ks) },
		})
	}
	Register(Claim{
		ID:     "chiang-fig6.8-6.10-patterns",
		Source: "Chiang 1995 §6.5.3, Figs 6.8–6.10",
		Claim: "the patterns' stated likenesses at 4, 16 and 32 destinations (500 sets): FB — patterns 2 and 3 similar and lower, " +
			"1, 4, 5, 6 close; LB — patterns 1 and 4 the same, 2 and 3 alike (\"the even distribution of destinations\"); RM — (1, 4) like (2, 3)",
		Published: "FB 2≈3 < 1≈4≈5≈6; LB 1 = 4, 2 ≈ 3; RM 1,4 ≈ 2,3",
		Tolerance: "≈: means within 5 % (RM: 10 %); =: equal means over the same sets",
		Measure:   measurePatternLikeness,
	})
}

// spanOf names the sizes of lists as ranges ("11, 20" or "11–19, 20–64").
func spanOf(lists ...[]int) string {
	var s []string
	for _, l := range lists {
		if len(l) == 1 {
			s = append(s, fmt.Sprint(l[0]))
		} else if slices.Equal(l, sizes(l[0], l[len(l)-1])) {
			s = append(s, fmt.Sprintf("%d–%d", l[0], l[len(l)-1]))
		} else {
			s = append(s, strings.Trim(fmt.Sprint(l), "[]"))
		}
	}
	return strings.Join(s, ", ")
}

// measureRBStudy finds the lowest B of the six patterns over the sizes of
// each bound.
func measureRBStudy(over10, from20 []int) (string, bool, error) {
	low := [2]float64{1, 1}
	where := [2]string{}
	for b, ks := range [2][]int{over10, from20} {
		for p := range table61 {
			for _, k := range ks {
				pt, err := studyPoint(p, esmintree.RB, k)
				if err != nil {
					return "", false, err
				}
				if pt.Blocking < low[b] {
					low[b], where[b] = pt.Blocking, fmt.Sprintf("pattern %d, k = %d", p+1, k)
				}
			}
		}
	}
	m := fmt.Sprintf("lowest B %.3f (%s) for k > 10; %.3f (%s) for k ≥ 20", low[0], where[0], low[1], where[1])
	return m, low[0] > 0.2 && low[1] > 0.4, nil
}

// measureOrderStudy checks LB < RM < FB at every pattern and size.
func measureOrderStudy(ks []int) (string, bool, error) {
	strict, within, worst := 0, 0, ""
	gap := math.Inf(1)
	for p := range table61 {
		for _, k := range ks {
			var pts [3]esmintree.Point
			for i, a := range []esmintree.Alg{esmintree.LB, esmintree.RM, esmintree.FB} {
				var err error
				if pts[i], err = studyPoint(p, a, k); err != nil {
					return "", false, err
				}
			}
			lb, rm, fb := pts[0], pts[1], pts[2]
			switch ci := max(lb.CI95, rm.CI95, fb.CI95); {
			case lb.Channels < rm.Channels && rm.Channels < fb.Channels:
				strict++
			case lb.Channels <= rm.Channels+ci && rm.Channels <= fb.Channels+ci:
				within++
			default:
				return fmt.Sprintf("pattern %d, k = %d: LB %.2f, RM %.2f, FB %.2f", p+1, k, lb.Channels, rm.Channels, fb.Channels), false, nil
			}
			if g := min(rm.Channels-lb.Channels, fb.Channels-rm.Channels); g < gap {
				gap, worst = g, fmt.Sprintf("pattern %d, k = %d: LB %.2f, RM %.2f, FB %.2f", p+1, k, lb.Channels, rm.Channels, fb.Channels)
			}
		}
	}
	m := fmt.Sprintf("%d of %d strict, %d within one CI; the closest: %s", strict, strict+within, within, worst)
	return m, true, nil
}

// measurePatternLikeness compares the patterns' means as §6.5.3 says.
func measurePatternLikeness() (string, bool, error) {
	T := func(p int, a esmintree.Alg, k int) (float64, error) {
		pt, err := studyPoint(p-1, a, k)
		return pt.Channels, err
	}
	near := func(x, y, tol float64) bool { return math.Abs(x-y) <= tol*max(x, y) }
	ok, worst := true, ""
	for _, k := range []int{4, 16, 32} {
		var fb, lb, rm [7]float64
		for p := 1; p <= 6; p++ {
			var err error
			if fb[p], err = T(p, esmintree.FB, k); err != nil {
				return "", false, err
			}
			if lb[p], err = T(p, esmintree.LB, k); err != nil {
				return "", false, err
			}
			if rm[p], err = T(p, esmintree.RM, k); err != nil {
				return "", false, err
			}
		}
		hiFB := min(fb[1], fb[4], fb[5], fb[6])
		good := near(fb[2], fb[3], 0.05) && max(fb[2], fb[3]) < hiFB && near(hiFB, max(fb[1], fb[4], fb[5], fb[6]), 0.05) &&
			lb[1] == lb[4] && near(lb[2], lb[3], 0.05) && near((rm[1]+rm[4])/2, (rm[2]+rm[3])/2, 0.10)
		if !good && worst == "" {
			worst = fmt.Sprintf("; k = %d: FB %.1f/%.1f/%.1f/%.1f/%.1f/%.1f, LB %.1f/%.1f/%.1f/%.1f, RM %.1f/%.1f/%.1f/%.1f", k,
				fb[1], fb[2], fb[3], fb[4], fb[5], fb[6], lb[1], lb[4], lb[2], lb[3], rm[1], rm[4], rm[2], rm[3])
		}
		ok = ok && good
		if k == 16 {
			worst = fmt.Sprintf("k = 16: FB 2/3 %.1f/%.1f, 1/4/5/6 %.1f/%.1f/%.1f/%.1f; LB 1/4 %.1f/%.1f, 2/3 %.1f/%.1f; RM 1,4 %.1f, 2,3 %.1f",
				fb[2], fb[3], fb[1], fb[4], fb[5], fb[6], lb[1], lb[4], lb[2], lb[3], (rm[1]+rm[4])/2, (rm[2]+rm[3])/2) + worst
		}
	}
	return worst, ok, nil
}
