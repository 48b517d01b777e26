package main

import (
	"os"
	"path/filepath"

	"github.com/flitsim/flitsim/internal/outfile"
	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/network/plot"
	"github.com/flitsim/flitsim/network/sweep"
	"github.com/flitsim/flitsim/network/trace"
)

// Every command that writes files registers them here with the files it
// reads (outfile.Set) and checks them before it opens any for writing: no
// output may be an input or another output.

// stdoutFile is realMain's stdout when it is a file (os.Stdout), else nil.
var stdoutFile *os.File

// fileSet is a command's file set, holding its standard output when the
// shell redirected that to a file.
func fileSet() *outfile.Set {
	s := &outfile.Set{}
	s.Stdout(stdoutFile)
	return s
}

// configFiles is a command's file set holding the files the config reads:
// the -c file and the traffic.trace and topology.file it names.
func configFiles(file string, cfg network.Config) *outfile.Set {
	s := fileSet()
	s.Input("-c", file)
	s.Input("traffic.trace", cfg.Traffic.Trace)
	s.Input("topology.file", cfg.Topology.File)
	return s
}

// register adds the trace files t asks for, with the VCD's side files.
func (t *traceFlags) register(s *outfile.Set) {
	s.Output("--trace-vcd", t.vcd)
	if t.vcd != "" {
		save, filters := trace.SideFiles(t.vcd)
		s.Side("--trace-vcd", "GTKWave save file", save)
		for i, f := range trace.Filters {
			s.Side("--trace-vcd", "GTKWave "+f.Signal+" filter", filters[i])
		}
	}
	s.Output("--trace-events", t.events)
	s.Output("--trace-perfetto", t.perfetto)
}

// registerCSV adds run's CSV outputs (--channels, --per-node, ...).
func registerCSV(s *outfile.Set, outs []*csvOut) {
	for _, o := range outs {
		s.Output("--"+o.flag, *o.path)
	}
}

// sweepFiles is the file set of a sweep of spec (its config file: file)
// into dir: the files every point reads and the results, journal and
// plots it writes there.
func sweepFiles(file string, spec *sweep.Spec, shard sweep.Shard, dir string) *outfile.Set {
	var s *outfile.Set
	if cfg, err := spec.Load(0); err == nil {
		s = configFiles(file, cfg)
	} else { // (the sweep reports the error itself)
		s = fileSet()
		s.Input("-c", file)
	}
	for _, v := range spec.Vary {
		if v.Key == "traffic.trace" || v.Key == "topology.file" {
			for _, val := range v.Values {
				s.Input("--vary "+v.Key, val)
			}
		}
	}
	if dir != "" {
		s.Output("--out", filepath.Join(dir, sweep.JournalName(shard)))
		resultFiles(s, dir, (&sweep.File{Shard: shard.String()}).BaseName(), shard.Whole())
	}
	return s
}

// resultFiles adds the results a sweep or merge writes into dir: BASE.json,
// BASE.csv and, with plots, the plot files.
func resultFiles(s *outfile.Set, dir, base string, plots bool) {
	names := []string{base + ".json", base + ".csv"}
	if plots {
		names = append(append(names, plot.Files...), plot.TaskFiles...)
	}
	for _, n := range names {
		s.Output("--out", filepath.Join(dir, n))
	}
}
