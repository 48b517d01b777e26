package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/network/han"
)

// routeTableSide is --table's mesh side when topology.k is not given.
const routeTableSide = 64

// routeTables prints Tables 5.1 and 5.2 (han.Tables) on the n×n mesh
// topology.k names: the table runs its own inputs, so the flags that pick
// one routing are refused rather than ignored.
func routeTables(fs *pflag.FlagSet, sets []string, format string, stdout io.Writer) error {
	if err := routeOwnInputs(fs, "table"); err != nil {
		return err
	}
	n, err := routeSummarySide(sets, "table", routeTableSide, func(n int) bool { return n >= 16 && n <= 1024 && n&(n-1) == 0 },
		"a power of two from 16 to 1024")
	if err != nil {
		return err
	}
	rows, err := han.Tables(n)
	if err != nil {
		return &exitError{exitInternal, err}
	}
	if format == "json" {
		return writeLayoutAny(stdout, rows)
	}
	return writeRouteTables(stdout, n, rows)
}

// writeRouteTables prints one line a row: the formula and the thesis's
// buffers, then (built variants) the mesh, the worst measured data +
// integer steps (actual schedule), the static schedule's, the formula's
// value there, the most buffers seen, and whether the bound held.
func writeRouteTables(w io.Writer, n int, rows []han.TableRow) error {
	fmt.Fprintf(w, "Han 1990 Tables 5.1 and 5.2 and lower bounds, measured on %d×%d (rectangles %d×%d): worst over the inputs, actual schedule\n", n, n, 2*n, n)
	table := ""
	for _, r := range rows {
		if r.Table != table {
			table = r.Table
			title := "Table " + table
			if r.Lower {
				title = "Lower bounds (Tier C): measured must not beat them"
			}
			fmt.Fprintf(w, "\n%s\n%-32s %-54s %-7s %-9s %9s %9s %15s %6s %s\n", title,
				"variant", "formula", "buffers", "mesh", "measured", "static", "bound", "buffer", "ok")
		}
		fmt.Fprintf(w, "%-32s %-54s %-7s ", r.Variant, r.Formula, r.Buffers)
		if !r.Built {
			fmt.Fprintf(w, "not built (%s)\n", r.Conditions)
			continue
		}
		ok := "yes"
		if !r.OK {
			ok = "NO"
		}
		if r.Against != "" {
			ok += " (" + r.Against + ")"
		}
		bound := fmt.Sprintf("%s + %s", num(r.BoundData), num(r.BoundInteger))
		if r.Lower {
			bound = "≥ " + num(r.BoundData)
		}
		fmt.Fprintf(w, "%-9s %9s %9s %15s %6d %s\n", r.Mesh, fmt.Sprintf("%d+%d", r.Data, r.Integer),
			fmt.Sprintf("%d+%d", r.StaticData, r.StaticInteger), bound, r.MaxBuffer, ok)
	}
	return nil
}

// routeSummarySide is the side --table or --compare (mode) runs up to: the
// only key they take is topology.k (--set topology.k=N), which ok must
// accept; def without it.
func routeSummarySide(sets []string, mode string, def int, ok func(int) bool, allowed string) (int, error) {
	n := def
	for _, s := range sets {
		k, v, _ := strings.Cut(s, "=")
		if strings.TrimSpace(k) != "topology.k" {
			return 0, inputerr.New("--set", s, "topology.k=N with --"+mode)
		}
		var err error
		if n, err = strconv.Atoi(strings.TrimSpace(v)); err != nil || !ok(n) {
			return 0, (&inputerr.Error{Key: "topology.k", Value: strings.TrimSpace(v), Allowed: allowed + " with --" + mode}).At(inputerr.CommandLine)
		}
	}
	return n, nil
}
