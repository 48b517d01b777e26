package verify

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"github.com/flitsim/flitsim/network/han"
)

// Han 1990 (digest 002): Algorithms Q and H run on the lock-step mesh of
// package han, which refuses any step that breaks its rules; every figure
// below is counted from the steps the machine ran.

func init() {
	for _, n := range []int{8, 16} {
		want := map[int][4]int64{8: {24, 5, 31, 13}, 16: {55, 15, 73, 37}}[n]
		Register(Claim{
			ID: fmt.Sprintf("han-static-%dx%d", n, n), Source: "Han 1990 (thesis) Ch. 3–4; static schedule, digest 002 §5.3",
			Claim:     fmt.Sprintf("static schedules on %d×%d: Q and H data + integer steps", n, n),
			Published: fmt.Sprintf("Q %d + %d, H %d + %d", want[0], want[1], want[2], want[3]),
			Tolerance: "exact",
			Measure: func() (string, bool, error) {
				q, err := hanRun(han.AlgQ, n, "random", han.Static)
				if err != nil {
					return "", false, err
				}
				h, err := hanRun(han.AlgH, n, "random", han.Static)
				if err != nil {
					return "", false, err
				}
				got := [4]int64{q.DataSteps, q.IntegerSteps, h.DataSteps, h.IntegerSteps}
				return fmt.Sprintf("Q %d + %d, H %d + %d", got[0], got[1], got[2], got[3]), got == want, nil
			},
		})
	}
	registerHanClosedForms("han-closed-forms", "", 64)
	registerHanClosedForms("han-closed-forms-full", TierFull, 256)
	registerHanCorner()
	registerHanBuffers()
}

// registerHanCorner registers the corner-to-corner permutations' 2n − 2.
func registerHanCorner() {
	Register(Claim{
		ID: "han-corner-2n-2", Source: "Han 1990 (thesis) Thm 3.1, 4.1; digest 002 §5.4",
		Claim:     "rot180 under Q and H, the transpose under Q: data movement in 2n − 2 steps, one message a processor after every move (n = 4 … 64, actual schedule)",
		Published: "2n − 2",
		Tolerance: "exact",
		Measure: func() (string, bool, error) {
			for n := 4; n <= 64; n *= 2 {
				for _, c := range [][2]string{{han.AlgQ, "rot180"}, {han.AlgH, "rot180"}, {han.AlgQ, "transpose"}} {
					r, err := hanRun(c[0], n, c[1], han.Actual)
					if err != nil {
						return "", false, err
					}
					if r.DataSteps != int64(2*n-2) || r.MaxBufferAfterMove != 1 {
						return fmt.Sprintf("%s %s n=%d: %d data steps, %d after a move", c[0], c[1], n, r.DataSteps, r.MaxBufferAfterMove), false, nil
					}
				}
			}
			return "2n − 2 for n = 4 … 64 (all three)", true, nil
		},
	})
}

// registerHanBuffers registers the buffer maxima over many inputs.
func registerHanBuffers() {
	Register(Claim{
		ID: "han-buffers", Source: "Han 1990 (thesis) Thm 3.1, 3.4, 4.1, 4.6",
		Claim: "most messages a processor holds (during a move / after it), n = 8 … 64: 4 random permutations, " +
			"4 random restricted broadcasts, transpose, rot180, bit-reversal, shuffle and the smoothing worst cases at each n",
		Published: "Q ≤ 5 / 4, H ≤ 3 / 2",
		Tolerance: "at most",
		Measure: func() (string, bool, error) {
			worst := map[string][2]int{}
			for n := 8; n <= 64; n *= 2 {
				inputs := [][]int32{han.WorstRowInput(n), han.WorstColumnInput(n)}
				for seed := uint64(1); seed <= 4; seed++ {
					p, err := han.Permutation("random", n, seed)
					if err != nil {
						return "", false, err
					}
					inputs = append(inputs, p)
				}
				for _, name := range []string{"transpose", "rot180", "bit-reversal", "shuffle"} {
					p, err := han.Permutation(name, n, 0)
					if err != nil {
						return "", false, err
					}
					inputs = append(inputs, p)
				}
				var all [][][]int32
				for _, p := range inputs {
					all = append(all, han.Lists(p))
				}
				for seed := uint64(1); seed <= 4; seed++ {
					all = append(all, han.RandomBroadcast(n, seed))
				}
				for _, p := range all {
					for _, alg := range []string{han.AlgQ, han.AlgH} {
						r, err := han.RunBroadcast(alg, n, han.Buffers(alg, n), p, han.Actual, nil)
						if err != nil {
							return "", false, err
						}
						w := worst[alg]
						worst[alg] = [2]int{max(w[0], r.MaxBuffer), max(w[1], r.MaxBufferAfterMove)}
					}
				}
			}
			q, h := worst[han.AlgQ], worst[han.AlgH]
			return fmt.Sprintf("Q %d / %d, H %d / %d (worst seen)", q[0], q[1], h[0], h[1]), q[0] <= 5 && q[1] <= 4 && h[0] <= 3 && h[1] <= 2, nil
		},
	})
}

func init() {
	Register(Claim{
		ID: "han-greedy-buffers", Source: "Han 1990 (thesis) §1.4, Thm 3.1, 4.1",
		Claim:     "transpose, n = 8 … 64: greedy row-column routing's buffer maximum grows with n, Q's and H's do not; farthest-first takes 2n − 2 steps",
		Published: "greedy n buffers, 2n − 2 steps (farthest first); Q ≤ 5, H ≤ 3",
		Tolerance: "exact (greedy); at most (Q, H)",
		Measure: func() (string, bool, error) {
			var got []string
			ok := true
			for n := 8; n <= 64; n *= 2 {
				var b [3]int
				for i, alg := range []string{han.AlgGreedyFF, han.AlgQ, han.AlgH} {
					r, err := hanRun(alg, n, "transpose", han.Actual)
					if err != nil {
						return "", false, err
					}
					b[i] = r.MaxBuffer
					ok = ok && (i > 0 || r.DataSteps == int64(2*n-2))
				}
				ok = ok && b[0] == n && b[1] <= 5 && b[2] <= 3
				got = append(got, fmt.Sprintf("n=%d: %d/%d/%d", n, b[0], b[1], b[2]))
			}
			return "greedy-ff/Q/H buffers " + strings.Join(got, ", "), ok, nil
		},
	})
}

func init() {
	Register(Claim{
		ID: "han-q-smoothing-worst", Source: "Han 1990 (thesis) Lemma 2.3, Thm 2.1, 2.3; digest 002 §5.4",
		Claim:     "16×16, Q's first smoothing (q = 8): Lemma 2.3's row input and a top-packed quadrant take row and column movement their worst-case lengths",
		Published: "row ⌊1.2q⌋ = 9, column 3q/4 = 6",
		Tolerance: "exact",
		Measure: func() (string, bool, error) {
			var got [2]int64
			for i, dest := range [][]int32{han.WorstRowInput(16), han.WorstColumnInput(16)} {
				r, err := han.Run(han.AlgQ, 16, 5, dest, han.Actual)
				if err != nil {
					return "", false, err
				}
				got[i] = r.Stages[0].Phases[2+i].Actual
			}
			return fmt.Sprintf("row %d, column %d", got[0], got[1]), got == [2]int64{9, 6}, nil
		},
	})
}

func init() {
	Register(Claim{
		ID: "han-rectangles", Source: "Han 1990 (thesis) §3.6.4, §4.6.5",
		Claim:     "Q and H on r×c rectangles (16×8, 32×8, 64×16, 64×4; random and rot180): delivered within the rectangle bounds and buffers",
		Published: "Q ≤ (1.75r + 2.2c) + (0.5r + c), 5 buffers; H ≤ (2.5r + 3c) + (1.5r + 2c), 3 buffers",
		Tolerance: "at most",
		Measure: func() (string, bool, error) {
			var got []string
			ok := true
			for _, rc := range [][2]int{{16, 8}, {32, 8}, {64, 16}, {64, 4}} {
				worst := [2]string{}
				for i, alg := range []string{han.AlgQ, han.AlgH} {
					var d, in int64
					buf := 0
					for _, perm := range []string{"random", "rot180"} {
						p, err := han.PermutationMesh(perm, rc[0], rc[1], 1)
						if err != nil {
							return "", false, err
						}
						r, err := han.RunMesh(alg, rc[0], rc[1], han.Buffers(alg, rc[1]), han.Lists(p), han.Static, nil)
						if err != nil {
							return "", false, err
						}
						b := r.Bound
						ok = ok && float64(r.DataSteps) <= b.DataSteps && float64(r.IntegerSteps) <= b.IntegerSteps && r.MaxBuffer <= b.MaxBuffer
						d, in, buf = max(d, r.DataSteps), max(in, r.IntegerSteps), max(buf, r.MaxBuffer)
					}
					worst[i] = fmt.Sprintf("%s %d+%d/%d", alg, d, in, buf)
				}
				got = append(got, fmt.Sprintf("%d×%d: %s, %s", rc[0], rc[1], worst[0], worst[1]))
			}
			return strings.Join(got, "; "), ok, nil
		},
	})
}

// registerHanClosedForms registers the static schedules' closed forms for
// n = 4 … maxN.
func registerHanClosedForms(id, tier string, maxN int) {
	Register(Claim{
		ID: id, Source: "Han 1990 (thesis) Ch. 3–4; static schedule, digest 002 §5.3", Tier: tier,
		Claim:     fmt.Sprintf("static schedules' closed forms, n = 4 … %d, all within Thm 3.3's 4n + 1.5n and Thm 4.5's 5.5n + 3.5n", maxN),
		Published: "H data 5.5n − 2 lg n − 7, H integer 3.5n − 4 lg n − 3, Q integer 1.5n − 2 lg n − 1, Q moves 2n − 2",
		Tolerance: "exact",
		Measure: func() (string, bool, error) {
			for n := 4; n <= maxN; n *= 2 {
				lg := int64(bits.Len(uint(n)) - 1)
				N := int64(n)
				q, err := hanRun(han.AlgQ, n, "random", han.Static)
				if err != nil {
					return "", false, err
				}
				h, err := hanRun(han.AlgH, n, "random", han.Static)
				if err != nil {
					return "", false, err
				}
				got := [4]int64{h.DataSteps, h.IntegerSteps, q.IntegerSteps, hanMoveSteps(q)}
				want := [4]int64{11*N/2 - 2*lg - 7, 7*N/2 - 4*lg - 3, 3*N/2 - 2*lg - 1, 2*N - 2}
				if got != want {
					return fmt.Sprintf("n = %d: %v, want %v", n, got, want), false, nil
				}
				for _, r := range []*han.Result{q, h} { // (Thm 3.3, 4.5: the static schedule within the bounds)
					if b := r.Bound; float64(r.DataSteps) > b.DataSteps || float64(r.IntegerSteps) > b.IntegerSteps {
						return fmt.Sprintf("n = %d: %s %d + %d past its bound %g + %g", n, r.Algorithm, r.DataSteps, r.IntegerSteps, b.DataSteps, b.IntegerSteps), false, nil
					}
				}
			}
			return fmt.Sprintf("all four, n = 4 … %d", maxN), true, nil
		},
	})
}

// hanRun routes the named permutation with alg on an n×n machine.
func hanRun(alg string, n int, perm, schedule string) (*han.Result, error) {
	p, err := han.Permutation(perm, n, 1)
	if err != nil {
		return nil, err
	}
	return han.Run(alg, n, han.Buffers(alg, n), p, schedule)
}

// hanMoveSteps sums the move phases' steps.
func hanMoveSteps(r *han.Result) int64 {
	var s int64
	for _, st := range r.Stages {
		for _, p := range st.Phases {
			if strings.HasPrefix(p.Phase, "move") {
				s += p.Steps
			}
		}
	}
	return s
}

func init() {
	Register(Claim{
		ID: "han-tables", Source: "Han 1990 (thesis) Tables 5.1, 5.2; Thm 3.3, 4.5; §3.6.4, §4.6.5; §3.4, Fig. 3.10",
		Claim: "route --table, n = 16, 32, 64 (rectangles 2n×n): no built row of Tables 5.1 and 5.2 past its Tier B bound " +
			"(static schedule and worst of 12 inputs, buffers), no Tier C lower bound beaten (Q's data steps, Fig. 3.10's smoothing)",
		Published: "Q ≤ 4n + 1.5n, H ≤ 5.5n + 3.5n, rectangles as §3.6.4/§4.6.5; Q data ≥ 3.3n, smoothing ≥ 0.646n",
		Tolerance: "at most (Tier B); at least (Tier C)",
		Measure: func() (string, bool, error) {
			var got, skipped []string
			for n := 16; n <= 64; n *= 2 {
				rows, err := han.Tables(n)
				if err != nil {
					return "", false, err
				}
				for _, r := range rows {
					if r.Built && !r.OK && r.Deviations == 0 {
						return fmt.Sprintf("n = %d, %s: %d+%d measured, %d+%d static, buffer %d; bound %g + %g", n, r.Variant,
							r.Data, r.Integer, r.StaticData, r.StaticInteger, r.MaxBuffer, r.BoundData, r.BoundInteger), false, nil
					}
					if r.Deviations > 0 && !slices.Contains(skipped, r.Variant) {
						skipped = append(skipped, r.Variant)
					}
				}
				got = append(got, fmt.Sprintf("n=%d Q %d+%d H %d+%d", n, rows[0].Data, rows[0].Integer, rows[5].Data, rows[5].Integer))
			}
			return "all within; worst measured " + strings.Join(got, ", ") + "; rows whose moves outran the thesis's claimed length, held to their own rows (han-k2-move, han-q-odd23-steps): " + strings.Join(skipped, ", "), true, nil
		},
	})
}

func init() {
	registerHanKStrip("han-kstrip", "", [][2]int{{16, 4}, {64, 4}, {36, 6}, {64, 8}})
	registerHanKStrip("han-kstrip-full", TierFull, [][2]int{{16, 4}, {64, 4}, {256, 4}, {36, 6}, {216, 6}, {64, 8}})
}

// kOnN names the (n, k) sizes of a row: "k = 4 on 64, k = 6 on 36".
func kOnN(sizes [][2]int) string {
	var names []string
	for _, c := range sizes {
		names = append(names, fmt.Sprintf("k = %d on %d", c[1], c[0]))
	}
	return strings.Join(names, ", ")
}

// registerHanKStrip registers k-strip H's bound on the (n, k) given.
func registerHanKStrip(id, tier string, sizes [][2]int) {
	Register(Claim{
		ID: id, Source: "Han 1990 (thesis) §4.6.3", Tier: tier,
		Claim: "k-strip H (" + kOnN(sizes) + "; random, rot180 and transpose, static and actual): " +
			"delivered within {2 + k(k+2)/(2(k²−1)) + (k+1)/k}n data + (k+5)n/(2(k−1)) integer steps, k + 1 buffers during a move, k after",
		Published: "k = 4: ≤ 4.05n + 1.5n, 5 buffers",
		Tolerance: "at most",
		Measure: func() (string, bool, error) {
			var got []string
			for _, c := range sizes {
				n, k := c[0], c[1]
				var d, in int64
				buf := [2]int{}
				for _, perm := range []string{"random", "rot180", "transpose"} {
					p, err := han.Permutation(perm, n, 1)
					if err != nil {
						return "", false, err
					}
					for _, sched := range han.Schedules {
						r, err := han.RunKStrip(n, k, k+1, han.Lists(p), sched, nil)
						if err != nil {
							return "", false, err
						}
						d, in = max(d, r.DataSteps), max(in, r.IntegerSteps)
						buf = [2]int{max(buf[0], r.MaxBuffer), max(buf[1], r.MaxBufferAfterMove)}
					}
				}
				b := han.KStripBound(n, k)
				got = append(got, fmt.Sprintf("k=%d n=%d %d+%d/%d/%d (bound %.4g+%.4g)", k, n, d, in, buf[0], buf[1], b.DataSteps, b.IntegerSteps))
				if float64(d) > b.DataSteps || float64(in) > b.IntegerSteps || buf[0] > k+1 || buf[1] > k {
					return strings.Join(got, "; "), false, nil
				}
			}
			return strings.Join(got, "; "), true, nil
		},
	})
}
