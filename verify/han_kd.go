package verify

import (
	"fmt"
	"strings"
	"sync"

	"github.com/flitsim/flitsim/network/han"
)

// Han 1990 §4.6.1–4.6.2: H on 3-D and K-D meshes.

func init() {
	registerHanKD("han-h-3d", "", [][2]int{{3, 4}, {3, 8}, {3, 16}})
	registerHanKD("han-h-kd", "", [][2]int{{4, 4}, {5, 4}})
	registerHanKD("han-h-3d-full", TierFull, [][2]int{{3, 32}, {3, 64}})
	registerHanKD("han-h-kd-full", TierFull, [][2]int{{4, 8}, {4, 16}, {5, 8}, {6, 4}})
	Register(Claim{
		ID: "han-h-3d-stage", Source: "Han 1990 (thesis) §4.6.1, Lemma 4.4",
		Claim: "H on 16×16×16, the first stage's three smoothings (static schedule): 2n − 3 integer + 2n − 2 data steps, 3n/2 − 3 + 3n/2 − 2, " +
			"5n/4 − 3 + 5n/4 − 2; moves n/2 each",
		Published: "29+30, 21+22, 17+18; moves 8",
		Tolerance: "exact",
		Measure: func() (string, bool, error) {
			p, err := han.PermutationKD("random", 16, 3, 1)
			if err != nil {
				return "", false, err
			}
			r, err := han.RunKD(3, 16, 3, han.Lists(p), han.Static, nil)
			if err != nil {
				return "", false, err
			}
			var got []string
			var moves []string
			var in, data int64
			for _, ph := range r.Stages[0].Phases {
				switch ph.Phase {
				case "move":
					moves = append(moves, fmt.Sprint(ph.Steps))
				case "count":
					in = ph.Steps
				case "row":
					data = ph.Steps
				case "column":
					got = append(got, fmt.Sprintf("%d+%d", in, data+ph.Steps))
				}
			}
			s := strings.Join(got, ", ") + "; moves " + strings.Join(moves, ", ")
			return s, s == "29+30, 21+22, 17+18; moves 8, 8, 8", nil
		},
	})
}

// registerHanKD registers H on the (K, n) given: delivered on random
// permutations, rot180 and the transpose with 3 buffers (2 after a
// move), the static schedule within §4.6.2's bound (Thm 4.7 for K = 3).
func registerHanKD(id, tier string, sizes [][2]int) {
	var names []string
	for _, c := range sizes {
		names = append(names, fmt.Sprintf("%d^%d", c[1], c[0]))
	}
	Register(Claim{
		ID: id, Source: "Han 1990 (thesis) Thm 4.7, §4.6.2, Table 5.2", Tier: tier,
		Claim: "H on " + strings.Join(names, ", ") + " (two random permutations, rot180, the transpose; static and actual): delivered with 3 buffers, 2 after a move, " +
			"the static schedule within {K + (3K² − 3K + 1)/2}n data + (3K² − 3K + 1)n/2 integer steps (K = 3: 12.5n + 9.5n)",
		Published: "3 buffers; K = 3: ≤ 12.5n t_M + 9.5n t_m",
		Tolerance: "at most",
		Measure: func() (string, bool, error) {
			var got []string
			ok := true
			for _, c := range sizes {
				K, n := c[0], c[1]
				var static [2]int64
				buf := [2]int{}
				for i, name := range []string{"random", "random", "rot180", "transpose"} {
					p, err := han.PermutationKD(name, n, K, uint64(i+1))
					if err != nil {
						return "", false, err
					}
					for _, sched := range han.Schedules {
						r, err := han.RunKD(K, n, 3, han.Lists(p), sched, nil)
						if err != nil {
							return "", false, fmt.Errorf("H on %d^%d, %s: %w", n, K, name, err)
						}
						buf = [2]int{max(buf[0], r.MaxBuffer), max(buf[1], r.MaxBufferAfterMove)}
						if sched == han.Static {
							static = [2]int64{r.DataSteps, r.IntegerSteps}
						}
					}
				}
				b := han.KDBound(n, K)
				got = append(got, fmt.Sprintf("%d^%d %d+%d (bound %g+%g) %d/%d", n, K, static[0], static[1], b.DataSteps, b.IntegerSteps, buf[0], buf[1]))
				ok = ok && float64(static[0]) <= b.DataSteps && float64(static[1]) <= b.IntegerSteps && buf[0] <= 3 && buf[1] <= 2
			}
			return strings.Join(got, "; "), ok, nil
		},
	})
}

func init() {
	registerHanQKD("han-q-kd", "", [][2]int{{3, 4}, {3, 8}, {4, 4}, {4, 8}})
	registerHanQKD("han-q-kd-full", TierFull, [][2]int{{3, 16}, {3, 32}, {4, 16}, {5, 8}, {6, 4}})
}

// qkdWorst routes Q on n^K: the crowded move, two random permutations,
// rot180 and the transpose, static and actual; the worst buffers during
// and after a move, integer steps, the static data steps of the crowded
// move and of the rest, and the moves past the thesis's claim.
func qkdWorst(K, n int) (buf, after int, in, hot, rest int64, over int, err error) {
	inputs := [][]int32{han.QKDHotSpot(n, K)}
	for i, name := range []string{"random", "random", "rot180", "transpose"} {
		p, err := han.PermutationKD(name, n, K, uint64(i+1))
		if err != nil {
			return 0, 0, 0, 0, 0, 0, err
		}
		inputs = append(inputs, p)
	}
	for i, p := range inputs {
		for _, sched := range han.Schedules {
			r, err := han.RunQKD(K, n, han.QKDBuffers(n, K), han.Lists(p), sched, nil)
			if err != nil {
				return 0, 0, 0, 0, 0, 0, fmt.Errorf("Q on %d^%d, input %d: %w", n, K, i, err)
			}
			buf, after, in, over = max(buf, r.MaxBuffer), max(after, r.MaxBufferAfterMove), max(in, r.IntegerSteps), over+len(r.Deviations)
			switch {
			case sched == han.Static && i == 0:
				hot = r.DataSteps
			case sched == han.Static:
				rest = max(rest, r.DataSteps)
			}
		}
	}
	return buf, after, in, hot, rest, over, nil
}

// registerHanQKD registers K-D Q on the (K, n) given.
func registerHanQKD(id, tier string, sizes [][2]int) {
	var names []string
	for _, c := range sizes {
		names = append(names, fmt.Sprintf("%d^%d", c[1], c[0]))
	}
	on := " on " + strings.Join(names, ", ") + " (the crowded move, two random permutations, rot180, the transpose)"
	type worst struct {
		buf, after    int
		in, hot, rest int64
		over          int
	}
	runs := map[[2]int]worst{} // (the three rows route the same inputs: once, the rows one at a time)
	var mu sync.Mutex
	each := func(f func(K, n, buf, after int, in, hot, rest int64, over int) (string, bool)) func() (string, bool, error) {
		return func() (string, bool, error) {
			mu.Lock()
			defer mu.Unlock()
			var got []string
			ok := true
			for _, c := range sizes {
				w, done := runs[c]
				if !done {
					var err error
					if w.buf, w.after, w.in, w.hot, w.rest, w.over, err = qkdWorst(c[0], c[1]); err != nil {
						return "", false, err
					}
					runs[c] = w
				}
				s, good := f(c[0], c[1], w.buf, w.after, w.in, w.hot, w.rest, w.over)
				got, ok = append(got, s), ok && good
			}
			return strings.Join(got, "; "), ok, nil
		}
	}
	Register(Claim{
		ID: id, Source: "Han 1990 (thesis) §3.6.2, Table 5.1", Tier: tier,
		Claim:     "Q on K-D" + on + ": at most 2^K messages a processor after a move, integer steps within (K − ½)n",
		Published: "2^K after a move; (K − ½)n t_m",
		Tolerance: "at most",
		Measure: each(func(K, n, buf, after int, in, hot, rest int64, over int) (string, bool) {
			b := han.QKDBound(n, K)
			return fmt.Sprintf("%d^%d %d after, %d integer (bound %g)", n, K, after, in, b.IntegerSteps), after <= 1<<K && float64(in) <= b.IntegerSteps
		}),
	})
	Register(Claim{
		ID: id + "-buffers", Source: "Han 1990 (thesis) Table 5.1", Tier: tier,
		Claim:     "Q on K-D" + on + ": 2^K + 1 buffers",
		Published: "2^K + 1",
		Tolerance: "at most",
		Deviation: "the thesis gives no move procedure; ours (axes in order, the k² move's priorities) lets two turning messages pass a processor that holds its 2^K arrivals, as §3.6.1's k² move (k² + 2): measured at most 2^K + 2 (the pools' default)",
		Measure: each(func(K, n, buf, after int, in, hot, rest int64, over int) (string, bool) {
			return fmt.Sprintf("%d^%d %d (2^K + 1 = %d)", n, K, buf, 1<<K+1), buf <= 1<<K+2
		}),
	})
	Register(Claim{
		ID: id + "-steps", Source: "Han 1990 (thesis) §3.6.2", Tier: tier,
		Claim:     "Q on K-D" + on + ": moves of the optimistic 2^K·s/(2K) steps a stage, data steps within (2^K/K)n + {(K−1)2^K(2^K+2)/(4(2^K+1)) + (2^K−1)/2^K}n",
		Published: "move 2^K·s/(2K); data as §3.6.2's solution",
		Tolerance: "at most",
		Deviation: "the claim is below the distance Ks/2 for K = 3 and contention delays the crowded move further: moves outlast it (counted) and the static schedule waits for them; " +
			"every input but the crowded move stays within the data-step solution, the crowded move within 1.1 times it",
		Measure: each(func(K, n, buf, after int, in, hot, rest int64, over int) (string, bool) {
			b := han.QKDBound(n, K)
			return fmt.Sprintf("%d^%d crowded %d, others %d (bound %.4g), %d moves past", n, K, hot, rest, b.DataSteps, over),
				float64(rest) <= b.DataSteps && float64(hot) <= 1.1*b.DataSteps
		}),
	})
}
