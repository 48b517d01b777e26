package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/network/collective"
	"github.com/flitsim/flitsim/network/plot"
	batch "github.com/flitsim/flitsim/network/stats" // (stats: distances.go)
	"github.com/flitsim/flitsim/network/topology"
)

// runDynamicCmd is `flitsim collective --task dynamic`: one load, or a
// sweep when task.rho (or task.intervals) lists several, with an optional
// delay-vs-ρ plot (a curve per intervals value). A trace (ct) records one
// run: the router every period of one load runs on.
func runDynamicCmd(stdout io.Writer, spec topology.Spec, params map[string]string, seed uint64, format, plotFile string, po plot.Options, ct *collectiveTraces) error {
	rhos := []string{"0.5"}
	if v, ok := params["task.rho"]; ok {
		rhos = strings.Split(v, ",")
	}
	if plotFile != "" && !strings.HasSuffix(plotFile, ".svg") && !strings.HasSuffix(plotFile, ".png") {
		return inputerr.New("--plot", plotFile, "a file name ending in .svg or .png")
	}
	modes := []string{"fixed"}
	if v, ok := params["task.intervals"]; ok {
		modes = strings.Split(v, ",")
	}
	if ct.t.on() && len(rhos)*len(modes) > 1 {
		return fmt.Errorf("--%s: a trace records one run: give task.rho and task.intervals one value each (a list sweeps)", ct.t.first())
	}
	var runs []*collective.DynResult
	var stopped error // (an interrupt: the runs so far are printed, the plot left out)
runs:
	for _, mode := range modes {
		for _, rho := range rhos {
			p := make(map[string]string, len(params))
			for k, v := range params {
				p[k] = v
			}
			p["task.rho"], p["task.intervals"] = strings.TrimSpace(rho), strings.TrimSpace(mode)
			r, err := collective.RunDynamicWith(spec, p, seed, ct.options())
			var in *collective.Interrupted
			if errors.As(err, &in) && in.Dynamic != nil {
				r = in.Dynamic
			}
			if err = ct.close(err); err != nil && r == nil {
				return err
			}
			runs = append(runs, r)
			if stopped = err; err != nil {
				break runs
			}
		}
	}
	if plotFile != "" && stopped == nil {
		if err := dynamicPlot(plotFile, runs, po); err != nil {
			return err
		}
	}
	var err error
	switch {
	case format == "json" && len(runs) == 1:
		err = writeLayoutAny(stdout, runs[0])
	case format == "json":
		err = writeLayoutAny(stdout, runs)
	case len(runs) == 1:
		err = writeDynamicTable(stdout, runs[0])
	default:
		err = writeDynamicSweep(stdout, runs)
	}
	if err != nil {
		return err
	}
	if stopped != nil {
		return stopped
	}
	for _, r := range runs {
		if !r.Delivered {
			return &exitError{exitFailed, fmt.Errorf("dynamic ρ = %g: a period's PMNB was not delivered (missing %d, duplicates %d, stray %d)", r.Rho, r.Missing, r.Duplicates, r.Stray)}
		}
	}
	return nil
}

func writeDynamicTable(w io.Writer, r *collective.DynResult) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	alg := ""
	if r.Algorithm != "" {
		alg = " task.algorithm=" + r.Algorithm
	}
	fmt.Fprintf(tw, "task\tdynamic task.rho=%g task.periods=%d task.tp=%g task.intervals=%s%s\n", r.Rho, r.Periods, r.Tp, r.Intervals, alg)
	if r.Status == collective.StatusInterrupted {
		fmt.Fprintf(tw, "status\tinterrupted after %d of the %d periods: the figures below are theirs\n", r.PeriodsRun, r.Periods)
	}
	fmt.Fprintf(tw, "network\t%s, %s, N = %d\n", r.Topology, dynShape(r), r.Nodes)
	fmt.Fprintf(tw, "load\tρ = λNX = %g: λ = %.6g requests per node per packet time; PMNB ≤ XM + V with X = %.6g, V = %g\n", r.Rho, r.Lambda, r.X, r.V)
	fmt.Fprintf(tw, "mean delay\t%.4f ± %s (95 %%, batch means; %d requests measured, %d still queued at the end)\n", r.MeanDelay, delayCI(r.DelayCI95), r.Served, r.Unserved)
	if math.IsInf(r.TheoremBound, 1) {
		fmt.Fprintf(tw, "theorem (Eq. 4.1)\tno finite delay: ρ ≥ ρ*\n")
	} else {
		fmt.Fprintf(tw, "theorem (Eq. 4.1)\tT from %.4f to %.4f over a's range; bound %.4f; measured inside the bound: %v\n", r.TheoremLow, r.TheoremHigh, r.TheoremBound, r.WithinBound)
	}
	if l := r.Eq6Line(); l != "" {
		fmt.Fprintf(tw, "paper (eq. 6)\t%s\n", l)
	}
	fmt.Fprintf(tw, "threshold\tρ* = 1/(1 + V/(NX)) = %.5f\n", r.Threshold)
	if r.ThresholdPrinted != nil { // (Algorithm III: §4.4's print, a typo)
		fmt.Fprintf(tw, "as printed\tρ* = 1/(1 + (2d+2dt_p)d/N) = %.5f (§4.4 for task.algorithm=iii; V = 2d + 4dt_p gives the line above)\n", *r.ThresholdPrinted)
	}
	fmt.Fprintf(tw, "stability\t%s: %s\n", r.Verdict, r.StableText)
	if r.SatPeriods > 0 {
		fmt.Fprintf(tw, "saturated\t%d periods with all N nodes active: period %.4f (router's PMNB %.4f); the queues grow above ρ = NX/period = %.5f\n", r.SatPeriods, r.SatPeriod, r.SatHardware, r.SatThreshold)
	}
	fmt.Fprintf(tw, "periods\t%d (warm-up %d) over %.1f packet times; mean M %.3f (theorem M̄ %.3f); longest period %.4f, router's longest PMNB %.4f (with the prefix)\n", periodsRun(r), r.Warmup, r.Time, r.MeanM, r.TheoremM, r.MaxPeriod, r.MaxHardware)
	fmt.Fprintf(tw, "router\t%d transmissions; delivered %v (missing %d, duplicates %d, stray %d)\n", r.Transmissions, r.Delivered, r.Missing, r.Duplicates, r.Stray)
	fmt.Fprintf(tw, "schedule\t%s\n", r.Reading)
	return tw.Flush()
}

func writeDynamicSweep(w io.Writer, runs []*collective.DynResult) error {
	r0 := runs[0]
	fmt.Fprintf(w, "dynamic broadcasting on %s %s (N = %d), t_p = %g, %d periods; ρ* = %.5f\n\n", r0.Topology, dynShape(r0), r0.Nodes, r0.Tp, r0.Periods, r0.Threshold)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	eq6 := r0.Topology == "folded-cube" // (the paper's eq. 6 beside Eq. 4.1)
	head := "intervals\tρ\tmean delay\t± 95 %\tEq. 4.1 low\tEq. 4.1 high\tbound\tinside\t"
	if eq6 {
		head += "eq. 6\tinside\t"
	}
	fmt.Fprintln(tw, head+"mean M\tM̄\tverdict\t")
	for _, r := range runs {
		inside := fmt.Sprint(r.WithinBound)
		if math.IsInf(r.TheoremBound, 1) {
			inside = "—"
		}
		fmt.Fprintf(tw, "%s\t%g\t%.4f\t%s\t%s\t%s\t%s\t%s\t", r.Intervals, r.Rho, r.MeanDelay, delayCI(r.DelayCI95), fin(r.TheoremLow), fin(r.TheoremHigh), fin(r.TheoremBound), inside)
		if eq6 && r.Eq6Bound != nil {
			fmt.Fprintf(tw, "%.4f\t%v\t", *r.Eq6Bound, *r.WithinEq6)
		} else if eq6 {
			fmt.Fprint(tw, "—\t—\t")
		}
		fmt.Fprintf(tw, "%.2f\t%s\t%s\t\n", r.MeanM, fin(r.TheoremM), r.Verdict)
	}
	return tw.Flush()
}

// fin is x with 4 decimals, or "—" when it is infinite.
// delayCI writes the mean delay's half-width, "n/a (...)" when there is
// none (stats.MeanCI95: too few batches), never 0.
func delayCI(x float64) string {
	if math.IsNaN(x) {
		return fmt.Sprintf("n/a (fewer than %d batches measured)", batch.MinBatches)
	}
	return fmt.Sprintf("%.4f", x)
}

func fin(x float64) string {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return "—"
	}
	return fmt.Sprintf("%.4f", x)
}

// dynamicPlot draws the sweep's delays with Eq. 4.1's curves.
func dynamicPlot(name string, runs []*collective.DynResult, po plot.Options) error {
	r0 := runs[0]
	e := collective.Eq41{N: r0.Nodes, X: r0.X, V: r0.V}
	var curves []plot.DelayCurve
	for _, r := range runs {
		name := "measured on the router, " + r.Intervals + " intervals"
		if len(curves) == 0 || curves[len(curves)-1].Name != name {
			curves = append(curves, plot.DelayCurve{Name: name})
		}
		c := &curves[len(curves)-1]
		c.Points = append(c.Points, plot.DelayPoint{Rho: r.Rho, Delay: r.MeanDelay, CI95: r.DelayCI95, Stable: r.Stable})
	}
	dp := &plot.DelayPlot{
		Title:     fmt.Sprintf("Dynamic broadcasting, %s %s, t_p = %g: mean delay vs load", r0.Topology, dynShape(r0), r0.Tp),
		Curves:    curves,
		Bound:     e.Upper,
		Low:       func(rho float64) float64 { lo, _ := e.Range(rho); return lo },
		Threshold: e.Threshold(),
		Scale:     po.Scale,
	}
	if r0.Topology == "folded-cube" {
		dp.More = []plot.DelayBound{{Name: "folded-cube paper eq. 6", F: e.Eq6}}
	}
	for _, r := range runs { // (the hardware intervals' threshold, where a run saturated)
		if r.Intervals == "hardware" && r.SatPeriods > 0 {
			dp.Marks = []plot.DelayMark{{Rho: r.SatThreshold, Label: fmt.Sprintf("hardware intervals: queues grow above NX/%.4f = %.5f", r.SatPeriod, r.SatThreshold)}}
			break
		}
	}
	return dp.Save(name)
}

// dynShape is the network's size: d = D (cubes), or p = k, d = n (mesh, torus).
func dynShape(r *collective.DynResult) string {
	if r.K > 0 {
		return fmt.Sprintf("p = %d, d = %d", r.K, r.D)
	}
	return fmt.Sprintf("d = %d", r.D)
}

// periodsRun is the periods r ran: all, unless it was interrupted.
func periodsRun(r *collective.DynResult) int {
	if r.Status == collective.StatusInterrupted {
		return r.PeriodsRun
	}
	return r.Periods
}
