package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/internal/outfile"
	"github.com/flitsim/flitsim/network/plot"
	"github.com/flitsim/flitsim/network/stats"
	"github.com/flitsim/flitsim/network/sweep"
)

const sweepSynopsis = `Usage: flitsim sweep [-c FILE.yaml] [--set key=value]... --vary KEY=start:stop:step [--vary KEY2=v1,v2,v3]...
                     [--out DIR [--resume]] [--shard i/n] [--jobs J] [--format table|json|csv]

Runs a grid of experiments: the config file (default: the embedded default)
with the --set overrides, then each point's values of the varied keys
(any configuration key; "flitsim list" shows them). Several --vary make a
grid, the cartesian product, in nested-loop order: the first --vary is the
outermost, the last changes fastest; points are numbered from 0 in that
order. A range start:stop:step includes stop; a list is v1,v2,... (or
v1;v2;... for values that hold commas, e.g. topology.order=0,1;1,0).

Every point runs from the same run.seed (seeds are never varied unless you
vary run.seed), on all cores (or --jobs), and the results come out in grid
order. With --out DIR the sweep writes results.csv, results.json and the
plots latency-vs-offered.svg/.png and accepted-vs-offered.svg/.png there.

With --out, each point is also added to DIR/results.points.jsonl as it
finishes. An interrupt (Ctrl-C, SIGINT or SIGTERM) stops the running points
at the end of their cycle and drops them, writes the finished points to
results.csv/.json (no plots) and exits with status 130; a second interrupt
quits at once. The same command with --resume then runs only the points
missing from DIR (it refuses a DIR made by a different sweep) and writes
the whole results.

--shard i/n runs only the points whose number is ≡ i−1 mod n and writes
results-shard-i-of-n.csv/.json (no plots); "flitsim merge" joins the shards.
A progress bar is shown on stderr when it is a terminal.
`

func cmdSweep(args []string, stdout io.Writer) error {
	fs := newFlags("sweep")
	file := fs.StringP("config", "c", "", "base experiment YAML `FILE` (default: the embedded default)")
	sets := fs.StringArray("set", nil, "override a key for every point: `key=value` (repeatable)")
	seed := fs.String("seed", "", "random seed of every point, a shortcut for --set run.seed=`N`")
	vary := fs.StringArray("vary", nil, "vary a key: `KEY=start:stop:step` or KEY=v1,v2,... (repeatable: a grid)")
	out := fs.StringP("out", "o", "", "write results, shard files and plots into `DIR` (created if missing)")
	shardFlag := fs.String("shard", "", "run only shard `i/n` of the points (1 ≤ i ≤ n)")
	jobs := fs.IntP("jobs", "j", 0, "run `J` points at once (default: all cores, GOMAXPROCS)")
	format := fs.StringP("format", "f", "table", "stdout format: table, json or csv")
	resume := fs.Bool("resume", false, "run only the points missing from the --out folder of an interrupted sweep")
	plotScale := plotScaleFlag(fs)
	if help, err := parseFlags(fs, sweepSynopsis, args, stdout); help || err != nil {
		return err
	}
	if *resume && *out == "" {
		return errors.New("--resume: needs --out DIR, the folder of the sweep to resume")
	}
	if err := checkFormat(*format, "table", "json", "csv"); err != nil {
		return err
	}
	po, err := plotOptions(*plotScale)
	if err != nil {
		return err
	}
	switch rest := fs.Args(); {
	case len(rest) == 1 && *file == "":
		*file = rest[0]
	case len(rest) > 0:
		return fmt.Errorf("sweep: unexpected argument %q (give the config file with -c FILE)", rest[0])
	}
	if *jobs < 0 {
		return inputerr.New("--jobs", *jobs, "an integer ≥ 1, or 0 for all cores")
	}
	var shard sweep.Shard
	if fs.Changed("shard") {
		s, err := sweep.ParseShard(*shardFlag)
		if err != nil {
			return err
		}
		shard = s
	}
	if fs.Changed("seed") {
		*sets = append(*sets, "run.seed="+*seed)
	}
	spec, err := sweep.NewSpec(*file, *sets, *vary)
	if err != nil {
		return err
	}
	if err := sweepFiles(*file, spec, shard, *out).Check(); err != nil {
		return err
	}
	opts := sweep.Options{Jobs: *jobs, Stop: &stopRequested, Check: checkSweepMemory}
	jr := &sweepJournal{dir: *out, spec: spec, shard: shard}
	if *out != "" {
		if err := jr.attach(&opts, *resume); err != nil {
			return err
		}
		defer jr.close()
	}
	release := watchInterrupts("stopping the points running at the end of their cycle")
	defer release()
	update, stop := sweepProgress()
	opts.Progress = update
	opts.Warn = func(l string) { warn([]string{l}) }
	f, err := sweep.Run(spec, shard, opts)
	stop()
	if errors.Is(err, sweep.ErrInterrupted) && *out != "" && jr.j == nil {
		// Interrupted while loading the points: a journal with none done,
		// so that --resume runs them all, as the message below says.
		if jerr := jr.create(); jerr != nil {
			return jerr
		}
	}
	return finishSweep(stdout, f, err, *out, *format, len(shard.Indices(spec.Points)), shard.Whole(), po)
}

// finishSweep writes and prints what a sweep of total points returned.
func finishSweep(stdout io.Writer, f *sweep.File, err error, out, format string, total int, whole bool, po plot.Options) error {
	interrupted := errors.Is(err, sweep.ErrInterrupted)
	if err != nil && !interrupted {
		var pe *sweep.PanicError
		if errors.As(err, &pe) {
			return &exitError{exitInternal, fmt.Errorf("internal error: %v", err)}
		}
		return err
	}
	if out != "" {
		// An interrupted sweep's files hold the points finished; the plots
		// wait for the whole sweep.
		var plots *plot.Options
		if whole && !interrupted {
			plots = &po
		}
		if err := writeSweep(out, f, plots); err != nil {
			return err
		}
	}
	if err := printSweep(stdout, f, format); err != nil {
		return err
	}
	if interrupted {
		return interruptedSweep(f, out, total)
	}
	return nil
}

// openJournal creates dir and starts the sweep's journal there, or with
// resume reads the points an earlier run of the same sweep finished.
func openJournal(dir string, spec *sweep.Spec, shard sweep.Shard, resume bool) (*sweep.Journal, []sweep.Row, error) {
	if resume {
		return sweep.ResumeJournal(dir, spec, shard)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, fmt.Errorf("--out %s: cannot create the folder: %v", dir, unwrapPathErr(err))
	}
	j, err := sweep.CreateJournal(dir, spec, shard)
	if err != nil {
		return nil, nil, fmt.Errorf("--out %s: %v", dir, err)
	}
	return j, nil, nil
}

// sweepJournal is a sweep's --out journal. A resumed sweep reads it at
// once; a new one is created only when every point has loaded
// (sweep.Options.Start), so that a sweep refused for a bad point leaves the
// folder's previous sweep as it was.
type sweepJournal struct {
	dir   string
	spec  *sweep.Spec
	shard sweep.Shard
	j     *sweep.Journal // nil until read or created
}

// attach makes opts keep each finished point in the journal.
func (s *sweepJournal) attach(opts *sweep.Options, resume bool) (err error) {
	if resume {
		if s.j, opts.Done, err = openJournal(s.dir, s.spec, s.shard, true); err != nil {
			return err
		}
	} else {
		opts.Start = s.create
	}
	opts.Finished = func(r sweep.Row) error { return s.j.Add(r) }
	return nil
}

// create starts a new journal, replacing the folder's previous one.
func (s *sweepJournal) create() (err error) {
	s.j, _, err = openJournal(s.dir, s.spec, s.shard, false)
	return err
}

func (s *sweepJournal) close() {
	if s.j != nil {
		s.j.Close()
	}
}

// interruptedSweep is the error (exit 130) of a sweep stopped by the user
// after points of its total were finished.
func interruptedSweep(f *sweep.File, dir string, total int) error {
	if dir == "" {
		return interruptedError("interrupted: %d of %d points finished (above); with --out DIR they are kept for --resume", len(f.Rows), total)
	}
	return interruptedError("interrupted: %d of %d points finished and kept in %s; the same command with --resume runs the other %d",
		len(f.Rows), total, dir, total-len(f.Rows))
}

// writeSweep writes f's JSON and CSV files into dir, and the plots drawn
// with plots unless it is nil.
func writeSweep(dir string, f *sweep.File, plots *plot.Options) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--out %s: cannot create the folder: %v", dir, unwrapPathErr(err))
	}
	var j, c bytes.Buffer
	if err := f.WriteJSON(&j); err != nil {
		return err
	}
	if err := f.WriteCSV(&c); err != nil {
		return err
	}
	base := filepath.Join(dir, f.BaseName())
	for _, out := range []struct {
		name string
		data []byte
	}{{base + ".json", j.Bytes()}, {base + ".csv", c.Bytes()}} {
		if err := outfile.WriteFile(out.name, out.data); err != nil {
			return fmt.Errorf("--out %s: cannot write %s: %v", dir, filepath.Base(out.name), unwrapPathErr(err))
		}
	}
	if plots != nil {
		if err := plot.Write(dir, f, *plots); err != nil {
			return fmt.Errorf("--out %s: %v", dir, err)
		}
	}
	return nil
}

func unwrapPathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// printSweep writes f to stdout as a table, JSON (the results.json document)
// or CSV (results.csv).
func printSweep(w io.Writer, f *sweep.File, format string) error {
	switch format {
	case "json":
		return f.WriteJSON(w)
	case "csv":
		return f.WriteCSV(w)
	}
	header := []string{"point"}
	for _, v := range f.Sweep.Vary {
		header = append(header, v.Key)
	}
	header = append(header, "offered", "accepted", "latency mean ± 95 % CI", "p99", "network latency", "hops (routers)", "status")
	rows := make([][]string, 0, len(f.Rows))
	noInterval := false
	for _, r := range f.Rows {
		row := []string{strconv.Itoa(r.Point)}
		for _, kv := range r.Values {
			row = append(row, kv.Value)
		}
		status := r.Status
		if r.DeadlockCycle != nil {
			status = fmt.Sprintf("deadlock at cycle %d", *r.DeadlockCycle)
		}
		lat := num(float64(r.LatencyMean))
		if lat != "n/a" {
			lat += " ± " + num(float64(r.LatencyCI95))
			noInterval = noInterval || math.IsNaN(float64(r.LatencyCI95))
		}
		row = append(row, num(float64(r.Offered)), num(float64(r.Throughput)), lat, num(float64(r.LatencyP99)),
			num(float64(r.NetworkLatencyMean)), num(float64(r.Hops)), status)
		rows = append(rows, row)
	}
	t := tablewriter.NewTable(w, tablewriter.WithHeaderAutoFormat(tw.Off))
	t.Header(header)
	if err := t.Bulk(rows); err != nil {
		return err
	}
	if err := t.Render(); err != nil {
		return err
	}
	if noInterval {
		// (the one reason stats.MeanCI95 gives none)
		_, err := fmt.Fprintf(w, "± n/a: no confidence interval, fewer than %d of the window's batches measured a packet (docs/statistics.md)\n", stats.MinBatches)
		return err
	}
	return nil
}
