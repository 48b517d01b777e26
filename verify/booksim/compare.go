package booksim

import (
	"fmt"
	"math"
)

// Sample is one run of either simulator as the comparison reads it.
type Sample struct {
	Point
	NetworkLatency  float64
	CyclesPerSecond float64 // simulated cycles per CPU second; 0 unknown
}

// Sample is a BookSim run as the comparison reads it.
func (r Run) Sample() Sample {
	return Sample{Point: r.Point(), NetworkLatency: r.NetworkLatency, CyclesPerSecond: r.CyclesPerSecond()}
}

// Sample is a flitsim run as the comparison reads it.
func (r FlitsimRun) Sample() Sample {
	return Sample{Point: r.Point, NetworkLatency: r.NetworkLatency, CyclesPerSecond: r.CyclesPerSecond()}
}

// Sampler runs one simulator at a load and seed.
type Sampler func(rate float64, seed int) (Sample, error)

// Figures are the medians over the seeds at one load.
type Figures struct {
	Load, PacketLatency, NetworkLatency, Accepted, CyclesPerSecond float64
	Unstable, Runs                                                 int
}

// Side is one simulator's measurements on one configuration.
type Side struct {
	ZeroLoad   Figures   // at ZeroLoadRate
	Loads      []Figures // at the loads asked for
	Saturation float64   // median over the seeds of Saturation's result
	PerSeed    []float64 // each seed's saturation throughput
}

// Measure takes one side's figures: every load on seeds 1..seeds, and the
// saturation throughput per seed against the median zero-load latency.
func Measure(run Sampler, seeds int, loads []float64) (Side, error) {
	at := func(load float64) (Figures, error) {
		var pl, nl, acc, cps []float64
		f := Figures{Load: load, Runs: seeds}
		for s := 1; s <= seeds; s++ {
			r, err := run(load, s)
			if err != nil {
				return f, err
			}
			pl, nl, acc = append(pl, r.PacketLatency), append(nl, r.NetworkLatency), append(acc, r.Accepted)
			if r.CyclesPerSecond > 0 {
				cps = append(cps, r.CyclesPerSecond)
			}
			if r.Unstable {
				f.Unstable++
			}
		}
		f.PacketLatency, f.NetworkLatency, f.Accepted, f.CyclesPerSecond = Median(pl), Median(nl), Median(acc), Median(cps)
		return f, nil
	}
	var side Side
	var err error
	if side.ZeroLoad, err = at(ZeroLoadRate); err != nil {
		return side, err
	}
	for _, l := range loads {
		f, err := at(l)
		if err != nil {
			return side, err
		}
		side.Loads = append(side.Loads, f)
	}
	for s := 1; s <= seeds; s++ {
		probe := func(rate float64) (Point, error) {
			r, err := run(rate, s)
			return r.Point, err
		}
		sat, _, err := Saturation(probe, side.ZeroLoad.PacketLatency)
		if err != nil {
			return side, err
		}
		side.PerSeed = append(side.PerSeed, sat)
	}
	side.Saturation = Median(side.PerSeed)
	return side, nil
}

// Check is one figure of the side-by-side comparison.
type Check struct {
	What             string
	BookSim, Flitsim float64
	Tolerance        float64 // cycles when Relative is false, else a fraction of BookSim's figure
	Relative         bool
	OK               bool
}

// The tolerances: zero-load latency within one cycle, the latency
// at each load and the saturation throughput within 5 % of BookSim's.
const (
	ZeroLoadTolerance = 1.0
	RelativeTolerance = 0.05
	SpeedTarget       = 10.0 // flitsim's cycles/s over BookSim's, at the first load
)

// Compare lines up two sides measured on the same loads.
func Compare(bs, fs Side) []Check {
	abs := func(what string, b, f, tol float64) Check {
		return Check{What: what, BookSim: b, Flitsim: f, Tolerance: tol, OK: math.Abs(f-b) <= tol}
	}
	rel := func(what string, b, f float64) Check {
		return Check{What: what, BookSim: b, Flitsim: f, Tolerance: RelativeTolerance, Relative: true,
			OK: b > 0 && math.Abs(f-b) <= RelativeTolerance*b}
	}
	checks := []Check{abs("zero-load latency", bs.ZeroLoad.PacketLatency, fs.ZeroLoad.PacketLatency, ZeroLoadTolerance)}
	for i := range bs.Loads {
		if i < len(fs.Loads) && fs.Loads[i].Load == bs.Loads[i].Load {
			checks = append(checks, rel(fmt.Sprintf("latency at load %g", bs.Loads[i].Load), bs.Loads[i].PacketLatency, fs.Loads[i].PacketLatency))
		}
	}
	checks = append(checks, rel("saturation throughput", bs.Saturation, fs.Saturation))
	if len(bs.Loads) > 0 && len(fs.Loads) > 0 && bs.Loads[0].CyclesPerSecond > 0 {
		b, f := bs.Loads[0].CyclesPerSecond, fs.Loads[0].CyclesPerSecond
		checks = append(checks, Check{What: fmt.Sprintf("cycles/s at load %g (flitsim ≥ %g×)", bs.Loads[0].Load, SpeedTarget),
			BookSim: b, Flitsim: f, Tolerance: SpeedTarget, OK: f >= SpeedTarget*b})
	}
	return checks
}
