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
	registerMeshMNBDims("varvarigos-mesh-mnb-dd", "", [][2]int{{3, 3}, {4, 3}, {5, 3}, {3, 4}, {4, 4}, {3, 5}})
	var all [][2]int // every d ≥ 3 torus a collective runs on (N ≤ 1024)
	for d := 3; d <= 6; d++ {
		for p := 3; ipowV(p, d) <= 1024; p++ {
			all = append(all, [2]int{p, d})
		}
	}
	registerMeshMNBDims("varvarigos-mesh-mnb-dd-full", TierFull, all)
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

// registerMeshMNBDims registers the d-D row for the (p, d) cases: the
// torus at §3.4's optimum ⌈(N−1)/(2d)⌉, the array at the simulation's
// bound 2⌈(N−1)/(2d)⌉ and above the corner's ⌈(N−1)/d⌉.
func registerMeshMNBDims(id, tier string, cases [][2]int) {
	var tor, arr, names []string
	for _, c := range cases {
		t := (ipowV(c[0], c[1]) - 1 + 2*c[1] - 1) / (2 * c[1])
		tor, arr = append(tor, fmt.Sprint(t)), append(arr, fmt.Sprint(2*t))
		names = append(names, fmt.Sprintf("%d^%d", c[0], c[1]))
	}
	shown := strings.Join(names, ", ")
	if len(cases) > 8 {
		shown = fmt.Sprintf("every p ≥ 3, d = 3..6 with N ≤ 1024 (%d networks)", len(cases))
	}
	Register(Claim{
		ID:     id,
		Source: "Varvarigos 1992 §3.4 (digest 000a §5.2 d-D torus optimum, §5.8 the array's bound by simulation)",
		Claim: "optimal MNB on the d-D torus in ⌈(N−1)/(2d)⌉ (every node receives N−1 packets over 2d links), and on the array within 2⌈(N−1)/(2d)⌉ by the simulation with slowdown 2 " +
			"(above the corner's ⌈(N−1)/d⌉); p^d = " + shown + ", a translated tree symmetric under (x_0, …, x_{d−1}) → (−x_{d−1}, x_0, …), run on the hardware",
		Published: "torus " + strings.Join(tor, ", ") + "; array ≤ " + strings.Join(arr, ", "),
		Tolerance: "torus exact, array ≤ the bound and ≥ ⌈(N−1)/d⌉; delivered exactly once",
		Tier:      tier,
		Measure: func() (string, bool, error) {
			var tm, am []string
			ok := true
			for i, c := range cases {
				rt, err := gridRun("torus", c[0], c[1], "mnb", map[string]string{"task.algorithm": "optimal"})
				if err != nil {
					return "", false, err
				}
				ra, err := gridRun("mesh", c[0], c[1], "mnb", map[string]string{"task.algorithm": "optimal"})
				if err != nil {
					return "", false, err
				}
				tm, am = append(tm, fmt.Sprintf("%g", rt.Slots)), append(am, fmt.Sprintf("%g", ra.Slots))
				ok = ok && fmt.Sprint(rt.Slots) == tor[i] && ra.Slots <= 2*rt.Slots && ra.Slots >= ra.LowerBound && rt.Slots >= rt.LowerBound
			}
			if len(cases) > 8 {
				return fmt.Sprintf("%d tori at the optimum, arrays within: last %s torus %s, array %s", len(cases), names[len(names)-1], tm[len(tm)-1], am[len(am)-1]), ok, nil
			}
			return "torus " + strings.Join(tm, ", ") + "; array " + strings.Join(am, ", "), ok, nil
		},
	})
}

func ipowV(p, d int) int {
	n := 1
	for range d {
		n *= p
	}
	return n
}
