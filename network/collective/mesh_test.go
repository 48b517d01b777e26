package collective

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/network/topology"
)

func runGridT(t *testing.T, kind string, p, n int, task string, params map[string]string) *Result {
	t.Helper()
	r, err := Run(topology.Spec{Kind: kind, K: p, N: n}, task, params, 1)
	if err != nil {
		t.Fatalf("%s %s k=%d n=%d %v: %v", task, kind, p, n, params, err)
	}
	if !r.Delivered || r.Deliveries == 0 && r.Packets > 0 {
		t.Fatalf("%s %s k=%d n=%d %v: not delivered (missing %d, duplicates %d, stray %d)", task, kind, p, n, params, r.Missing, r.Duplicates, r.Stray)
	}
	if r.Slots < r.LowerBound {
		t.Fatalf("%s %s k=%d n=%d %v: %g slots beat the lower bound %g", task, kind, p, n, params, r.Slots, r.LowerBound)
	}
	if r.UpperBound != nil && r.Slots > *r.UpperBound+1e-9 {
		t.Fatalf("%s %s k=%d n=%d %v: %g slots exceed the seed's bound %g (%s)", task, kind, p, n, params, r.Slots, *r.UpperBound, r.UpperText)
	}
	return r
}

// Digest 000a §8 item 9: linear-array MNB in p−1, ring ⌊p/2⌋ without
// splitting (p=5 → 2, p=6 → 3) and (p−1)/2 with halves.
func TestLineMNBExact(t *testing.T) {
	for p := 2; p <= 9; p++ {
		if r := runGridT(t, "mesh", p, 1, "mnb", nil); r.Slots != float64(p-1) || *r.Formula != float64(p-1) {
			t.Errorf("array p=%d: %g slots (formula %v), want p−1", p, r.Slots, *r.Formula)
		}
		if p < 3 {
			continue
		}
		if r := runGridT(t, "torus", p, 1, "mnb", nil); r.Slots != float64(p/2) {
			t.Errorf("ring p=%d: %g slots, want ⌊p/2⌋ = %d", p, r.Slots, p/2)
		}
		if r := runGridT(t, "torus", p, 1, "mnb", map[string]string{"task.algorithm": "halves"}); r.Slots != float64(p-1)/2 || r.MiniSlots == nil || *r.MiniSlots != int64(p-1) {
			t.Errorf("ring p=%d halves: %g slots, want (p−1)/2", p, r.Slots)
		}
	}
}

// Theorem 2 (digest §5.3): arbitrary packet counts; on the array the
// pass-through algorithm ends at exactly max_j(S_j + p − 2 − j) (each
// direction), within K + p − 1; on the ring with halves within (K+p−1)/2.
func TestLineBroadcastCounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 1992))
	for range 40 {
		p := 3 + rng.IntN(6)
		counts := make([]string, p)
		c := make([]int, p)
		for i := range counts {
			c[i] = rng.IntN(4)
			counts[i] = fmt.Sprint(c[i])
		}
		c[rng.IntN(p)]++
		counts = strings.Fields(strings.Trim(fmt.Sprint(c), "[]"))
		params := map[string]string{"task.packets": strings.Join(counts, ",")}
		r := runGridT(t, "mesh", p, 1, "bcast", params)
		if r.Slots != float64(lineExact(c)) {
			t.Errorf("array %v: %g slots, want %d", c, r.Slots, lineExact(c))
		}
		runGridT(t, "torus", p, 1, "bcast", params) // within (K+p−1)/2
		runGridT(t, "torus", p, 1, "bcast", map[string]string{"task.packets": params["task.packets"], "task.algorithm": "whole"})
	}
	if got := lineExact([]int{1, 1, 1, 1}); got != 3 {
		t.Errorf("lineExact(1,1,1,1) = %d, want p−1 = 3", got)
	}
	if got := lineExact([]int{5, 0, 0}); got != 6 { // K + p − 2: all at one end
		t.Errorf("lineExact(5,0,0) = %d, want 6", got)
	}
}

// Digest §8 item 10: p=3, d=2, sources {1,2,3,4,5,7} packed to 0..5 on
// the 4-step clock d(p−1), no link conflict (the router would refuse one),
// two packets at node (1,1) after step 1; the last packet arrives after
// step 3 (no packet crosses a whole last phase).
func TestMeshPackingExample(t *testing.T) {
	r := runGridT(t, "mesh", 3, 2, "packing", map[string]string{"task.sources": "1,2,3,4,5,7"})
	if *r.Formula != 4 || r.MaxAtNode != 2 || r.Slots != 3 || r.Deliveries != 6 {
		t.Errorf("packing example: %g slots, formula %g, %d at a node, %d deliveries; want 3, 4, 2, 6", r.Slots, *r.Formula, r.MaxAtNode, r.Deliveries)
	}
}

// Theorems 3 and 4 on random instances: conflict-free, within d(p−1) and
// 2d(p−1), exactly so when a packet crosses a whole last phase.
func TestMeshPackingMonotoneRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 1992))
	for range 60 {
		p, d := 2+rng.IntN(5), 1+rng.IntN(3)
		n := ipow(p, d)
		m := 1 + rng.IntN(n)
		for _, kind := range []string{"mesh", "torus"} {
			if kind == "torus" && p < 3 {
				continue
			}
			params := map[string]string{"task.m": fmt.Sprint(m)}
			r := runGridT(t, kind, p, d, "packing", params)
			if r.Slots > float64(d*(p-1)) {
				t.Errorf("packing %s p=%d d=%d m=%d: %g slots > d(p−1)", kind, p, d, m, r.Slots)
			}
			src := fmt.Sprintf("%d", n-1) // the last node's packet to node 0 crosses every phase
			r = runGridT(t, kind, p, d, "packing", map[string]string{"task.sources": src})
			if r.Slots != float64(d*(p-1)) {
				t.Errorf("packing %s p=%d d=%d from N−1: %g slots, want d(p−1) = %d", kind, p, d, r.Slots, d*(p-1))
			}
			r = runGridT(t, kind, p, d, "monotone", params)
			if r.Slots > float64(2*d*(p-1)) {
				t.Errorf("monotone %s p=%d d=%d m=%d: %g slots > 2d(p−1)", kind, p, d, m, r.Slots)
			}
		}
	}
	r := runGridT(t, "mesh", 4, 2, "monotone", map[string]string{"task.sources": "15", "task.dests": "15"})
	if r.Slots != 12 {
		t.Errorf("monotone 15 → 0 → 15 on the 4×4 array: %g slots, want 2d(p−1) = 12", r.Slots)
	}
}

// Mesh PMNB by 𝒜_0, Theorem 6 (split) and §3.4.2 (nosplit) on arrays and
// tori with random active sets: delivered to every node once, the fixed
// subphase lengths never overrun, within the schedule's clock and the
// seed's bound (Lemma 2, Eqs. 3.7–3.10), never below the lower bound.
func TestMeshPMNBRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 1992))
	for range 24 {
		p, d := 3+rng.IntN(3), 1+rng.IntN(3)
		n := ipow(p, d)
		for _, kind := range []string{"mesh", "torus"} {
			for _, alg := range []string{"a0", "split", "nosplit"} {
				m := 1 + rng.IntN(n)
				tp := rng.IntN(3)
				params := map[string]string{"task.m": fmt.Sprint(m), "task.algorithm": alg, "task.tp": fmt.Sprint(tp)}
				r := runGridT(t, kind, p, d, "pmnb", params)
				if r.Slots > *r.Formula {
					t.Errorf("pmnb %s p=%d d=%d %v: %g slots beyond the clock %g", kind, p, d, params, r.Slots, *r.Formula)
				}
				// the prefix channel (ranks checked against the packing's by
				// the run) adds exactly 2d(p−1)t_p, 4d(p−1)t_p without splitting
				params["task.tp"] = "0"
				r0 := runGridT(t, kind, p, d, "pmnb", params)
				want := float64(2 * d * (p - 1) * tp)
				if alg == "nosplit" {
					want *= 2
				}
				if math.Abs(*r.Formula-*r0.Formula-want) > 1e-9 {
					t.Errorf("pmnb %s p=%d d=%d m=%d %s t_p=%d: the prefix adds %g, want %g", kind, p, d, m, alg, tp, *r.Formula-*r0.Formula, want)
				}
			}
		}
	}
}

// Digest §8 item 8: the 2-D MNB optima are the formula (torus p=3,4,5 →
// 2, 4, 6; array 4, 8, 12, 32); the seed's own algorithms (§3.4.2 without
// splitting, Theorem 6 with) stay within their bounds and above the optima.
func TestMeshMNB(t *testing.T) {
	for _, c := range []struct {
		kind string
		p    int
		f    float64
	}{{"torus", 3, 2}, {"torus", 4, 4}, {"torus", 5, 6}, {"mesh", 3, 4}, {"mesh", 4, 8}, {"mesh", 5, 12}, {"mesh", 8, 32}} {
		for _, alg := range []string{"nosplit", "split", "a0"} {
			r := runGridT(t, c.kind, c.p, 2, "mnb", map[string]string{"task.algorithm": alg})
			if *r.Formula != c.f || r.Slots < c.f {
				t.Errorf("mnb %s p=%d %s: formula %g, %g slots; want formula %g and no fewer slots", c.kind, c.p, alg, *r.Formula, r.Slots, c.f)
			}
		}
	}
}

// Digest §8 item 11: p=8, M=16 in the corner 4×4 subarray: within the
// bound 2·4·56 + 14 = 462 and above mN/4 = 64 (peLower's column cut: 16
// nodes send 32 packets each over the 8 links out of the left half).
func TestMeshPE(t *testing.T) {
	var src []string
	for y := 0; y < 4; y++ {
		for x := 0; x < 4; x++ {
			src = append(src, fmt.Sprint(y*8+x))
		}
	}
	r := runGridT(t, "mesh", 8, 2, "pe", map[string]string{"task.sources": strings.Join(src, ",")})
	if *r.UpperBound != 462 || r.LowerBound != 64 || r.Deliveries != 16*63 {
		t.Errorf("pe corner: bound %g, lower %g, %d deliveries; want 462, ≥ 64, 1008", *r.UpperBound, r.LowerBound, r.Deliveries)
	}
	rng := rand.New(rand.NewPCG(5, 1992))
	for range 10 {
		p := 2 + rng.IntN(6)
		runGridT(t, "mesh", p, 2, "pe", map[string]string{"task.m": fmt.Sprint(1 + rng.IntN(p*p))})
	}
}

func TestMeshBadInput(t *testing.T) {
	for _, c := range []struct {
		kind    string
		p, n    int
		task    string
		params  map[string]string
		wantKey string
	}{
		{"mesh", 4, 2, "bcast", nil, "topology.n"},
		{"torus", 2, 2, "mnb", nil, "topology.k"},
		{"mesh", 4, 2, "pmnb", map[string]string{"task.algorithm": "iii"}, "task.algorithm"},
		{"mesh", 4, 2, "packing", map[string]string{"task.sources": "1,1"}, "task.sources"},
		{"mesh", 4, 2, "packing", map[string]string{"task.sources": "1,2", "task.m": "3"}, "task.m"},
		{"mesh", 4, 1, "bcast", map[string]string{"task.packets": "1,2"}, "task.packets"},
		{"mesh", 4, 1, "bcast", map[string]string{"task.algorithm": "halves"}, "task.algorithm"},
		{"mesh", 4, 3, "pe", nil, "topology.n"},
		{"torus", 4, 2, "pe", nil, "--task"},
		{"mesh", 64, 2, "mnb", nil, "topology.n"},
		{"mesh", 4, 2, "monotone", map[string]string{"task.sources": "1,2", "task.dests": "3"}, "task.dests"},
	} {
		_, err := Run(topology.Spec{Kind: c.kind, K: c.p, N: c.n}, c.task, c.params, 1)
		var ie *inputerr.Error
		if !errors.As(err, &ie) || ie.Key != c.wantKey {
			t.Errorf("%s %s k=%d n=%d %v: %v, want an input error on %s", c.task, c.kind, c.p, c.n, c.params, err, c.wantKey)
		}
	}
}
