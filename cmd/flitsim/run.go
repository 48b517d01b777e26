package main

import (
	"fmt"
	"io"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/network"
)

const runSynopsis = `Usage: flitsim run [-c FILE.yaml] [--set key=value]... [--seed N] [--format table|json|csv]
                   [--trace-vcd FILE.vcd] [--trace-events FILE.csv|FILE.jsonl] [--trace-perfetto FILE.json]
                   [--trace-perfetto-tracks worm|router|link] [--trace-window A:B] [--trace-only PATTERN] [--channels FILE.csv]
                   [--per-node FILE.csv] [--per-pair FILE.csv] [--histogram FILE.csv] [--routers FILE.csv]

Runs one experiment: the file (default: the embedded configs/default.yaml, an
8×8 mesh), with the --set overrides applied in order (dotted keys, e.g.
--set traffic.load=0.3 --set topology.dims=1,2,1,2,0 --set switch.reuse=false;
"flitsim list" shows every key). A file with a topology block starts that
block from zero, so it must give every topology parameter it needs.

Cycle traces: --trace-vcd writes a value change dump (GTKWave: channels,
buffer occupancy and owners, source states) and FILE.gtkw beside it (gtkwave
FILE.gtkw: the busiest places shown, enum values named), --trace-events one
row per flit move, block, grant and delivery, --trace-perfetto a timeline
(Perfetto UI or chrome://tracing) with a track per worm, or per router buffer
or per link with --trace-perfetto-tracks. --trace-window and --trace-only
limit all of them to some cycles and to some switches and terminals.

An interrupt (Ctrl-C, SIGINT or SIGTERM) stops the run at the end of the
current cycle: it prints the results so far, marked interrupted (JSON:
"interrupted": true, "interrupted_at": CYCLE), completes every trace file
and exits with status 130. A second interrupt quits at once.

--channels writes every wired channel's load over the measurement window (a
trace's: the whole run) as flits and flits per cycle to a CSV file, one row
per channel; it sets run.channels, which also lists them in the result.
Likewise --per-node (run.per_node: each terminal's packets sent and
received, offered and accepted flits per cycle, mean and p99 latency as
source and as destination), --per-pair (run.per_pair: each source and
destination's packets and mean latency), --histogram (run.histogram: the
exact latency histogram) and --routers (run.router_activity: each router's
flits switched and blocked cycles). Each output needs a file of its own,
which is none of the files the run reads (the config, traffic.trace,
topology.file), and is put in place only when complete.

The result's status is ok, incomplete, saturated, stall or deadlock; the
exit status is 0 for ok, 3 for a deadlock or stall, 4 for saturated or
incomplete (the results are printed all the same; "flitsim help" lists
every exit status).
`

func cmdRun(args []string, stdout io.Writer) error {
	fs := newFlags("run")
	file := fs.StringP("config", "c", "", "experiment YAML `FILE` (default: the embedded default)")
	sets := fs.StringArray("set", nil, "override a key: `key=value` (repeatable; dotted keys)")
	seed := fs.String("seed", "", "random seed, a shortcut for --set run.seed=`N`")
	format := fs.StringP("format", "f", "table", "output format: table, json or csv")
	tr := addTraceFlags(fs)
	csvs := addCSVFlags(fs)
	if help, err := parseFlags(fs, runSynopsis, args, stdout); help || err != nil {
		return err
	}
	if err := checkFormat(*format, "table", "json", "csv"); err != nil {
		return err
	}
	switch rest := fs.Args(); {
	case len(rest) == 1 && *file == "":
		*file = rest[0] // flitsim run exp.yaml
	case len(rest) > 0:
		return fmt.Errorf("run: unexpected argument %q (give the config file with -c FILE)", rest[0])
	}
	if fs.Changed("seed") {
		*sets = append(*sets, "run.seed="+*seed)
	}
	// The network is built once: the configuration's validation builds
	// the network this command runs, with the CSV flags' run keys set.
	cfg, n, warnings, err := configs.LoadBuilt(*file, *sets, func(c *network.Config) { setCSVKeys(csvs, &c.Run) })
	warn(warnings)
	if err != nil {
		return err
	}
	files := configFiles(*file, cfg)
	tr.register(files)
	registerCSV(files, csvs)
	if err := files.Check(); err != nil {
		return err
	}
	if err := tr.check(fs); err != nil {
		return err
	}
	defer closeCSV(csvs)
	if err := openCSV(csvs); err != nil {
		return err
	}
	release := watchInterrupts("stopping at the end of this cycle")
	defer release()
	var res *network.Result
	if tr.on() {
		res, err = runTraced(n, tr)
	} else {
		res, err = runNetwork(n)
	}
	if err != nil {
		return err
	}
	if res == nil {
		panic("network.Run returned neither a result nor an error")
	}
	if err := writeCSVOuts(csvs, res); err != nil {
		return err
	}
	switch *format {
	case "json":
		err = writeJSON(stdout, res)
	case "csv":
		err = writeCSV(stdout, res)
	default:
		err = writeTable(stdout, res)
	}
	if err != nil {
		return err
	}
	warn(res.Warnings) // (also in the JSON and CSV: "warnings")
	return runVerdict(res)
}

// startRun prints what Build found suspicious (one "flitsim: warning:" line
// each) and makes n stop on the user's interrupt.
func startRun(n *network.Network) {
	warn(n.Warnings())
	n.StopOn(&stopRequested)
}
