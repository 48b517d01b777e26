package configs

import "github.com/flitsim/flitsim/network"

// LoadUnchecked is Load without the final validation (which builds the
// topology): for commands that read a topology the simulator cannot build
// yet, such as flitsim layout's d-shuffle bounds. Keys and value types are
// still checked.
func LoadUnchecked(path string, sets []string) (network.Config, error) {
	data, name, err := readConfig(path)
	if err != nil {
		return network.Config{}, err
	}
	l := newLoader(name)
	l.unchecked = true
	cfg, err := l.load(data, sets)
	if err != nil {
		return network.Config{}, oneLine(err)
	}
	return cfg, nil
}

// LoadDecoded decodes the configuration and runs check on it, its error
// placed at the key's file line or --set like validation's, but does not
// validate (which builds run's network): for commands with a machine of
// their own, such as flitsim route's lock-step mesh, or that evaluate
// models of a network they never build, such as flitsim analytic.
func LoadDecoded(path string, sets []string, check Precheck) (network.Config, error) {
	data, name, err := readConfig(path)
	if err != nil {
		return network.Config{}, err
	}
	l := newLoader(name)
	l.unchecked, l.pre = true, check
	cfg, err := l.load(data, sets)
	if err != nil {
		return network.Config{}, oneLine(err)
	}
	return cfg, nil
}
