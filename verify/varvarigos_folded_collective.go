package verify

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/flitsim/flitsim/network/collective"
	"github.com/flitsim/flitsim/network/topology"
)

// Collective tasks on the folded cube (the folded-cube paper, seed 003, and
// Varvarigos 1992 §7.4; digest 000b §4.14, §5.4), carried out as schedules
// by the simulated nodes on the packet router, which also checks that
// every packet reached every destination exactly once.

// foldRun is one folded-cube task, failing unless delivered.
func foldRun(d int, task string, params map[string]string, seed uint64) (*collective.Result, error) {
	r, err := runCollective(topology.Spec{Kind: "folded-cube", D: d, Seed: seed}, task, params, seed)
	if err != nil {
		return nil, err
	}
	if !r.Delivered {
		return nil, fmt.Errorf("%s on the folded %d-cube: %w (missing %d, duplicates %d, stray %d)", task, d, ErrShortfall, r.Missing, r.Duplicates, r.Stray)
	}
	return r, nil
}

// within is whether r's slots are within its lower and upper bounds.
func within(r *collective.Result) bool {
	return r.Slots >= r.LowerBound && (r.UpperBound == nil || r.Slots <= *r.UpperBound)
}

// foldSweep runs task for each d and reports the slots; ok when every
// count satisfies want.
func foldSweep(task string, params map[string]string, ds []int, want func(d int, r *collective.Result) bool) (string, bool, error) {
	var parts []string
	ok := true
	for _, d := range ds {
		r, err := foldRun(d, task, params, 1)
		if err != nil {
			return "", false, err
		}
		parts = append(parts, fmt.Sprintf("d=%d: %.4g", d, r.Slots))
		ok = ok && within(r) && want(d, r)
	}
	return strings.Join(parts, ", "), ok, nil
}

func init() {
	Register(Claim{
		ID:        "varvarigos-folded-te",
		Source:    "Varvarigos 1992 §7.4; folded-cube paper §4, Lemma 2 (digest 000b §4.14(g), §5.4)",
		Claim:     "folded-cube total exchange in 2^{d−1} − ½·C(d,⌈d/2⌉) slots (Ho's lower bound) by a symmetric schedule from an edge colouring of the task matrix: shortest paths, no splitting, every link busy every slot",
		Published: "d=2: 1, 4: 5, 5: 11, 6: 22, 8: 93, 9: 193",
		Tolerance: "exact; link utilisation 1; delivered exactly once",
		Measure:   measureVarvarigosFoldedTe,
	})
	Register(Claim{
		ID:        "varvarigos-folded-te-odd",
		Source:    "folded-cube paper §4 (digest 000b §5.4, §7 item 21)",
		Claim:     "folded-cube TE for d = 3, 7, where C(d,⌈d/2⌉) is odd: the formula is not whole",
		Published: "2^{d−1} − ½·C(d,⌈d/2⌉): d=3: 2.5, d=7: 46.5",
		Tolerance: "⌈formula⌉ = Ho's bound in whole slots (digest 000b §7 item 21)",
		Deviation: "the paper splits the weight-⌈d/2⌉ destinations into two equal sets, impossible when C(d,⌈d/2⌉) is odd (d = 2^j − 1); " +
			"with whole packets in whole slots the optimum is ⌈formula⌉ (digest 000b §7 item 21): the split here takes whole rotation orbits, as near half as possible",
		Measure: measureVarvarigosFoldedTeOdd,
	})
	Register(Claim{
		ID:        "varvarigos-folded-te-greedy",
		Source:    "folded-cube paper §4 (digest 000b §4.14(g))",
		Claim:     "any greedy symmetric TE scheme on the folded cube takes at most 2^{d−1} − ½·C(d,⌈d/2⌉) + d − 1 slots (d = 2..9; heaviest remaining row first)",
		Published: "≤ T_TE + d − 1: d=4: 8, d=8: 100, d=9: 201",
		Tolerance: "at most the bound, at least ⌈T_TE⌉; delivered exactly once",
		Measure:   measureVarvarigosFoldedTeGreedy,
	})
	Register(Claim{
		ID:        "varvarigos-folded-mnb-split",
		Source:    "Varvarigos 1992 §7.4 (digest 000b §4.14(b), §5.4; §7 item 20 for the dimension orders)",
		Claim:     "folded-cube MNB with packets split into d+1 parts in (N−1)/(d+1), strictly optimal (d = 2..8)",
		Published: "(N−1)/(d+1): d=4: 3, d=6: 9, d=8: 28.33",
		Tolerance: "exact (N−1 mini-slots); every node receives every part once",
		Measure:   measureVarvarigosFoldedMnbSplit,
	})
	Register(Claim{
		ID:        "varvarigos-folded-mnb",
		Source:    "folded-cube paper §3 (digest 000b §4.14(d), §5.4, §6 item 16)",
		Claim:     "folded-cube MNB without splitting (the PMNB with M = N: d+1 classes, 𝒜_0 in each hypercube F_c) within ⌈N/(d+1)⌉ + 2d − 1, never below max(⌈d/2⌉, ⌈(N−1)/(d+1)⌉) (d = 2..10)",
		Published: "≤ ⌈N/(d+1)⌉ + 2d − 1: d=8: 44, d=10: 113",
		Tolerance: "within the bounds; delivered exactly once",
		Measure:   measureVarvarigosFoldedMnb,
	})
	Register(Claim{
		ID:        "varvarigos-folded-snb-sna",
		Source:    "folded-cube paper §3 (digest 000b §4.14(a), §5.4, §6 item 16)",
		Claim:     "folded-cube single-node broadcast and accumulation in ⌈d/2⌉ (the diameter) by a breadth-first spanning tree (d = 2..10, roots 0 and N−1)",
		Published: "⌈d/2⌉: d=3: 2, d=4: 2, d=5: 3",
		Tolerance: "exact; every node receives the packet (the root every contribution) once",
		Measure:   measureVarvarigosFoldedSnbSna,
	})
	Register(Claim{
		ID:        "varvarigos-folded-pmnb",
		Source:    "folded-cube paper §3, eqs. 2 and 4 (digest 000b §4.14(c), §5.4; §7 items 23, 24)",
		Claim:     "folded-cube PMNB without splitting (classes r_s mod (d+1), 𝒜_0 in each F_c; ranks known: t_p = 0) and its dual PMNA within ⌈M/(d+1)⌉ + 2d − 1, never below max(⌈d/2⌉, ⌈(M−1)/(d+1)⌉); random active sets, 3 seeds each (d = 10: one PMNB)",
		Published: "≤ ⌈M/(d+1)⌉ + 2d + 4d·t_p − 1 (t_p = 0): d=8 M=256: 44; d=10 M=1024: 113",
		Tolerance: "within the bounds; every node receives every packet once (PMNA: every active node's result holds every contribution once)",
		Measure:   measureVarvarigosFoldedPmnb,
	})
	Register(Claim{
		ID:        "varvarigos-folded-sns-sng",
		Source:    "folded-cube paper §3 (digest 000b §4.14(e))",
		Claim:     "folded-cube single-node gather (the MNB without splitting restricted to the paths into the root) and scatter (its reverse) within ⌈N/(d+1)⌉ + 2d − 1, never below ⌈(N−1)/(d+1)⌉ (d = 3..9)",
		Published: "near-optimal: ≤ ⌈N/(d+1)⌉ + 2d − 1 (d=8: 44), lower bound ⌈(N−1)/(d+1)⌉ (d=8: 29)",
		Tolerance: "within the bounds; the root receives (every node receives) its packet once",
		Measure:   measureVarvarigosFoldedSnsSng,
	})
	Register(Claim{
		ID:        "varvarigos-folded-isotropic-random",
		Source:    "folded-cube paper §4, Lemma 2 (digest 000b §4.14(g)); Varvarigos 1992 Theorem 1",
		Claim:     "random isotropic tasks on the folded cube (shortest-path tags, d = 3..7, 30 each) finish in exactly the critical sum h of their task matrix by the edge-colouring schedule, never below Theorem 1's bound",
		Published: "slots = h (Lemma 2: TE time = critical sum)",
		Tolerance: "exact; delivered exactly once",
		Measure:   measureVarvarigosFoldedIsotropicRandom,
	})
}

// measureVarvarigosFoldedTe measures claim varvarigos-folded-te.
func measureVarvarigosFoldedTe() (string, bool, error) {
	return foldSweep("te", nil, []int{2, 4, 5, 6, 8, 9}, func(d int, r *collective.Result) bool {
		return r.Slots == *r.Formula && r.LinkUtilisation == 1
	})
}

// measureVarvarigosFoldedTeOdd measures claim varvarigos-folded-te-odd.
func measureVarvarigosFoldedTeOdd() (string, bool, error) {
	return foldSweep("te", nil, []int{3, 7}, func(d int, r *collective.Result) bool {
		return r.Slots == math.Ceil(*r.Formula) && r.Slots == r.LowerBound
	})
}

// measureVarvarigosFoldedTeGreedy measures claim varvarigos-folded-te-greedy.
func measureVarvarigosFoldedTeGreedy() (string, bool, error) {
	return foldSweep("te-greedy", nil, []int{2, 3, 4, 5, 6, 7, 8, 9}, func(d int, r *collective.Result) bool {
		return r.Slots <= *r.UpperBound && r.Slots >= r.LowerBound
	})
}

// measureVarvarigosFoldedMnbSplit measures claim varvarigos-folded-mnb-split.
func measureVarvarigosFoldedMnbSplit() (string, bool, error) {
	return foldSweep("mnb", map[string]string{"task.split": "true"}, []int{2, 3, 4, 5, 6, 7, 8}, func(d int, r *collective.Result) bool {
		return r.MiniSlots != nil && *r.MiniSlots == int64(1<<d-1) && near(r.Slots, float64(int(1)<<d-1)/float64(d+1))
	})
}

// measureVarvarigosFoldedMnb measures claim varvarigos-folded-mnb.
func measureVarvarigosFoldedMnb() (string, bool, error) {
	return foldSweep("mnb", nil, []int{2, 3, 4, 5, 6, 7, 8, 9, 10}, func(d int, r *collective.Result) bool { return r.Slots <= *r.UpperBound })
}

// measureVarvarigosFoldedSnbSna measures claim varvarigos-folded-snb-sna.
func measureVarvarigosFoldedSnbSna() (string, bool, error) {
	var parts []string
	ok := true
	for d := 2; d <= 10; d++ {
		for _, task := range []string{"snb", "sna"} {
			for _, root := range []int{0, 1<<d - 1} {
				r, err := foldRun(d, task, map[string]string{"task.root": fmt.Sprint(root)}, 1)
				if err != nil {
					return "", false, err
				}
				ok = ok && within(r) && r.Slots == float64((d+1)/2) && r.Deliveries == int64(1<<d-1)
				if root == 0 && task == "snb" {
					parts = append(parts, fmt.Sprintf("d=%d: %g", d, r.Slots))
				}
			}
		}
	}
	return strings.Join(parts, ", "), ok, nil
}

// measureVarvarigosFoldedPmnb measures claim varvarigos-folded-pmnb.
func measureVarvarigosFoldedPmnb() (string, bool, error) {
	var parts []string
	ok := true
	for _, c := range []struct{ d, m int }{{4, 5}, {6, 20}, {8, 100}, {8, 256}, {10, 1024}} {
		for seed := uint64(1); seed <= 3; seed++ {
			for _, task := range []string{"pmnb", "pmna"} {
				if c.d > 8 && (task == "pmna" || seed > 1) { // (d = 10: one PMNB, to keep the row quick)
					continue
				}
				r, err := foldRun(c.d, task, map[string]string{"task.m": fmt.Sprint(c.m)}, seed)
				if err != nil {
					return "", false, err
				}
				ok = ok && within(r)
				if seed == 1 && task == "pmnb" {
					parts = append(parts, fmt.Sprintf("d=%d M=%d: %g (≤ %g, ≥ %g)", c.d, c.m, r.Slots, *r.UpperBound, r.LowerBound))
				}
			}
		}
	}
	return strings.Join(parts, "; "), ok, nil
}

// measureVarvarigosFoldedSnsSng measures claim varvarigos-folded-sns-sng.
func measureVarvarigosFoldedSnsSng() (string, bool, error) {
	var parts []string
	ok := true
	for d := 3; d <= 9; d++ {
		for _, task := range []string{"sng", "sns"} {
			r, err := foldRun(d, task, map[string]string{"task.root": "1"}, 1)
			if err != nil {
				return "", false, err
			}
			ok = ok && within(r)
			if task == "sng" {
				parts = append(parts, fmt.Sprintf("d=%d: %g", d, r.Slots))
			}
		}
	}
	return strings.Join(parts, ", "), ok, nil
}

// measureVarvarigosFoldedIsotropicRandom measures claim varvarigos-folded-isotropic-random.
func measureVarvarigosFoldedIsotropicRandom() (string, bool, error) {
	rng := rand.New(rand.NewPCG(3, 2003))
	runs := 0
	for d := 3; d <= 7; d++ {
		for range 30 {
			var offs []int
			for x := 1; x < 1<<d; x++ {
				if rng.IntN(3) == 0 {
					offs = append(offs, x)
				}
			}
			if len(offs) == 0 {
				offs = []int{1 + rng.IntN(1<<d-1)}
			}
			r, err := collective.RunFoldedOffsets(d, offs, 1)
			if err != nil {
				return "", false, err
			}
			if !r.Delivered {
				return "", false, fmt.Errorf("isotropic task on the folded %d-cube: %w", d, ErrShortfall)
			}
			if r.Slots != r.LowerBound {
				return fmt.Sprintf("d=%d, %d offsets: %g slots, h = %g", d, len(offs), r.Slots, r.LowerBound), false, nil
			}
			runs++
		}
	}
	return fmt.Sprintf("%d tasks, slots = h in all", runs), true, nil
}
