package configs

import (
	"testing"

	"github.com/flitsim/flitsim/network"
)

// LoadBuilt's validation is the build the command then runs: one build,
// no separate network.Validate, the command's run keys set before it, and
// the build's errors placed like validation's.
func TestLoadBuiltBuildsOnce(t *testing.T) {
	oldV, oldB := validate, build
	t.Cleanup(func() { validate, build = oldV, oldB })
	validate = func(*network.Config) error {
		t.Error("LoadBuilt called network.Validate: the network would be built twice")
		return nil
	}
	builds, seen := 0, network.Config{}
	build = func(c network.Config) (*network.Network, error) {
		builds++
		seen = c
		return network.Build(c)
	}
	cfg, n, _, err := LoadBuilt("", []string{"run.measure=10"}, func(c *network.Config) { c.Run.Channels = true })
	if err != nil {
		t.Fatal(err)
	}
	if !seen.Run.Channels {
		t.Error("the build did not see the run key adjust set")
	}
	if builds != 1 || n == nil || !n.Cfg.Run.Channels || !cfg.Run.Channels || n.Cfg.Run.Measure != 10 {
		t.Errorf("%d builds, network %v: want one build of the adjusted configuration", builds, n != nil)
	}
	_, n, _, err = LoadBuilt("", []string{"traffic.load=2"}, nil)
	wantErr(t, err, "--set traffic.load: 2 is not allowed")
	if n != nil || builds != 2 {
		t.Errorf("a bad load: network %v after %d builds", n != nil, builds)
	}
}
