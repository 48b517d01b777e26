package main

import (
	"fmt"

	"github.com/flitsim/flitsim/network"
)

// multiRows are a multi-read or multi-write batch's table rows (the JSON
// member multi, and experiments.multi over several experiments).
func multiRows(r *network.Result) [][]string {
	m := r.Multi
	if m == nil {
		return nil
	}
	check := "ok: every destination got one copy, every write counted once, results right"
	if !m.OK {
		check = fmt.Sprintf("FAILED: %d missing, %d duplicate, %d wrong", m.Missing, m.Duplicates, m.Wrong)
	}
	rows := [][]string{
		{"multi reads / writes", fmt.Sprintf("%d / %d", m.Reads, m.Writes)},
		{"multi copies / merges", fmt.Sprintf("%d / %d", m.Copies, m.Merges)},
		{"multi deliveries", fmt.Sprintf("%d (completion at cycle %d)", m.Deliveries, m.CompletionTime)},
		{"multi check", check},
	}
	if e := r.Experiments; e != nil && e.Multi != nil && e.Count > 1 {
		x := e.Multi
		rows = append(rows, []string{"multi over experiments (mean)", fmt.Sprintf("copies %.2f, merges %.2f, deliveries %.2f, completion %.2f; %d failed the check",
			x.Copies.Mean, x.Merges.Mean, x.Deliveries.Mean, x.CompletionTime.Mean, x.Failed)})
	}
	return rows
}
