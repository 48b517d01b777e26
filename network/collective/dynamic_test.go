package collective

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/network/topology"
)

func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func dynRunT(t *testing.T, d int, params map[string]string) *DynResult {
	t.Helper()
	r, err := RunDynamic(topology.Spec{Kind: "hypercube", D: d}, params, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Delivered {
		t.Fatalf("d=%d %v: not delivered (missing %d, dup %d, stray %d)", d, params, r.Missing, r.Duplicates, r.Stray)
	}
	return r
}

// With the scheme's fixed intervals the system is the theorem's, so the
// measured delay lies in Eq. 4.1's range (the digest's idealised simulation
// found d=4, ρ=0.5 at 8.77–8.79 against [8.663, 8.787]) and under its bound,
// and the mean number of active nodes is M̄.
func TestDynamicInsideTheorem(t *testing.T) {
	r := dynRunT(t, 4, map[string]string{"task.rho": "0.5", "task.periods": "4000"})
	if !r.WithinBound || r.MeanDelay > r.TheoremBound {
		t.Errorf("mean delay %.3f above the bound %.3f", r.MeanDelay, r.TheoremBound)
	}
	if r.MeanDelay < 0.95*r.TheoremLow || r.MeanDelay > 1.05*r.TheoremHigh {
		t.Errorf("mean delay %.3f ± %.3f outside the theorem's range [%.3f, %.3f] by more than 5 %%", r.MeanDelay, r.DelayCI95, r.TheoremLow, r.TheoremHigh)
	}
	if math.Abs(r.MeanM-r.TheoremM) > 0.05*r.TheoremM {
		t.Errorf("mean M %.3f, theorem M̄ %.3f", r.MeanM, r.TheoremM)
	}
	if r.Verdict != "stable" || r.Transmissions == 0 {
		t.Errorf("verdict %s (%s), %d transmissions", r.Verdict, r.StableText, r.Transmissions)
	}
	// Every period's PMNB ran on the router: M̄ mini-packets of d classes,
	// each to the N−1 other nodes (and back to the origin after packing).
	if min := int64(r.MeanM * float64(r.Periods-r.Warmup) * 4 * 15); r.Transmissions < min {
		t.Errorf("%d transmissions, fewer than the %d the PMNBs need", r.Transmissions, min)
	}
}

// Periods that end with the router's PMNB are shorter than V + XM, so the
// delay is lower than with fixed intervals and the threshold higher.
func TestDynamicHardwareIntervals(t *testing.T) {
	p := map[string]string{"task.rho": "0.5", "task.periods": "2000"}
	fixed := dynRunT(t, 4, p)
	p["task.intervals"] = "hardware"
	hw := dynRunT(t, 4, p)
	if hw.MeanDelay >= fixed.MeanDelay || hw.MaxPeriod > fixed.MaxPeriod {
		t.Errorf("hardware intervals: delay %.3f (fixed %.3f), longest period %.3f (fixed %.3f)", hw.MeanDelay, fixed.MeanDelay, hw.MaxPeriod, fixed.MaxPeriod)
	}
}

// From a saturated start the queues drain below ρ* = 0.65217 (d = 4,
// t_p = 0) and grow above it; the saturated period is V + NX = 5.75.
func TestDynamicThreshold(t *testing.T) {
	for _, c := range []struct {
		rho  float64
		want string
	}{{0.6, "stable"}, {0.7, "unstable"}} {
		r := dynRunT(t, 4, map[string]string{"task.rho": ftoa(c.rho), "task.periods": "2000", "task.backlog": "30"})
		if r.Verdict != c.want {
			t.Errorf("ρ = %g: %s (%s), want %s", c.rho, r.Verdict, r.StableText, c.want)
		}
		if r.SatPeriods == 0 || math.Abs(r.SatThreshold-0.65217) > 5e-6 || r.SatPeriod != 5.75 || r.SatHardware != 4.75 {
			t.Errorf("ρ = %g: %d saturated periods of %.4f (router %.4f): threshold %.5f, want 0.65217", c.rho, r.SatPeriods, r.SatPeriod, r.SatHardware, r.SatThreshold)
		}
	}
}

// t_p lengthens the reservation interval by 2d·t_p.
func TestDynamicPrefix(t *testing.T) {
	r := dynRunT(t, 4, map[string]string{"task.rho": "0.1", "task.tp": "1", "task.periods": "1500"})
	if r.V != 10 || math.Abs(r.Threshold-0.27273) > 5e-6 || r.MeanDelay > r.TheoremBound || r.MeanDelay < 15 {
		t.Errorf("t_p = 1: V %g, ρ* %.5f, delay %.3f, bound %.3f", r.V, r.Threshold, r.MeanDelay, r.TheoremBound)
	}
}

func TestDynamicBadInput(t *testing.T) {
	for _, c := range []struct {
		spec   topology.Spec
		params map[string]string
		key    string
	}{
		{topology.Spec{Kind: "hypercube", D: 4}, map[string]string{"task.rho": "1.2"}, "task.rho"},
		{topology.Spec{Kind: "hypercube", D: 4}, map[string]string{"task.rho": "x"}, "task.rho"},
		{topology.Spec{Kind: "hypercube", D: 4}, map[string]string{"task.periods": "0"}, "task.periods"},
		{topology.Spec{Kind: "hypercube", D: 4}, map[string]string{"task.tp": "-1"}, "task.tp"},
		{topology.Spec{Kind: "hypercube", D: 4}, map[string]string{"task.intervals": "some"}, "task.intervals"},
		{topology.Spec{Kind: "hypercube", D: 4}, map[string]string{"task.m": "3"}, "task.m"},
		{topology.Spec{Kind: "hypercube", D: 4}, map[string]string{"task.periods": "10", "task.warmup": "10"}, "task.warmup"},
		{topology.Spec{Kind: "ring", K: 8}, nil, "topology.kind"},
	} {
		_, err := RunDynamic(c.spec, c.params, 1)
		var ie *inputerr.Error
		if !errors.As(err, &ie) || ie.Key != c.key {
			t.Errorf("%v %v: %v, want an input error naming %s", c.spec.Kind, c.params, err, c.key)
		} else if !strings.Contains(err.Error(), c.key) {
			t.Errorf("%v: %q does not name %s", c.params, err, c.key)
		}
	}
}

// The folded cube plugs in its class PMNB: X = 1/(d+1), V = 2d, and the
// saturated period is the router's PMNB of M = N padded to V + NX.
func TestDynamicFoldedCube(t *testing.T) {
	r, err := RunDynamic(topology.Spec{Kind: "folded-cube", D: 4}, map[string]string{"task.rho": "0.15", "task.periods": "1500"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Delivered || r.V != 8 || r.X != 0.2 || math.Abs(r.Threshold-1/(1+5*8/16.0)) > 1e-12 || r.MeanDelay > r.TheoremBound || r.Verdict != "stable" {
		t.Errorf("folded 4-cube ρ = 0.15: delivered %v, X %g, V %g, ρ* %.5f, delay %.3f (bound %.3f), %s", r.Delivered, r.X, r.V, r.Threshold, r.MeanDelay, r.TheoremBound, r.Verdict)
	}
	s, err := RunDynamic(topology.Spec{Kind: "folded-cube", D: 4}, map[string]string{"task.rho": "0.5", "task.periods": "200", "task.backlog": "20", "task.warmup": "0"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if s.Verdict != "unstable" || s.SatPeriods == 0 || math.Abs(s.SatThreshold-s.Threshold) > 1e-9 || s.SatHardware > s.SatPeriod {
		t.Errorf("folded 4-cube ρ = 0.5: %s (%s); saturated %d periods of %.4f (router %.4f) → %.5f, ρ* %.5f", s.Verdict, s.StableText, s.SatPeriods, s.SatPeriod, s.SatHardware, s.SatThreshold, s.Threshold)
	}
}
