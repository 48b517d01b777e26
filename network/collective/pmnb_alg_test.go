package collective

import (
	"fmt"
	"math"
	"testing"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network/topology"
)

func runSeed(t *testing.T, d int, task string, params map[string]string, seed uint64) *Result {
	t.Helper()
	r, err := Run(topology.Spec{Kind: "hypercube", D: d}, task, params, seed)
	if err != nil {
		t.Fatalf("%s d=%d %v: %v", task, d, params, err)
	}
	if !r.Delivered || r.Deliveries == 0 {
		t.Fatalf("%s d=%d %v: not delivered (missing %d, duplicates %d, stray %d)", task, d, params, r.Missing, r.Duplicates, r.Stray)
	}
	if r.Slots < r.LowerBound {
		t.Fatalf("%s d=%d %v: %g slots beat the lower bound %g", task, d, params, r.Slots, r.LowerBound)
	}
	return r
}

func pmnbParams(alg string, m, tp int) map[string]string {
	return map[string]string{"task.m": fmt.Sprint(m), "task.algorithm": alg, "task.tp": fmt.Sprint(tp)}
}

// Every algorithm on every M (d ≤ 6), with and without the prefix channel:
// delivered, exactly the digest's length (Algorithm I: when the subcube MNB
// meets ⌈(M'−1)/m⌉), within the seed's bound, and the prefix adds exactly
// 2d·t_p (4d·t_p for III).
func TestPmnbAlgorithmsExact(t *testing.T) {
	for d := 2; d <= 6; d++ {
		n := 1 << d
		for m := 1; m <= n; m += 1 + m/3 {
			for _, alg := range []string{"a0", "i", "ii", "iii"} {
				var base float64
				for tp := 0; tp <= 2; tp++ {
					r := runSeed(t, d, "pmnb", pmnbParams(alg, m, tp), uint64(m+d))
					if want := pmnbExact(alg, d, m, tp); math.Abs(r.Slots-want) > 1e-9 || math.Abs(*r.Formula-want) > 1e-9 {
						t.Errorf("pmnb %s d=%d M=%d t_p=%d: %g slots, formula %g, want %g", alg, d, m, tp, r.Slots, *r.Formula, want)
					}
					if u := pmnbUpper(alg, d, m, tp); r.Slots > u+1e-9 {
						t.Errorf("pmnb %s d=%d M=%d t_p=%d: %g slots above the seed's bound %g", alg, d, m, tp, r.Slots, u)
					}
					per := 2 * d * tp
					if alg == "iii" {
						per *= 2
					}
					if tp == 0 {
						base = r.Slots
					} else if r.Slots != base+float64(per) {
						t.Errorf("pmnb %s d=%d M=%d t_p=%d: %g slots, want %g + %d for the prefix", alg, d, m, tp, r.Slots, base, per)
					}
				}
			}
		}
	}
}

// 𝒜_0 and II on the prefix channel's engine (t_p = 0 forced through it)
// take what pmnb.go's own 𝒜_0 and II take.
func TestPmnbEnginesAgree(t *testing.T) {
	for _, alg := range []string{"a0", "ii"} {
		for _, m := range []int{1, 7, 20, 32} {
			old := runSeed(t, 5, "pmnb", map[string]string{"task.m": fmt.Sprint(m), "task.algorithm": alg}, 3)
			r := runSeed(t, 5, "pmnb", pmnbParams(alg, m, 1), 3)
			if r.Slots != old.Slots+10 || r.Deliveries != old.Deliveries {
				t.Errorf("%s M=%d: %g slots (%d deliveries) with t_p = 1, pmnb.go %g (%d)", alg, m, r.Slots, r.Deliveries, old.Slots, old.Deliveries)
			}
		}
	}
}

// The prefix messages compute every node's rank and M (digest §5.6): the
// ranks the nodes use equal the true ones, for rotated classes too.
func TestPrefixChannelRanks(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		m := int(seed * 7)
		act := activeSet(32, m, seed)
		var p *prefixChan
		r, err := runOn(topology.Spec{Kind: "hypercube", D: 5}, "prefix", seed, nil, func(k *kernel.Kernel, c *cube, _ *checker, px *proxy, _ *Result) error {
			p = newPrefixChan(c, int64(seed), [][]int{seq(5), {0}}, func(_, _, v int) bool { return act[v] }, 0)
			p.load(k)
			px.SlotScheduler, px.limit = prefixOnly{p}, p.slots()+1
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		p.finish()
		if want := float64(2 * 2 * 5 * seed); r.Slots > want || r.Slots <= want-float64(seed) {
			t.Errorf("seed %d: the prefix took %g slots, want its last hop in the window ending at %g", seed, r.Slots, want)
		}
		for round, insts := range p.rounds {
			for i, rot := range insts {
				want := ranksBy(act, rot, 5)
				for v := range want {
					got, tot := p.rank[round][i*32+v], p.count[round][i*32+v]
					if want[v] >= 0 && got != want[v] || tot != int32(m) {
						t.Fatalf("seed %d round %d rot %d node %d: rank %d total %d, want %d and %d", seed, round, rot, v, got, tot, want[v], m)
					}
				}
			}
		}
	}
}

// prefixOnly runs a prefix channel alone.
type prefixOnly struct{ p *prefixChan }

func (o prefixOnly) Sends(slot int64, node int32, out []kernel.SlotSend) []kernel.SlotSend {
	return o.p.Sends(slot, node, out)
}

func (o prefixOnly) Arrived(slot int64, node, _ int32, w *flit.Worm, _ int32) bool {
	o.p.Arrived(slot, node, w)
	return false
}

// Fig. 3.4 (N = 16, M = 4): Algorithm I takes packing 4 + subcube SNB 2 +
// subcube MNB 2 = 8 + 8·t_p (digest §7.3 note, §8 item 13).
func TestPmnbFig34(t *testing.T) {
	for tp := 0; tp <= 1; tp++ {
		r := runSeed(t, 4, "pmnb", pmnbParams("i", 4, tp), 1)
		if r.Slots != float64(8+8*tp) {
			t.Errorf("t_p=%d: %g slots, want %d", tp, r.Slots, 8+8*tp)
		}
	}
}

// The digest's §7.3 table (t_p = 0), measured on the hardware for d ≤ 8.
func TestPmnbTable73(t *testing.T) {
	for _, c := range []struct {
		d, m        int
		a0, ii, iii float64
		i           float64 // 0: not listed
	}{
		{3, 1, 6, 2, 6, 0}, {3, 4, 7, 2.3333, 6, 6}, {3, 8, 10, 3.3333, 7, 6},
		{4, 1, 8, 2, 8, 0}, {4, 4, 9, 2.25, 8, 8}, {4, 5, 11, 2.75, 8, 0}, {4, 8, 12, 3, 8, 8}, {4, 16, 19, 4.75, 9, 8},
		{5, 16, 21, 4.2, 11, 10}, {5, 32, 36, 7.2, 14, 12},
		{8, 16, 27, 3.375, 16, 16}, {8, 64, 73, 9.125, 20, 21}, {8, 100, 111, 13.875, 26, 0},
	} {
		for alg, want := range map[string]float64{"a0": c.a0, "ii": c.ii, "iii": c.iii, "i": c.i} {
			if want == 0 {
				continue
			}
			r := runSeed(t, c.d, "pmnb", pmnbParams(alg, c.m, 0), 1)
			if math.Abs(r.Slots-want) > 5e-5 {
				t.Errorf("%s d=%d M=%d: %g slots, digest §7.3 %g", alg, c.d, c.m, r.Slots, want)
			}
		}
	}
}

// The worked example of §3.6 (N = 2^16, M = 2^10, digest §5.11.4) and the
// hypercube column of Fig. 3.5: the seed's formulas as this package
// evaluates them. The hardware stops at d = 12; TestPmnbAlgorithmsExact
// measures the same formulas on the simulated cube.
func TestPmnbWorkedExample(t *testing.T) {
	for _, c := range []struct {
		tp                    int
		i, ii, iiiDoc, iiiFor float64
	}{{1, 157, 98, 160, 159}, {0, 125, 66, 96, 95}} {
		if got := pmnbUpper("i", 16, 1024, c.tp); got != c.i {
			t.Errorf("t_p=%d Algorithm I %g, document %g", c.tp, got, c.i)
		}
		if got := pmnbUpper("ii", 16, 1024, c.tp); math.Round(got) != c.ii {
			t.Errorf("t_p=%d Algorithm II %g, document %g (rounded)", c.tp, got, c.ii)
		}
		// §9 item 13: the document's III value is one above its own formula.
		if got := pmnbUpper("iii", 16, 1024, c.tp); got != c.iiiFor || got == c.iiiDoc {
			t.Errorf("t_p=%d Algorithm III %g, formula %g (document %g)", c.tp, got, c.iiiFor, c.iiiDoc)
		}
		exact := map[string]float64{"a0": 1045, "ii": 65.3125, "iii": 89}
		for alg, e := range exact {
			p := float64(32 * c.tp)
			if alg == "iii" {
				p *= 2
			}
			if got := pmnbExact(alg, 16, 1024, c.tp); got != e+p {
				t.Errorf("t_p=%d exact %s %g, digest %g", c.tp, alg, got, e+p)
			}
		}
	}
	if lb := max(16, ceilDiv(1023, 16)); lb != 64 {
		t.Errorf("lower bound %d, want 64", lb)
	}
}
