package verify

import (
	"fmt"
	"slices"
	"strings"

	"github.com/flitsim/flitsim/network/han"
)

// Han 1990 §4.3 (digest 002 §4.3) against Thm 3.1 and 4.1: the greedy
// baselines' pools grow with the mesh on the bad inputs, Q's and H's do
// not (`flitsim route --compare --plot`).

func init() {
	registerHanCompare("han-compare-buffers", "", []int{8, 16, 32})
	registerHanCompare("han-compare-buffers-full", TierFull, []int{8, 16, 32, 64, 128, 256})
}

func registerHanCompare(id, tier string, sides []int) {
	Register(Claim{
		ID: id, Source: "Han 1990 (thesis) §1.4 (digest 002 §4.3), Thm 3.1, 4.1", Tier: tier,
		Claim: fmt.Sprintf("most messages a processor holds on the bad inputs (transpose, Q's smoothing worst cases), n = %s: "+
			"greedy and farthest-first greedy need n (a row's messages to one column), Q and H a constant", sideList(sides)),
		Published: "greedy, greedy-ff: n; Q ≤ 5, H ≤ 3, the same at every n",
		Tolerance: "exact (greedy: n at every n; Q and H: one value for all n, within the bound)",
		Measure: func() (string, bool, error) {
			pts, err := han.Compare(sides)
			if err != nil {
				return "", false, err
			}
			ok := true
			var got []string
			for i, alg := range han.CompareAlgorithms {
				row := pts[i*len(sides) : (i+1)*len(sides)]
				var ms []string
				for _, p := range row {
					ms = append(ms, fmt.Sprint(p.MaxBuffer))
					greedy := alg == han.AlgGreedy || alg == han.AlgGreedyFF
					ok = ok && (greedy && p.MaxBuffer == p.N || !greedy && p.MaxBuffer == row[0].MaxBuffer && p.MaxBuffer <= p.Bound)
				}
				got = append(got, alg+" "+strings.Join(ms, ", "))
			}
			return strings.Join(got, "; "), ok, nil
		},
	})
}

// sideList names sides 8, 16, … as "8 … 256" (or the one side).
func sideList(sides []int) string {
	if len(sides) == 1 {
		return fmt.Sprint(sides[0])
	}
	return fmt.Sprintf("%d … %d", sides[0], slices.Max(sides))
}
