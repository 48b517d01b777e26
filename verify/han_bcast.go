package verify

import (
	"fmt"

	"github.com/flitsim/flitsim/network/han"
)

// Han 1990 Thm 3.4, 4.6: restricted broadcasting costs a permutation's
// steps and buffers; here on rectangles (§3.6.4, §4.6.5) and on the ILLIAC
// model (§5.2, where the thesis gives only "at most four times").

func init() {
	Register(Claim{
		ID: "han-broadcast-rect", Source: "Han 1990 (thesis) Thm 3.4, 4.6 with §3.6.4, §4.6.5",
		Claim: "restricted broadcasts on rectangles (Q 16×8, 32×16, 64×8; H those and 12×6, 10×7), 8 random each, static schedule: " +
			"the permutation's schedule (the same data + integer steps, within the rectangle's bound) and buffers",
		Published: "Q (1.75r + 2.2c) t_M + (0.5r + c) t_m, 5 buffers (4 after a move); H (2.5r + 3c) t_M + (1.5r + 2c) t_m, 3 (2 after; 3 on odd sides)",
		Tolerance: "exact (steps = the permutation's), at most (bound, buffers)",
		Measure: func() (string, bool, error) {
			return hanBroadcastRuns([]han.Hardware{{}}, [][2]int{{16, 8}, {32, 16}, {64, 8}, {12, 6}, {10, 7}}, 1)
		},
	})
	Register(Claim{
		ID: "han-broadcast-illiac", Source: "Han 1990 (thesis) Thm 3.4, 4.6 with §5.2 (ILLIAC model)",
		Claim: "restricted broadcasts on the ILLIAC model, with and without wraparound (Q and H 16×16, 32×32, 32×16; H 15×15), 8 random each, static schedule: " +
			"the permutation's ILLIAC schedule and buffers; the thesis gives no count for it, only at most four times the distributed model's steps",
		Published: "≤ 4 × the distributed bound; Q 5 buffers, H 3",
		Tolerance: "exact (steps = the permutation's on the same machine), at most (4 × bound, buffers)",
		Measure: func() (string, bool, error) {
			hws := []han.Hardware{{Model: han.ModelILLIAC}, {Model: han.ModelILLIAC, Wrap: true}}
			return hanBroadcastRuns(hws, [][2]int{{16, 16}, {32, 32}, {32, 16}, {15, 15}}, 4)
		},
	})
}

// hanBroadcastRuns routes 8 random restricted broadcasts with Q and H on
// every rows×cols mesh each runs on and every hardware, and reports the
// worst steps against the bound (factor: the ILLIAC's 4, in the bound
// already) and the buffers; ok when every broadcast's static schedule is
// the permutation's (rot180) on the same machine and nothing passes the
// bound.
func hanBroadcastRuns(hws []han.Hardware, meshes [][2]int, factor int) (string, bool, error) {
	ok, runs, copies := true, 0, 0
	worst := map[string][2]int{}
	ratio := 0.0
	for _, alg := range []string{han.AlgQ, han.AlgH} {
		for _, rc := range meshes {
			rows, cols := rc[0], rc[1]
			if han.Check(alg, rows, cols) != nil {
				continue
			}
			for _, hw := range hws {
				perm, err := han.PermutationMesh("rot180", rows, cols, 0)
				if err != nil {
					return "", false, err
				}
				p, err := han.RunMeshOn(hw, alg, rows, cols, han.Buffers(alg, cols), han.Lists(perm), han.Static, nil)
				if err != nil {
					return "", false, err
				}
				for seed := uint64(1); seed <= 8; seed++ {
					r, err := han.RunMeshOn(hw, alg, rows, cols, han.Buffers(alg, cols), han.RandomBroadcastMesh(rows, cols, seed), han.Static, nil)
					if err != nil {
						return "", false, fmt.Errorf("%s %d×%d seed %d: %w", alg, rows, cols, seed, err)
					}
					runs, copies = runs+1, copies+r.Copies
					b := r.Bound
					ok = ok && r.DataSteps == p.DataSteps && r.IntegerSteps == p.IntegerSteps &&
						float64(r.TotalSteps) <= b.TotalSteps && r.MaxBuffer <= b.MaxBuffer && r.MaxBufferAfterMove <= b.MaxBufferAfterMove
					w := worst[alg]
					worst[alg] = [2]int{max(w[0], r.MaxBuffer), max(w[1], r.MaxBufferAfterMove)}
					ratio = max(ratio, float64(r.TotalSteps)/(b.TotalSteps/float64(factor)))
				}
			}
		}
	}
	q, h := worst[han.AlgQ], worst[han.AlgH]
	return fmt.Sprintf("%d broadcasts (%d copies): static = the permutation's in all: %v; steps at most %.2f × the distributed bound; buffers Q %d / %d, H %d / %d",
		runs, copies, ok, ratio, q[0], q[1], h[0], h[1]), ok && copies > 0, nil
}
