package configs

import "github.com/flitsim/flitsim/network"

// validate is network.Validate and build network.Build (variables so tests
// can stub them).
var (
	validate = network.Validate
	build    = network.Build
)

// final is the final check: network.Validate, or, for LoadBuilt, the
// build of the network the command then runs (so it is built once).
func (l *loader) final(c *network.Config) error {
	if !l.keep {
		return validate(c)
	}
	if l.adjust != nil {
		l.adjust(c)
	}
	n, err := build(*c)
	l.built = n
	return err
}

// LoadBuilt is LoadWarn that also returns the network its validation built,
// for a command that runs it: validation and the run share one build
// (on the 20-cube the build takes seconds and gigabytes). adjust, if not
// nil, sets what the command's own flags decide (run's --channels and the
// like set run keys) on the checked configuration before the build.
func LoadBuilt(path string, sets []string, adjust func(*network.Config)) (network.Config, *network.Network, []string, error) {
	data, name, err := readConfig(path)
	if err != nil {
		return network.Config{}, nil, nil, err
	}
	l := newLoader(name)
	l.keep, l.adjust = true, adjust
	cfg, err := l.load(data, sets)
	if err != nil {
		return network.Config{}, nil, nil, oneLine(err)
	}
	return cfg, l.built, l.unused(&cfg), nil
}
