package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/flitsim/flitsim/network/sweep"
)

const mergeSynopsis = `Usage: flitsim merge --out DIR [--format table|json|csv] FILE.json... | SHARD-DIR

Joins the shard files of one sweep (results-shard-i-of-n.json, written by
"flitsim sweep --shard i/n --out ...") into results.csv, results.json and
the plots in DIR, and prints the points like "flitsim sweep". A folder
argument stands for every results-shard-*.json in it. The files must come
from the same sweep (same base config text, --set overrides and --vary
values) and hold every point exactly once; the error names missing or
duplicated points.
`

func cmdMerge(args []string, stdout io.Writer) error {
	fs := newFlags("merge")
	out := fs.StringP("out", "o", "", "write results.csv, results.json and the plots into `DIR` (required)")
	format := fs.StringP("format", "f", "table", "stdout format: table, json or csv")
	if help, err := parseFlags(fs, mergeSynopsis, args, stdout); help || err != nil {
		return err
	}
	if err := checkFormat(*format, "table", "json", "csv"); err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("merge: --out DIR is missing (allowed: the folder for results.csv, results.json and the plots)")
	}
	if len(fs.Args()) == 0 {
		return fmt.Errorf("merge: no result files given (allowed: shard JSON files, or a folder holding results-shard-*.json)")
	}
	var paths []string
	for _, a := range fs.Args() {
		st, err := os.Stat(a)
		if err != nil {
			return fmt.Errorf("merge: %s: cannot read: %v", a, unwrapPathErr(err))
		}
		if !st.IsDir() {
			paths = append(paths, a)
			continue
		}
		found, err := filepath.Glob(filepath.Join(a, "results-shard-*-of-*.json"))
		if err != nil {
			return fmt.Errorf("merge: %s: %v", a, err)
		}
		if len(found) == 0 {
			return fmt.Errorf("merge: %s: the folder holds no results-shard-*-of-*.json files (allowed: a folder of shard files, or the files themselves)", a)
		}
		sort.Strings(found)
		paths = append(paths, found...)
	}
	set := fileSet()
	for _, p := range paths {
		set.Input("merge", p)
	}
	resultFiles(set, *out, "results", true)
	if err := set.Check(); err != nil {
		return err
	}
	files := make([]*sweep.File, len(paths))
	for k, p := range paths {
		f, err := sweep.ReadFile(p)
		if err != nil {
			return fmt.Errorf("merge: %v", err)
		}
		files[k] = f
	}
	f, err := sweep.Merge(files, paths)
	if err != nil {
		return err
	}
	if err := writeSweep(*out, f, true); err != nil {
		return err
	}
	return printSweep(stdout, f, *format)
}
