package verify

import (
	"fmt"
	"strings"
)

// The optimal MNB of the 2-D torus and array (Varvarigos §3.2 Theorem 1,
// digest 000a §5.1–5.2): task.algorithm=optimal, a searched
// translation-symmetric tree on the torus, folded onto the array with
// slowdown 2, run on the packet router.

func registerMeshMNB() {
	registerMeshMNBOpt("varvarigos-mesh-mnb", "", []int{3, 4, 5, 8})
	registerMeshMNBOpt("varvarigos-mesh-mnb-full", TierFull, span2(3, 32))
	Register(Claim{
		ID:     "varvarigos-mesh-mnb-seed",
		Source: "Varvarigos 1992 §3.4.2 MNB without splitting and Theorem 6 (digest 000a §5.8–5.9)",
		Claim: "the seed's own 2-D MNB (§3.4.2 without splitting, Theorem 6 with) on tori and arrays p = 3, 4, 5, 8: " +
			"within its bound and never below the optimum of Theorem 1",
		Published: "Eq. 3.7 / the §3.4.2 MNB bound; Eqs. 3.9/3.10; ≥ p²/4, (p²−1)/4, ⌊N/2⌋",
		Tolerance: "within the bounds; delivered exactly once",
		Measure: func() (string, bool, error) {
			var parts []string
			ok := true
			for _, kind := range []string{"torus", "mesh"} {
				var row []string
				for _, p := range []int{3, 4, 5, 8} {
					var got []string
					for _, alg := range []string{"nosplit", "split"} {
						r, err := gridRun(kind, p, 2, "mnb", map[string]string{"task.algorithm": alg})
						if err != nil {
							return "", false, err
						}
						ok = ok && inBounds(r) && r.Slots >= *r.Formula
						got = append(got, fmt.Sprintf("%.4g", r.Slots))
					}
					row = append(row, fmt.Sprintf("p=%d %s", p, strings.Join(got, "/")))
				}
				parts = append(parts, kind+" (nosplit/split) "+strings.Join(row, ", "))
			}
			return strings.Join(parts, "; "), ok, nil
		},
	})
}

// registerMeshMNBOpt registers the optimum's row for the sides ps.
func registerMeshMNBOpt(id, tier string, ps []int) {
	var tor, arr []string
	for _, p := range ps {
		tor = append(tor, fmt.Sprint((p*p-1+3)/4))
		arr = append(arr, fmt.Sprint(p*p/2))
	}
	sides := fmt.Sprint(ps)
	if len(ps) > 4 {
		sides = fmt.Sprintf("%d..%d", ps[0], ps[len(ps)-1])
	}
	Register(Claim{
		ID:     id,
		Source: "Varvarigos 1992 §3.2 Theorem 1 and [BeT89] (digest 000a §5.1–5.2, §7.1 item 12, §8 item 8)",
		Claim: "optimal MNB: 2-D torus p²/4 (p even) or (p²−1)/4 (p odd), 2-D array ⌊N/2⌋ by simulating the torus with slowdown 2; p = " + sides +
			", a translated spanning tree found by search, run on the hardware",
		Published: "torus " + strings.Join(tor, ", ") + "; array " + strings.Join(arr, ", "),
		Tolerance: "exact; delivered exactly once, no link carrying two packets in a slot",
		Tier:      tier,
		Measure: func() (string, bool, error) {
			var tm, am []string
			ok := true
			for i, p := range ps {
				for _, c := range []struct {
					kind string
					want string
					out  *[]string
				}{{"torus", tor[i], &tm}, {"mesh", arr[i], &am}} {
					r, err := gridRun(c.kind, p, 2, "mnb", map[string]string{"task.algorithm": "optimal"})
					if err != nil {
						return "", false, err
					}
					got := fmt.Sprintf("%g", r.Slots)
					*c.out = append(*c.out, got)
					ok = ok && got == c.want && r.Slots >= r.LowerBound
				}
			}
			return "torus " + strings.Join(tm, ", ") + "; array " + strings.Join(am, ", "), ok, nil
		},
	})
}

func span2(lo, hi int) []int {
	var out []int
	for i := lo; i <= hi; i++ {
		out = append(out, i)
	}
	return out
}
