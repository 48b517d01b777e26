package collective

import (
	"errors"
	"math"
	"testing"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/network/topology"
)

func meshDynT(t *testing.T, kind string, p int, params map[string]string) *DynResult {
	t.Helper()
	r, err := RunDynamic(topology.Spec{Kind: kind, K: p, N: 2}, params, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Delivered || r.Transmissions == 0 {
		t.Fatalf("%s k=%d %v: not delivered (missing %d, dup %d, stray %d), %d transmissions", kind, p, params, r.Missing, r.Duplicates, r.Stray, r.Transmissions)
	}
	return r
}

// The mesh's X and V (§4.5, Eqs. 4.16–4.17) give the digest's §7.4 figures,
// and the measured delay of the split PMNB periods stays under Eq. 4.1's
// bound, near its range, with M̄ active nodes per period.
func TestDynamicMeshInsideTheorem(t *testing.T) {
	for _, c := range []struct {
		kind         string
		p            int
		tp           string
		periods      string
		x, v, thr, b float64
	}{
		{"mesh", 4, "0", "3000", 0.46875, 6, 0.55556, 45.082},
		{"mesh", 4, "1", "2000", 0.46875, 18, 0.29412, 36.497},
		{"torus", 8, "0", "600", 0.24609, 10.5, 0.60000, 55.862},
	} {
		r := meshDynT(t, c.kind, c.p, map[string]string{"task.rho": map[string]string{"0": "0.5", "1": "0.1"}[c.tp], "task.tp": c.tp, "task.periods": c.periods})
		if math.Abs(r.X-c.x) > 5e-6 || r.V != c.v || math.Abs(r.Threshold-c.thr) > 5e-6 || math.Abs(r.TheoremBound-c.b) > 5e-4 {
			t.Errorf("%s k=%d t_p=%s: X %.5f V %g ρ* %.5f bound %.3f, want %.5f %g %.5f %.3f", c.kind, c.p, c.tp, r.X, r.V, r.Threshold, r.TheoremBound, c.x, c.v, c.thr, c.b)
		}
		if !r.WithinBound || r.MeanDelay > r.TheoremBound || r.MeanDelay < 0.9*r.TheoremLow || r.Verdict != "stable" {
			t.Errorf("%s k=%d t_p=%s: delay %.3f ± %.3f, theorem [%.3f, %.3f] bound %.3f, %s", c.kind, c.p, c.tp, r.MeanDelay, r.DelayCI95, r.TheoremLow, r.TheoremHigh, r.TheoremBound, r.Verdict)
		}
		if math.Abs(r.MeanM-r.TheoremM) > 0.05*r.TheoremM {
			t.Errorf("%s k=%d: mean M %.3f, theorem M̄ %.3f", c.kind, c.p, r.MeanM, r.TheoremM)
		}
	}
}

// From a saturated start the queues drain below ρ* (4×4 array 0.55556,
// 4×4 torus 0.45455, Eq. 4.21) and grow above it; the saturated period is
// V + NX, the router's split PMNB of M = N fitting inside it.
func TestDynamicMeshThreshold(t *testing.T) {
	for _, c := range []struct {
		kind            string
		thr, lo, hi     float64
		period, hwLimit float64
	}{
		{"mesh", 0.55556, 0.50, 0.61, 13.5, 13.5},
		{"torus", 0.45455, 0.40, 0.50, 8.25, 8.25},
	} {
		for _, rho := range []float64{c.lo, c.hi} {
			r := meshDynT(t, c.kind, 4, map[string]string{"task.rho": ftoa(rho), "task.periods": "2000", "task.backlog": "30", "task.warmup": "0"})
			want := map[bool]string{true: "stable", false: "unstable"}[rho < c.thr]
			if r.Verdict != want {
				t.Errorf("%s ρ = %g: %s (%s), want %s", c.kind, rho, r.Verdict, r.StableText, want)
			}
			if r.SatPeriods == 0 || math.Abs(r.SatThreshold-c.thr) > 5e-6 || r.SatPeriod != c.period || r.SatHardware > c.hwLimit {
				t.Errorf("%s ρ = %g: %d saturated periods of %.4f (router %.4f): threshold %.5f, want %.5f", c.kind, rho, r.SatPeriods, r.SatPeriod, r.SatHardware, r.SatThreshold, c.thr)
			}
		}
	}
}

func TestDynamicMeshBadInput(t *testing.T) {
	for _, c := range []struct {
		spec topology.Spec
		key  string
	}{
		{topology.Spec{Kind: "torus", K: 2, N: 2}, "topology.k"},
		{topology.Spec{Kind: "mesh", K: 64, N: 2}, "topology.n"},
	} {
		_, err := RunDynamic(c.spec, map[string]string{"task.periods": "10"}, 1)
		var ie *inputerr.Error
		if !errors.As(err, &ie) || ie.Key != c.key {
			t.Errorf("%+v: %v, want an input error naming %s", c.spec, err, c.key)
		}
	}
}
