package configs

import (
	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/network/memory"
)

// Precheck sees a decoded configuration before the final validation,
// which builds the network: a command refuses there what it cannot afford
// (its memory estimate, its size limits) before anything is built.
type Precheck func(*network.Config) error

// checkRunMemory is the precheck of every load that names none: the
// estimate of a run of the configuration (package network/memory) against
// run.max_memory. A configuration the estimate cannot size (a bad key) is
// left to the validation, whose error names the key.
func checkRunMemory(c *network.Config) error {
	if network.CheckScalars(c) != nil || network.IsLockstepMesh(c) {
		return nil // (validation names the key; run refuses the lock-step mesh)
	}
	e, err := memory.ForRun(c)
	if err != nil {
		return nil // a topology parameter: validation names it
	}
	return e.Check()
}

// LoadChecked is LoadWarn with the command's own precheck in place of the
// run's memory estimate.
func LoadChecked(path string, sets []string, pre Precheck) (network.Config, []string, error) {
	data, name, err := readConfig(path)
	if err != nil {
		return network.Config{}, nil, err
	}
	l := newLoader(name)
	l.pre = pre
	cfg, err := l.load(data, sets)
	if err != nil {
		return network.Config{}, nil, oneLine(err)
	}
	return cfg, l.unused(&cfg), nil
}
