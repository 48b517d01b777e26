package verify

import (
	"fmt"
	"strings"

	"github.com/flitsim/flitsim/network/collective"
	"github.com/flitsim/flitsim/network/topology"
)

// Hypercube PMNB Algorithms I and III, the t_p prefix channel, the banded
// transpositions and the partial exchange (Varvarigos 1992 §2.5–2.7,
// §3.6–3.7; digest 000a §4.7–4.9, §5.11–5.12, §7.1–7.3), measured on the
// simulated hypercube.

// hcRun is task on the d-cube with run.seed seed, failing unless delivered.
func hcRun(d int, task string, params map[string]string, seed uint64) (*collective.Result, error) {
	r, err := runCollective(topology.Spec{Kind: "hypercube", D: d}, task, params, seed)
	if err != nil {
		return nil, err
	}
	if !r.Delivered {
		return nil, fmt.Errorf("%s on the %d-cube %v: %w (missing %d, duplicates %d, stray %d)", task, d, params, ErrShortfall, r.Missing, r.Duplicates, r.Stray)
	}
	return r, nil
}

func pmnbP(alg string, m, tp int) map[string]string {
	return map[string]string{"task.m": fmt.Sprint(m), "task.algorithm": alg, "task.tp": fmt.Sprint(tp)}
}

func init() {
	registerPmnbRows()
	registerBandedRows()
	registerPERow()
}

func registerPmnbRows() {
	Register(Claim{
		ID:     "varvarigos-pmnb-iii",
		Source: "Varvarigos 1992 §3.6.3 (digest 000a §5.11.3, §7.3 III column)",
		Claim: "hypercube PMNB Algorithm III (no splitting; class r_s mod d by 𝒜_c, subphases aligned on ⌈M/d⌉; t_p = 0): exactly d + Σ⌈⌈M/d⌉/2^k⌉, " +
			"within ⌈M/d⌉ + 2d − 1; MNB (M = N) within ⌈N/d⌉ + 2d − 1",
		Published: "d=4 M=5: 8; d=4 M=16: 9; d=5 M=32: 14; d=8 M=64: 20; d=8 M=100: 26; d=8 M=256: 42; d=10 M=1024: 118",
		Tolerance: "exact; every node receives every packet once",
		Measure: func() (string, bool, error) {
			return pmnbTable("iii", []pmnbCase{{4, 5, 8}, {4, 16, 9}, {5, 32, 14}, {8, 64, 20}, {8, 100, 26}, {8, 256, 42}, {10, 1024, 118}})
		},
	})
	Register(Claim{
		ID:        "varvarigos-pmnb-i",
		Source:    "Varvarigos 1992 §3.6.1, Fig. 3.4 (digest 000a §5.11.1, §7.3 Alg I column, §8 item 13)",
		Claim:     "hypercube PMNB Algorithm I (packing d, subcube SNB d−m, subcube MNB; t_p = 0): ⌈(M−1)/m⌉ + 2d − m, M = 2^m; Fig. 3.4 N = 16, M = 4: 8",
		Published: "d=4 M=4: 8 (Fig. 3.4); d=3 M=8: 6; d=5 M=32: 12; d=8 M=16: 16; d=8 M=64: 21; d=8 M=256: 40; d=10 M=1024: 113",
		Tolerance: "exact (the subcube MNB is a symmetric spanning-tree schedule standing in for [BeT89]'s optimal one); delivered once",
		Measure: func() (string, bool, error) {
			return pmnbTable("i", []pmnbCase{{4, 4, 8}, {3, 8, 6}, {5, 32, 12}, {8, 16, 16}, {8, 64, 21}, {8, 256, 40}, {10, 1024, 113}})
		},
	})
	Register(Claim{
		ID:     "varvarigos-pmnb-prefix",
		Source: "Varvarigos 1992 §3.4.1, §3.6 (digest 000a §5.6, §7.3, §10.1)",
		Claim: "the rank computation as 2d prefix hops of t_p slots each, messages on the links (up-sweep and down-sweep, one dimension per hop): " +
			"it adds exactly 2d·t_p to 𝒜_0, II and I and 4d·t_p to III (class prefix too); d = 6, M = 20, t_p = 1, 2",
		Published: "+2d·t_p (𝒜_0, II, I), +4d·t_p (III): d = 6: 12, 24 and 24, 48",
		Tolerance: "exact; the nodes' ranks come from the messages (a wrong rank would misdeliver)",
		Measure:   measurePmnbPrefix,
	})
	Register(Claim{
		ID:     "varvarigos-fig35-hypercube",
		Source: "Varvarigos 1992 Fig. 3.5, hypercube column (digest 000a §5.11.5)",
		Claim: "PMNB with splitting (II) within (N−1)/N·M/d + 2d·t_p + 2 and without (III) within ⌈M/d⌉ + 2d + 4d·t_p − 1, " +
			"prefix on the hardware; d = 3..7, M = 1..N in steps, t_p = 0..2, random active sets",
		Published: "the two bounds of the table's hypercube column",
		Tolerance: "measured ≤ bound in every case; never below the lower bound",
		Measure:   measureFig35Hypercube,
	})
}

// measurePmnbPrefix runs d = 6, M = 20 by each algorithm with t_p = 0, 1, 2
// and checks that the prefix adds exactly 2d·t_p (4d·t_p for III).
func measurePmnbPrefix() (string, bool, error) {
	var parts []string
	ok := true
	for _, alg := range []string{"a0", "i", "ii", "iii"} {
		base, err := hcRun(6, "pmnb", pmnbP(alg, 20, 0), 1)
		if err != nil {
			return "", false, err
		}
		var add []string
		for tp := 1; tp <= 2; tp++ {
			r, err := hcRun(6, "pmnb", pmnbP(alg, 20, tp), 1)
			if err != nil {
				return "", false, err
			}
			want := float64(12 * tp)
			if alg == "iii" {
				want *= 2
			}
			ok = ok && near(r.Slots-base.Slots, want) && near(r.Slots, *r.Formula)
			add = append(add, fmt.Sprintf("+%g", r.Slots-base.Slots))
		}
		parts = append(parts, fmt.Sprintf("%s %s", alg, strings.Join(add, "/")))
	}
	return strings.Join(parts, "; "), ok, nil
}

// measureFig35Hypercube runs II and III over d = 3..7, M = 1..N and
// t_p = 0..2 and checks each run lies within Fig. 3.5's bounds.
func measureFig35Hypercube() (string, bool, error) {
	runs, worst := 0, 0.0
	ok := true
	for d := 3; d <= 7; d++ {
		for m := 1; m <= 1<<d; m += 1 + m/2 {
			for tp := 0; tp <= 2; tp++ {
				for _, alg := range []string{"ii", "iii"} {
					r, err := hcRun(d, "pmnb", pmnbP(alg, m, tp), uint64(m))
					if err != nil {
						return "", false, err
					}
					ok = ok && r.Slots <= *r.UpperBound+1e-9 && r.Slots >= r.LowerBound
					worst = max(worst, r.Slots / *r.UpperBound)
					runs++
				}
			}
		}
	}
	return fmt.Sprintf("%d runs within the bounds: %v (largest measured/bound %.3f)", runs, ok, worst), ok, nil
}

type pmnbCase struct {
	d, m int
	want float64
}

// pmnbTable runs alg (t_p = 0) on each case against the digest's value.
func pmnbTable(alg string, cases []pmnbCase) (string, bool, error) {
	var parts []string
	ok := true
	for _, c := range cases {
		r, err := hcRun(c.d, "pmnb", pmnbP(alg, c.m, 0), 1)
		if err != nil {
			return "", false, err
		}
		parts = append(parts, fmt.Sprintf("d=%d M=%d: %g", c.d, c.m, r.Slots))
		ok = ok && r.Slots == c.want && r.Slots >= r.LowerBound
		if r.UpperBound != nil {
			ok = ok && r.Slots <= *r.UpperBound
		}
	}
	return strings.Join(parts, "; "), ok, nil
}
