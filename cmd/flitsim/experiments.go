package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/flitsim/flitsim/network"
)

// experimentRows prints a batch's experiments as Brebner's tables do: per
// phase and measure, "mean / variance / maximum", then the histogram row
// (value: number of experiments).
func experimentRows(e *network.Experiments) [][]string {
	if e == nil {
		return nil
	}
	rows := [][]string{{"experiments", fmt.Sprintf("%d (%d incomplete)", e.Count, e.Incomplete)}}
	phase := func(name string, p *network.PhaseStats) {
		for _, m := range []struct {
			label string
			m     network.Measure
		}{{"completion time", p.CompletionTime}, {"max node population", p.MaxNodePopulation}, {"max queue", p.MaxQueue}} {
			rows = append(rows,
				[]string{name + " " + m.label + " (mean / variance / max)", fmt.Sprintf("%.2f / %.2f / %d", m.m.Mean, m.m.Variance, m.m.Max)},
				[]string{name + " " + m.label + " histogram", histogramText(m.m.Histogram)})
		}
	}
	if e.Phase1 != nil {
		phase("phase 1", e.Phase1)
		phase("phase 2", e.Phase2)
	}
	phase("total", &e.Total)
	return rows
}

func histogramText(h map[int64]int64) string {
	vals := make([]int64, 0, len(h))
	for v := range h {
		vals = append(vals, v)
	}
	slices.Sort(vals)
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = strconv.FormatInt(v, 10) + ": " + strconv.FormatInt(h[v], 10)
	}
	return strings.Join(parts, ", ")
}
