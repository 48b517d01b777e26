package configs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/flitsim/flitsim/network"
)

// LoadUnchecked is Load without the final validation (which builds the
// topology): for commands that read a topology the simulator cannot build
// yet, such as flitsim layout's d-shuffle bounds. Keys and value types are
// still checked.
func LoadUnchecked(path string, sets []string) (network.Config, error) {
	data, name := defaultYAML, DefaultName
	if path != "" {
		var err error
		if data, err = os.ReadFile(path); err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return network.Config{}, fmt.Errorf("%s: cannot read config file: %v", path, err)
		}
		name = path
	}
	l := loader{name: name, where: map[string]string{}, unchecked: true}
	cfg, err := l.load(data, sets)
	if err != nil {
		return network.Config{}, oneLine(err)
	}
	return cfg, nil
}
