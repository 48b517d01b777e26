package verify

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/flitsim/flitsim/network/collective"
	"github.com/flitsim/flitsim/network/topology"
)

// Collective tasks on the hypercube (Varvarigos 1992 ch. 2–3, digest 000a
// §7.1), carried out as schedules by the simulated nodes on the packet
// router: slot counts come from the hardware run, which also checks that
// every packet reached every destination exactly once.

// collRun is one task on the d-cube, failing unless delivered.
func collRun(d int, task string, params map[string]string) (*collective.Result, error) {
	r, err := runCollective(topology.Spec{Kind: "hypercube", D: d}, task, params, 1)
	if err != nil {
		return nil, err
	}
	if !r.Delivered {
		return nil, fmt.Errorf("%s on the %d-cube: %w (missing %d, duplicates %d, stray %d)", task, d, ErrShortfall, r.Missing, r.Duplicates, r.Stray)
	}
	return r, nil
}

// mnbSlots is ⌈(N−1)/d⌉.
func mnbSlots(d int) int64 { return int64((1<<d - 1 + d - 1) / d) }

// collSweep runs task for d = lo..hi and reports the slot counts; ok when
// every count equals want(d) and none is below the lower bound.
func collSweep(task string, lo, hi int, want func(d int) int64) (string, bool, error) {
	var parts []string
	ok := true
	for d := lo; d <= hi; d++ {
		r, err := collRun(d, task, nil)
		if err != nil {
			return "", false, err
		}
		parts = append(parts, fmt.Sprintf("d=%d: %g", d, r.Slots))
		ok = ok && r.Slots == float64(want(d)) && r.Slots >= float64(r.LowerBound)
		if r.UpperBound != nil {
			ok = ok && r.Slots <= *r.UpperBound
		}
	}
	return strings.Join(parts, ", "), ok, nil
}

func init() {
	Register(Claim{
		ID:        "varvarigos-te",
		Source:    "Varvarigos 1992 §2.4 (digest 000a §4.5, §7.1 item 1)",
		Claim:     "total exchange on the d-cube in exactly N/2 slots by a symmetric OCTR schedule (d = 2..9)",
		Published: "N/2: 2, 4, 8, 16, 32, 64, 128, 256",
		Tolerance: "exact; delivered exactly once",
		Measure: func() (string, bool, error) {
			return collSweep("te", 2, 9, func(d int) int64 { return 1 << (d - 1) })
		},
	})
	Register(Claim{
		ID:        "varvarigos-kl-exchange",
		Source:    "Varvarigos 1992 §2.4 (digest 000a §4.6, §8 item 3)",
		Claim:     "(K,L)-neighbourhood exchange in h = max(L, Σ C(d,i)·i/d) slots",
		Published: "d=4 (1,1) 1, (1,2) 4, (2,2) 3, (2,4) 7; d=5 (2,3) 10; d=6 (3,3) 10, (1,6) 32; d=8 (1,2) 8; d=10 (1,1) 1, (1,2) 10",
		Tolerance: "exact; delivered exactly once",
		Measure:   measureKLExchange,
	})
	Register(Claim{
		ID:        "varvarigos-snb",
		Source:    "Varvarigos 1992 §1.2 (digest 000a §3.1)",
		Claim:     "single-node broadcast on the d-cube takes the diameter d (d = 2..10, root 0 and N−1)",
		Published: "d",
		Tolerance: "exact; every other node receives the packet once",
		Measure:   measureSNB,
	})
	registerMNBClaims()
	Register(Claim{
		ID:        "varvarigos-isotropic-random",
		Source:    "Varvarigos 1992 §2.2–2.4, Theorems 1 and 5 (digest 000a §4.2, §4.4)",
		Claim:     "random isotropic tasks (d = 3..7, 40 each) finish in exactly their critical sum h by the OCTR, never below the Theorem 1 bound",
		Published: "slots = h for every task",
		Tolerance: "exact; delivered exactly once",
		Measure:   measureIsotropicRandom,
	})
	Register(Claim{
		ID:     "varvarigos-pmnb-broadcast",
		Source: "Varvarigos 1992 §3.6.2 Lemma 4 (digest 000a §7.1 item 7, §7.3)",
		Claim: "hypercube PMNB 𝒜_0 (no splitting, ranks known: t_p = 0): broadcast phase exactly Σ_{k=1}^{d}⌈M/2^k⌉ after d packing slots, " +
			"within Lemma 5's M(N−1)/N + 2d, never below max(d, ⌈(M−1)/d⌉); random active sets, 3 seeds each",
		Published: "d=4 M=5: 7; d=5 M=7: 9; d=8 M=100: 103; d=8 M=256: 255; d=10 M=1024: 1023 (M = N: N−1)",
		Tolerance: "exact; every node receives every packet once",
		Measure:   measurePmnbBroadcast,
	})
	Register(Claim{
		ID:        "varvarigos-packing",
		Source:    "Varvarigos 1992 §3.6.1 (digest 000a §5.11.1, §7.1 item 6)",
		Claim:     "hypercube packing of M active packets to their ranks in d slots on node-disjoint paths (d = 8, M = 1..256, random sets)",
		Published: "d = 8 slots, node-disjoint",
		Tolerance: "≤ d slots (= d when a packet crosses dimension d−1), at most one packet at a node after any slot",
		Measure:   measurePacking,
	})
	Register(Claim{
		ID:        "varvarigos-wmnb",
		Source:    "Varvarigos 1992 §3.8 (digest 000a §5.13, §8 item 16)",
		Claim:     "window MNB among M = 2^m nodes using all links of the d-cube, packets split into d mini-packets: M+1 mini-slots, (M+1)/d time (all 1 ≤ m < d ≤ 8)",
		Published: "(M+1)/d; d=8, m=4: 17/8 = 2.125 (lower bound 15/8)",
		Tolerance: "exact; every window node receives every class of every packet once",
		Measure:   measureWMNB,
	})
	Register(Claim{
		ID:        "varvarigos-pmnb-ii",
		Source:    "Varvarigos 1992 §3.6.2 Theorem 8 (digest 000a §5.11.2, §7.3 II column)",
		Claim:     "hypercube PMNB Algorithm II (packets split into d mini-packets, class c on labels rotated by c; t_p = 0): exactly 1 + Σ⌈M/2^k⌉/d, within (M/d)(N−1)/N + 2",
		Published: "d=4 M=5: 2.75; d=8 M=100: 13.875; d=8 M=256: 32.875; d=10 M=1024: 103.3",
		Tolerance: "exact (±1e-9); delivered exactly once per class",
		Measure:   measurePmnbII,
	})
}

// measureKLExchange runs ten (K, L) exchanges and checks h exactly.
func measureKLExchange() (string, bool, error) {
	var parts []string
	ok := true
	for _, c := range []struct{ d, k, l, h int }{
		{4, 1, 1, 1}, {4, 1, 2, 4}, {4, 2, 2, 3}, {4, 2, 4, 7}, {5, 2, 3, 10}, {6, 3, 3, 10}, {6, 1, 6, 32}, {8, 1, 2, 8}, {10, 1, 1, 1}, {10, 1, 2, 10},
	} {
		r, err := collRun(c.d, "kl-exchange", map[string]string{"task.k": fmt.Sprint(c.k), "task.l": fmt.Sprint(c.l)})
		if err != nil {
			return "", false, err
		}
		parts = append(parts, fmt.Sprintf("d=%d (%d,%d) %g", c.d, c.k, c.l, r.Slots))
		ok = ok && r.Slots == float64(c.h) && r.Slots >= float64(r.LowerBound)
	}
	return strings.Join(parts, "; "), ok, nil
}

// measureSNB broadcasts from node 0 and node N−1 on the 2- to 10-cube and
// checks d slots and N−1 deliveries.
func measureSNB() (string, bool, error) {
	var parts []string
	ok := true
	for d := 2; d <= 10; d++ {
		for _, root := range []int{0, 1<<d - 1} {
			r, err := collRun(d, "snb", map[string]string{"task.root": fmt.Sprint(root)})
			if err != nil {
				return "", false, err
			}
			ok = ok && r.Slots == float64(d) && r.Deliveries == int64(1<<d-1)
			if root == 0 {
				parts = append(parts, fmt.Sprintf("d=%d: %g", d, r.Slots))
			}
		}
	}
	return strings.Join(parts, ", "), ok, nil
}

// measureIsotropicRandom runs 40 random isotropic tasks per d = 3..7 and
// checks each finishes in exactly its critical sum h.
func measureIsotropicRandom() (string, bool, error) {
	rng := rand.New(rand.NewPCG(16, 1992))
	runs := 0
	for d := 3; d <= 7; d++ {
		for range 40 {
			var tags []uint32
			for x := 1; x < 1<<d; x++ {
				if rng.IntN(3) == 0 {
					tags = append(tags, uint32(x))
				}
			}
			if len(tags) == 0 {
				tags = []uint32{uint32(1 + rng.IntN(1<<d-1))}
			}
			r, err := collective.RunTags(d, tags, 1)
			if err != nil {
				return "", false, err
			}
			if !r.Delivered {
				return "", false, fmt.Errorf("isotropic task on the %d-cube: %w", d, ErrShortfall)
			}
			if r.Slots != float64(r.LowerBound) {
				return fmt.Sprintf("d=%d, %d rows: %g slots, h = %g", d, len(tags), r.Slots, r.LowerBound), false, nil
			}
			runs++
		}
	}
	return fmt.Sprintf("%d tasks, slots = h in all", runs), true, nil
}

// measurePmnbBroadcast runs 𝒜_0 on five (d, M) cases, 3 seeds each, and
// checks the broadcast phase exactly and the bounds.
func measurePmnbBroadcast() (string, bool, error) {
	var parts []string
	ok := true
	for _, c := range []struct{ d, m, phase int }{{4, 5, 7}, {5, 7, 9}, {8, 100, 103}, {8, 256, 255}, {10, 1024, 1023}} {
		for seed := uint64(1); seed <= 3; seed++ {
			r, err := runCollective(topology.Spec{Kind: "hypercube", D: c.d}, "pmnb", map[string]string{"task.m": fmt.Sprint(c.m)}, seed)
			if err != nil {
				return "", false, err
			}
			if !r.Delivered {
				return "", false, fmt.Errorf("pmnb d=%d M=%d: %w", c.d, c.m, ErrShortfall)
			}
			phase := r.Slots - float64(c.d)
			ok = ok && phase == float64(c.phase) && r.Slots <= *r.UpperBound && r.Slots >= float64(r.LowerBound)
			if seed == 1 {
				parts = append(parts, fmt.Sprintf("d=%d M=%d: %g (total %g)", c.d, c.m, phase, r.Slots))
			}
		}
	}
	return strings.Join(parts, "; "), ok, nil
}

// measurePacking packs 18 random active sets on the 8-cube and checks
// ≤ d slots with at most one packet at a node.
func measurePacking() (string, bool, error) {
	ok, most, full := true, 0, 0
	for m := 1; m <= 256; m += 15 {
		r, err := runCollective(topology.Spec{Kind: "hypercube", D: 8}, "packing", map[string]string{"task.m": fmt.Sprint(m)}, uint64(m))
		if err != nil {
			return "", false, err
		}
		if !r.Delivered {
			return "", false, fmt.Errorf("packing M=%d: %w", m, ErrShortfall)
		}
		ok = ok && r.Slots <= 8 && r.MaxAtNode <= 1
		most = max(most, int(r.Slots))
		if r.Slots == 8 {
			full++
		}
	}
	return fmt.Sprintf("at most %d slots over 18 sets (%d took all 8), node-disjoint: %v", most, full, ok), ok, nil
}

// measureWMNB runs every window 1 ≤ m < d ≤ 8 and checks M+1 mini-slots.
func measureWMNB() (string, bool, error) {
	ok, runs, ex := true, 0, ""
	for d := 2; d <= 8; d++ {
		for m := 1; m < d; m++ {
			r, err := collRun(d, "wmnb", map[string]string{"task.m": fmt.Sprint(m)})
			if err != nil {
				return "", false, err
			}
			mm := int64(1) << m
			ok = ok && r.MiniSlots != nil && *r.MiniSlots == mm+1 && r.Slots >= r.LowerBound
			runs++
			if d == 8 && m == 4 && r.MiniSlots != nil {
				ex = fmt.Sprintf("d=8, m=4: %d mini-slots = %g", *r.MiniSlots, r.Slots)
			}
		}
	}
	return fmt.Sprintf("%s; M+1 in all %d cases: %v", ex, runs, ok), ok, nil
}

// measurePmnbII runs Algorithm II on four (d, M) cases and checks the
// exact time and the bounds.
func measurePmnbII() (string, bool, error) {
	var parts []string
	ok := true
	for _, c := range []struct {
		d, m int
		want float64
	}{{4, 5, 2.75}, {8, 100, 13.875}, {8, 256, 32.875}, {10, 1024, 103.3}} {
		r, err := collRun(c.d, "pmnb", map[string]string{"task.m": fmt.Sprint(c.m), "task.algorithm": "ii"})
		if err != nil {
			return "", false, err
		}
		parts = append(parts, fmt.Sprintf("d=%d M=%d: %g", c.d, c.m, r.Slots))
		ok = ok && near(r.Slots, c.want) && r.Slots <= *r.UpperBound && r.Slots >= r.LowerBound
	}
	return strings.Join(parts, "; "), ok, nil
}

// registerMNBClaims registers the multinode broadcast's rows: d = 2..14 in
// every run, the 16-cube in the full tier.
func registerMNBClaims() {
	Register(Claim{
		ID:     "varvarigos-mnb",
		Source: "Varvarigos 1992 §3.6 quoting [BOS91] (digest 000a §5.2, §10.6)",
		Claim: "multinode broadcast on the d-cube in ⌈(N−1)/d⌉ slots (d = 2..14), never above the in-document " +
			"⌈N/d⌉+2d−1 nor below max(d, ⌈(N−1)/d⌉); the [BOS91] algorithm is not in the seed: a symmetric spanning-tree schedule (one edge per dimension per slot) stands in, on the lock-step hardware",
		Published: "⌈(N−1)/d⌉: 2, 3, 4, 7, 11, 19, 32, 57, 103, 187, 342, 631, 1171",
		Tolerance: "exact; delivered exactly once",
		Measure: func() (string, bool, error) {
			return collSweep("mnb", 2, 14, mnbSlots)
		},
	})
	Register(Claim{
		ID:        "varvarigos-mnb-d16",
		Source:    "Varvarigos 1992 §3.6 quoting [BOS91] (digest 000a §5.2, §10.6)",
		Claim:     "multinode broadcast on the 16-cube (N = 65 536, 4.3·10⁹ packet-hops) in ⌈(N−1)/d⌉ slots on the lock-step hardware (about 3–5 s and 1 GB)",
		Published: "4096",
		Tolerance: "exact; delivered exactly once",
		Measure: func() (string, bool, error) {
			return collSweep("mnb", 16, 16, mnbSlots)
		},
		Tier: TierFull,
	})
}
