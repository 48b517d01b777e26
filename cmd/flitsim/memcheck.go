package main

import (
	"fmt"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/network/memory"
	"github.com/flitsim/flitsim/network/trace"
)

// checkMemory refuses (exit 2, one line) a command whose estimated peak
// memory (package network/memory) passes run.max_memory; each command
// calls it with its estimate before it builds anything.
func checkMemory(e *memory.Estimate, err error) error {
	if err != nil {
		return err
	}
	return e.Check()
}

// checkDistancesSize refuses, before the topology is built, a network
// past flitsim distances' terminal limit or run.max_memory.
func checkDistancesSize(c *network.Config) error {
	e, err := memory.ForDistances(c)
	if err != nil {
		return nil // (the validation names the key)
	}
	if n := e.Size.Terminals; n > distancesMaxGraph {
		return inputerr.New("topology", fmt.Sprintf("%d terminals", n), "at most %d terminals for flitsim distances", distancesMaxGraph)
	}
	return e.Check()
}

// checkSweepMemory is sweep.Options.Check: the points run jobs at a time.
func checkSweepMemory(cfgs []network.Config, jobs int) error {
	return checkMemory(memory.ForSweep(cfgs, jobs))
}

// loadConfigChecked is loadConfig with the command's precheck (its memory
// estimate) in place of the run's.
func loadConfigChecked(path string, sets []string, pre configs.Precheck) (network.Config, error) {
	cfg, warnings, err := configs.LoadChecked(path, sets, pre)
	warn(warnings)
	return cfg, err
}

// collectiveTrace is what the trace flags t ask of a collective's memory.
func collectiveTrace(t *traceFlags) memory.Trace {
	w, err := trace.ParseWindow(t.window)
	windowed := err == nil && t.window != ""
	// Every writer says what it writes (kernel.TraceScope) but a timeline
	// by router or link.
	mode, _ := trace.ParseTracks(t.tracks)
	tr := memory.Trace{On: t.on(), Scoped: (windowed || t.only != "") && (t.perfetto == "" || mode == trace.TracksWorm)}
	if tr.Scoped && windowed && w.To > 0 {
		tr.Cycles = w.To - w.From
		if t.perfetto != "" {
			tr.Cycles = w.To // (a hop span the timeline shows may start before the window)
		}
	}
	return tr
}

// collectiveMemory is the precheck of flitsim collective --task task
// with the trace flags t.
func collectiveMemory(task string, t *traceFlags) configs.Precheck {
	tr := collectiveTrace(t)
	return func(c *network.Config) error {
		e, err := memory.ForCollective(c, task, tr)
		if network.CheckScalars(c) != nil || err != nil {
			return nil // (the validation names the key)
		}
		return e.Check()
	}
}
