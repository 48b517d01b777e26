package collective

import (
	"errors"
	"math"
	"testing"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/network/topology"
)

// Algorithm III periods (no splitting) on the router: X = 1/d and
// V = 2d + 4dt_p, the delay under Eq. 4.1's bound and M̄ as the theorem's.
func TestDynamicAlgorithmIII(t *testing.T) {
	r := dynRunT(t, 6, map[string]string{"task.algorithm": "iii", "task.rho": "0.3", "task.periods": "2000"})
	if r.X != 1.0/6 || r.V != 12 || r.Algorithm != "iii" {
		t.Fatalf("X %g, V %g, algorithm %q; want 1/6, 12, iii", r.X, r.V, r.Algorithm)
	}
	if !r.WithinBound || r.MeanDelay > r.TheoremBound || r.Verdict != "stable" {
		t.Errorf("mean delay %.3f, bound %.3f, verdict %s", r.MeanDelay, r.TheoremBound, r.Verdict)
	}
	if math.Abs(r.MeanM-r.TheoremM) > 0.05*r.TheoremM {
		t.Errorf("mean M %.3f, theorem M̄ %.3f", r.MeanM, r.TheoremM)
	}
	// Every period's packets went to the N−1 other nodes: at least that
	// many transmissions, each packet once per node (no splitting).
	if min := int64(r.MeanM * float64(r.Periods-r.Warmup) * 63); r.Transmissions < min {
		t.Errorf("%d transmissions, fewer than the %d the PMNBs need", r.Transmissions, min)
	}
}

// The threshold: derived 1/(1 + (2d+4dt_p)d/N) = 0.22857 (d = 6, t_p = 1),
// printed 1/(1 + (2d+2dt_p)d/N) = 0.30769. At ρ = 0.27, between them, the
// queues grow on the router with the fixed intervals and with the
// router's own period lengths too, so the print cannot be the threshold.
func TestDynamicAlgorithmIIIThreshold(t *testing.T) {
	base := map[string]string{"task.algorithm": "iii", "task.tp": "1", "task.periods": "600", "task.backlog": "20", "task.warmup": "0"}
	run := func(rho, mode string) *DynResult {
		p := map[string]string{"task.rho": rho, "task.intervals": mode}
		for k, v := range base {
			p[k] = v
		}
		return dynRunT(t, 6, p)
	}
	low := run("0.2", "fixed")
	if low.Verdict != "stable" || math.Abs(low.Threshold-0.22857) > 5e-6 || math.Abs(low.SatThreshold-low.Threshold) > 1e-9 {
		t.Errorf("ρ = 0.2: %s (%s); threshold %.6f, saturated %.6f", low.Verdict, low.StableText, low.Threshold, low.SatThreshold)
	}
	if low.ThresholdPrinted == nil || math.Abs(*low.ThresholdPrinted-0.30769) > 5e-6 {
		t.Errorf("printed threshold %v, want 0.30769", low.ThresholdPrinted)
	}
	for _, mode := range []string{"fixed", "hardware"} {
		if r := run("0.27", mode); r.Verdict != "unstable" || r.SatThreshold >= 0.27 {
			t.Errorf("ρ = 0.27, %s intervals: %s (%s), saturated threshold %.5f", mode, r.Verdict, r.StableText, r.SatThreshold)
		}
	}
}

func TestDynamicAlgorithmBadInput(t *testing.T) {
	for _, c := range []struct {
		kind string
		alg  string
	}{{"hypercube", "iv"}, {"hypercube", ""}, {"torus", "iii"}} {
		spec := topology.Spec{Kind: c.kind, D: 4}
		if c.kind == "torus" {
			spec = topology.Spec{Kind: c.kind, K: 4, N: 2}
		}
		_, err := RunDynamic(spec, map[string]string{"task.algorithm": c.alg, "task.periods": "5"}, 1)
		var ie *inputerr.Error
		if !errors.As(err, &ie) || ie.Key != "task.algorithm" {
			t.Errorf("%s task.algorithm=%q: %v, want an input error naming task.algorithm", c.kind, c.alg, err)
		}
	}
}
