package main

import (
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/pflag"

	"github.com/flitsim/flitsim/network/han"
	"github.com/flitsim/flitsim/network/plot"
)

// routeCompareSide is --compare's largest side when topology.k is not given.
const routeCompareSide = 64

// routeOwnInputs refuses the flags that pick one routing with mode
// (--table, --compare), which routes its own inputs with every algorithm.
func routeOwnInputs(fs *pflag.FlagSet, mode string) error {
	for _, name := range []string{"algorithm", "permutation", "broadcast", "schedule", "trace-events", "trace-vcd", "trace-perfetto", "config", "seed", "variant"} {
		if fs.Changed(name) {
			return fmt.Errorf("--%s and --%s: give one (%s routes its own inputs with every algorithm)", mode, name, mode)
		}
	}
	return nil
}

// routeCompare routes the bad inputs (han.Compare) with greedy, greedy-ff,
// Q and H on n×n meshes, n = 8, 16, … up to topology.k, prints each
// algorithm's most buffers against n and, with plotPath, draws them.
func routeCompare(fs *pflag.FlagSet, sets []string, plotPath, format string, stdout io.Writer) error {
	if err := routeOwnInputs(fs, "compare"); err != nil {
		return err
	}
	top, err := routeSummarySide(sets, "compare", routeCompareSide, func(n int) bool { return han.CompareSides([]int{n}) == nil },
		fmt.Sprintf("a power of two from 8 to %d", han.MaxSide(han.AlgGreedy)))
	if err != nil {
		return err
	}
	var sides []int
	for n := 8; n <= top; n *= 2 {
		sides = append(sides, n)
	}
	files := fileSet()
	files.Output("--plot", plotPath)
	if err := files.Check(); err != nil {
		return err
	}
	pts, err := han.Compare(sides)
	if err != nil {
		return &exitError{exitInternal, err}
	}
	if plotPath != "" {
		if err := comparePlot(pts).Save(plotPath); err != nil {
			return fmt.Errorf("--plot %v", err)
		}
	}
	if format == "json" {
		return writeLayoutAny(stdout, pts)
	}
	fmt.Fprintln(stdout, "most messages a processor held, worst over the bad inputs (transpose, worst-row, worst-column), static schedule")
	fmt.Fprintf(stdout, "%-10s", "n")
	for _, n := range sides {
		fmt.Fprintf(stdout, " %5d", n)
	}
	fmt.Fprintf(stdout, "   bound\n")
	for i, alg := range han.CompareAlgorithms {
		fmt.Fprintf(stdout, "%-10s", alg)
		for _, p := range pts[i*len(sides) : (i+1)*len(sides)] {
			fmt.Fprintf(stdout, " %5d", p.MaxBuffer)
		}
		bound := strconv.Itoa(pts[i*len(sides)].Bound)
		if alg == han.AlgGreedy || alg == han.AlgGreedyFF {
			bound = "n"
		}
		fmt.Fprintf(stdout, "   %s\n", bound)
	}
	return nil
}

// comparePlot is the comparison's figure: each algorithm's measured
// maxima against n, and its bound dashed.
func comparePlot(pts []han.ComparePoint) *plot.ModelPlot {
	mp := &plot.ModelPlot{Title: "Han 1990: buffers on the bad inputs (greedy §4.3, Q Thm 3.1, H Thm 4.1)",
		XLabel: "mesh side n", YLabel: "most messages a processor held"}
	for _, alg := range han.CompareAlgorithms {
		c := plot.ModelCurve{Dashed: true, PointsName: alg + " measured", LineName: alg + " bound"}
		for _, p := range pts {
			if p.Algorithm == alg {
				c.Points = append(c.Points, plot.XY{X: float64(p.N), Y: float64(p.MaxBuffer)})
				c.Line = append(c.Line, plot.XY{X: float64(p.N), Y: float64(p.Bound)})
			}
		}
		mp.Curves = append(mp.Curves, c)
	}
	return mp
}
