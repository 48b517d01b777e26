package main

import (
	"fmt"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/network/memory"
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

// collectiveMemory is the precheck of flitsim collective --task task
// (traced: with a --trace-* flag).
func collectiveMemory(task string, traced bool) configs.Precheck {
	return func(c *network.Config) error {
		e, err := memory.ForCollective(c, task, traced)
		if network.CheckScalars(c) != nil || err != nil {
			return nil // (the validation names the key)
		}
		return e.Check()
	}
}
