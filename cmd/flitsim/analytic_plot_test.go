package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// plotJSON runs analytic --plot into dir and returns the SVG's text and
// the printed points.
func plotJSON(t *testing.T, dir, figure string, args ...string) (string, figureResult) {
	t.Helper()
	svg := filepath.Join(dir, "fig"+figure+".svg")
	all := append([]string{"analytic", "--plot", svg, "--figure", figure, "--format", "json"}, args...)
	code, out, stderr := runMain(t, all...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", all, code, stderr)
	}
	var res figureResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	return string(b), res
}

// agree checks every simulated point of the named curves against its
// analysis: within tol of it (the thesis: the unbuffered models are "very
// close" to simulation, the buffered priority one within 3 %); the light
// loads, whose few packets make the simulation noisier, within twice tol.
func agree(t *testing.T, res figureResult, tol float64, names ...string) {
	t.Helper()
	for _, name := range names {
		found, sims := false, 0
		for _, c := range res.Curves {
			if c.Name != name {
				continue
			}
			found = true
			for _, pt := range c.Points {
				if pt.Simulation == nil || pt.Analysis == nil {
					continue
				}
				sims++
				lim := tol
				if res.X == "p0" && pt.X < 0.1 {
					lim *= 2
				}
				if math.Abs(*pt.Simulation-*pt.Analysis) > lim**pt.Analysis {
					t.Errorf("fig. %s, %s at %s = %g: simulation %.4f, analysis %.4f", res.Figure, name, res.X, pt.X, *pt.Simulation, *pt.Analysis)
				}
			}
		}
		if !found || sims < 3 {
			t.Errorf("fig. %s: curve %q has %d simulated points (found %v)", res.Figure, name, sims, found)
		}
	}
}

// TestAnalyticPlotOverP0: Figs. 5.3, 5.5 and 5.6 on the 6-cube: the SVG
// names each curve's analysis and simulation, and the simulated router
// lands on the models.
func TestAnalyticPlotOverP0(t *testing.T) {
	dir := t.TempDir()
	svg, res := plotJSON(t, dir, "5.5", "--set", "topology.d=6", "--slots", "400")
	for _, want := range []string{"Fig. 5.5: Priority scheme without buffers (d = 6)", "priority, k = 0, analysis", "priority, k = 0, simulation"} {
		if !strings.Contains(svg, want) {
			t.Errorf("fig. 5.5's SVG lacks %q", want)
		}
	}
	if res.D != 6 || res.X != "p0" || len(res.Curves) != 1 || len(res.Curves[0].Points) != len(simLoads) {
		t.Fatalf("fig. 5.5: %+v", res)
	}
	agree(t, res, 0.02, "priority, k = 0")
	_, res = plotJSON(t, dir, "5.3", "--set", "topology.d=6", "--slots", "400")
	agree(t, res, 0.02, "simple, k = 0")
	_, res = plotJSON(t, dir, "5.6", "--set", "topology.d=6", "--slots", "400")
	agree(t, res, 0.03, "priority, k = 0", "priority, k = 1", "priority, k = 2", "priority, k = 3")
}

// TestAnalyticPlotSaturation: Fig. 6.5 simulated up to d = 5: CSR and the
// idling schemes on their models, the deflection schemes simulated only,
// wormhole analysed only.
func TestAnalyticPlotSaturation(t *testing.T) {
	svg, res := plotJSON(t, t.TempDir(), "6.5", "--set", "topology.d=5", "--slots", "300")
	agree(t, res, 0.02, "(1) CSR, β = 0", "(4) priority, k = 0", "(5) priority, k = 1", "(6) simple, k = 0")
	for _, c := range res.Curves {
		for _, pt := range c.Points {
			defl, worm := strings.Contains(c.Name, "deflection"), strings.Contains(c.Name, "wormhole")
			if (pt.Analysis == nil) != defl || (pt.Simulation == nil) != worm {
				t.Errorf("%s at d = %g: analysis %v, simulation %v", c.Name, pt.X, pt.Analysis, pt.Simulation)
			}
		}
	}
	for _, want := range []string{"(1) CSR, β = 0, analysis", "(2) priority deflection, simulation", "(7) wormhole (blocking)"} {
		if !strings.Contains(svg, want) {
			t.Errorf("fig. 6.5's SVG lacks %q", want)
		}
	}
}

// TestAnalyticPlotCSR: Fig. 6.4 on the 7-cube (Table 6.1's): the router's
// CSR with fresh attempts within 2 % of eqs. 6.1–6.8 (the thesis: "less
// than 2%").
func TestAnalyticPlotCSR(t *testing.T) {
	_, res := plotJSON(t, t.TempDir(), "6.4", "--set", "topology.d=7", "--slots", "300")
	agree(t, res, 0.02, "CSR")
}

// TestAnalyticPlotStablePoints: Fig. 6.4 with --slots 0 is the analysis
// alone: the CSR curve and the two arrival lines' stable points.
func TestAnalyticPlotStablePoints(t *testing.T) {
	svg, res := plotJSON(t, t.TempDir(), "6.4", "--slots", "0")
	if res.D != 11 || len(res.Curves) != 3 {
		t.Fatalf("fig. 6.4: %+v", res)
	}
	pt := res.Curves[1].Points[0]
	if math.Abs(pt.X-0.2357) > 5e-4 || math.Abs(*pt.Analysis-0.8850) > 5e-4 || pt.Simulation != nil {
		t.Errorf("q_a = 0.05: stable point at p0 %g, R %g", pt.X, *pt.Analysis)
	}
	if !strings.Contains(svg, "stable point (eq. 6.1)") {
		t.Error("fig. 6.4's SVG does not name the stable points")
	}
}

// TestAnalyticPlotBadInput: one line naming the flag, exit 2.
func TestAnalyticPlotBadInput(t *testing.T) {
	dir := t.TempDir()
	svg := filepath.Join(dir, "f.svg")
	cfg := filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(cfg, []byte("topology:\n  kind: hypercube\n  d: 4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--plot", svg, "--figure", "5.2"}, "--figure: 5.2 is not allowed (allowed: 5.3, 5.4, 5.5, 5.6, 5.7, 6.4, 6.5 (Fig. 5.2 is a diagram"},
		{[]string{"--plot", svg, "--figure", ""}, "--figure"},
		{[]string{"--plot", filepath.Join(dir, "f.pdf"), "--figure", "5.3"}, "--plot"},
		{[]string{"--figure", "5.3"}, "--plot"},
		{[]string{"--plot", svg, "--figure", "5.3", "--slots", "-1"}, "--slots: -1 is not allowed"},
		{[]string{"--plot", svg, "--figure", "5.3", "--set", "topology.d=1"}, "topology.d: 1 is not allowed"},
		{[]string{"--plot", svg, "--figure", "6.5", "--set", "topology.d=15"}, "topology.d: 15 is not allowed (allowed: 2 to 14 with simulated points"},
		{[]string{"-c", cfg, "--plot", cfg, "--figure", "5.3"}, "--plot"},
		{[]string{"--plot", svg, "--figure", "5.3", "--scheme", "priority"}, "--scheme: priority is not allowed (allowed: none with --plot"},
	} {
		wantFail(t, 2, append([]string{"analytic"}, tc.args...), tc.want)
	}
	if _, err := os.Stat(svg); err == nil {
		t.Error("a refused plot was written")
	}
}

// TestAnalyticCSR: analytic --scheme csr's JSON: Table 6.1's row at its
// attempt rate (csr.retry = traffic.p0), per time unit over 1 + β, p_type
// and pi of d entries.
func TestAnalyticCSR(t *testing.T) {
	code, out, stderr := runMain(t, "analytic", "--scheme", "csr", "--set", "topology.d=7", "--set", "traffic.p0=0.263852",
		"--set", "csr.retry=0.263852", "--set", "csr.beta=0.5", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r struct {
		ThroughputPerNode float64   `json:"throughput_per_node"`
		ThroughputPerTime float64   `json:"throughput_per_time"`
		AttemptP0         float64   `json:"attempt_p0"`
		PType             []float64 `json:"p_type"`
		PReserved         []float64 `json:"p_reserved"`
		Pi                []float64 `json:"pi"`
		MeanDistance      float64   `json:"mean_distance"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if math.Abs(r.ThroughputPerNode-0.98) > 2e-5 || math.Abs(r.ThroughputPerTime-r.ThroughputPerNode/1.5) > 1e-12 ||
		math.Abs(r.AttemptP0-0.263852) > 1e-9 || len(r.PType) != 7 || len(r.PReserved) != 7 || len(r.Pi) != 7 ||
		math.Abs(r.Pi[0]*r.MeanDistance-1) > 1e-12 || r.PType[0] != r.PReserved[6] || r.PReserved[0] <= r.PReserved[6] ||
		math.Abs(14*r.PType[3]-r.ThroughputPerNode) > 1e-12 {
		t.Errorf("csr d = 7: %+v", r)
	}
}
