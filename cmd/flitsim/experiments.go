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
		}{{"completion time", p.CompletionTime}, {"max node population", p.MaxNodePopulation}, {"max queue", p.MaxQueue},
			{"max queued population", p.MaxQueuedPopulation}} {
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

// switchingText describes the switch model and its settings.
func switchingText(c *network.Config) string {
	if t := network.RouterText(c); t != "" {
		return t
	}
	if !strings.EqualFold(strings.TrimSpace(c.Switching), "packet") {
		return fmt.Sprintf("%s, buffers in %d / out %d flits, link latency %d, switch delay %d, reuse %v",
			c.Switching, c.Buffers.Input, c.Buffers.Output, c.Link.Latency, c.Switch.Delay, c.ReuseOn())
	}
	q := c.Queue
	or := func(v, def string) string {
		if v == "" {
			return def
		}
		return v
	}
	queues := "a queue per out-link"
	if q.Shared {
		queues = "one shared queue per node"
	}
	full := "unbounded"
	switch strings.ToLower(strings.TrimSpace(q.Full)) {
	case "backpressure":
		full = count(c.Buffers.Output, "packet") + ", backpressure"
	case "drop":
		full = count(c.Buffers.Output, "packet") + ", drop when full"
	}
	return fmt.Sprintf("packet: %s (%s), %s, arrivals in %s order, %s routes",
		queues, full, or(q.Discipline, "fifo"), or(q.ArrivalOrder, "random"), or(q.Routes, "source"))
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
