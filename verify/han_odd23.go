package verify

import (
	"fmt"
	"strings"
	"sync"

	"github.com/flitsim/flitsim/network/han"
)

// Han 1990 §3.6.3: Q on odd squares with the second and third mappings.

func init() {
	registerHanOdd23("han-q-odd23", "", []int{11, 21, 33})
	registerHanOdd23("han-q-odd23-full", TierFull, []int{37, 41, 63, 127})
}

// odd23Run is the worst of the odd rows' permutations and three more
// random ones on n×n with the mapping: the first stage's move (the
// thesis's table), the whole run, and the static data steps.
type odd23Run struct {
	first, worst, need int
	static, integer    int64
	overMoves          int
}

func hanOdd23Worst(variant string, n int) (odd23Run, error) {
	v := han.FindVariant(variant)
	w := odd23Run{need: v.Buffers(n, 0)}
	var inputs [][]int32
	for _, name := range []string{"random", "random", "random", "random", "rot180", "transpose"} {
		p, err := han.Permutation(name, n, uint64(len(inputs)+1))
		if err != nil {
			return w, err
		}
		inputs = append(inputs, p)
	}
	for i, p := range inputs {
		for _, sched := range han.Schedules {
			if sched == han.Static && i > 0 {
				continue
			}
			r, err := v.Run(n, 0, w.need, han.Lists(p), sched, nil)
			if err != nil {
				return w, fmt.Errorf("%s on %d×%d: %w", variant, n, n, err)
			}
			w.first, w.worst = max(w.first, r.Stages[0].Phases[0].MaxBuffer), max(w.worst, r.MaxBuffer)
			w.integer, w.overMoves = max(w.integer, r.IntegerSteps), w.overMoves+len(r.Deviations)
			if sched == han.Static {
				w.static = r.DataSteps
			}
		}
	}
	return w, nil
}

// registerHanOdd23 registers, on the odd sides given, the mappings'
// buffers on the first stage (the thesis's tables: pass), the pools the
// recursion needs (a deviation where they exceed the thesis's), and the
// static data steps against ≅ 4.3n (a deviation).
func registerHanOdd23(id, tier string, sizes []int) {
	names := fmt.Sprint(sizes)
	runs := map[string]odd23Run{} // (the three rows route the same inputs: once, the rows one at a time)
	var mu sync.Mutex
	measure := func(f func(variant string, n int, w odd23Run) (string, bool)) func() (string, bool, error) {
		return func() (string, bool, error) {
			mu.Lock()
			defer mu.Unlock()
			var got []string
			ok := true
			for _, variant := range []string{han.VariantOdd2, han.VariantOdd3} {
				for _, n := range sizes {
					key := fmt.Sprint(variant, n)
					w, done := runs[key]
					if !done {
						var err error
						if w, err = hanOdd23Worst(variant, n); err != nil {
							return "", false, err
						}
						runs[key] = w
					}
					s, good := f(variant, n, w)
					got, ok = append(got, s), ok && good
				}
			}
			return strings.Join(got, "; "), ok, nil
		}
	}
	Register(Claim{
		ID: id, Source: "Han 1990 (thesis) §3.6.3, second and third mappings", Tier: tier,
		Claim: "Q on odd n×n, n = " + names + " (random, rot180, transpose): the first stage's move (the thesis's tables) holds at most 6 messages a processor with the second mapping, " +
			"5 with the third; every run within the pool the variant needs (OddNeed); integer steps within 1.5n",
		Published: "6 buffers (second), 5 (third)",
		Tolerance: "at most",
		Measure: measure(func(variant string, n int, w odd23Run) (string, bool) {
			thesis := map[string]int{han.VariantOdd2: 6, han.VariantOdd3: 5}[variant]
			return fmt.Sprintf("%s n=%d first %d, run %d (pool %d), %d integer", variant, n, w.first, w.worst, w.need, w.integer),
				w.first <= thesis && w.worst <= w.need && float64(w.integer) <= 1.5*float64(n)
		}),
	})
	Register(Claim{
		ID: id + "-pools", Source: "Han 1990 (thesis) §3.6.3, Table 5.1", Tier: tier,
		Claim:     "Q on an arbitrary square with the third mapping: 5 buffers (second: 6), n = " + names,
		Published: "5 buffers (third), 6 (second)",
		Tolerance: "at most",
		Deviation: "the recursion splits an odd square into (s+1)², (s+1)×s, s×(s+1) and s² regions, and meets small ones the thesis gives no mapping for: " +
			"on 7×7 and 9×9 any fixed mapping sends at least six sources to one processor of IV ((2s+1)² on s²) and an input can send all six, " +
			"so the third mapping needs 6 on a mesh whose recursion meets them (OddNeed); measured: every run within its pool, no pool above 6",
		Measure: measure(func(variant string, n int, w odd23Run) (string, bool) {
			thesis := map[string]int{han.VariantOdd2: 6, han.VariantOdd3: 5}[variant]
			return fmt.Sprintf("%s n=%d pool %d (thesis %d)", variant, n, w.need, thesis), w.need <= 6 && w.worst <= w.need
		}),
	})
	Register(Claim{
		ID: id + "-steps", Source: "Han 1990 (thesis) §3.6.3, Table 5.1", Tier: tier,
		Claim:     "Q on odd n×n with the second and third mappings: ≅ 4.3n data steps (static schedule; moves of n + 2), n = " + names,
		Published: "≅ 4.3n t_M",
		Tolerance: "at most",
		Deviation: "moves run with the k² move's priorities and outlast n + 2 on some inputs (counted: moves past), the recursion's regions use our band and spread mappings, " +
			"and smoothing's static schedule takes Thm 2.1/2.3 with the mapping's b (5 or 6): measured within 1.3 × 4.3n",
		Measure: measure(func(variant string, n int, w odd23Run) (string, bool) {
			f := float64(w.static) / float64(n)
			return fmt.Sprintf("%s n=%d %d data (%.2fn), %d moves past", variant, n, w.static, f, w.overMoves), f <= 1.3*4.3
		}),
	})
}
