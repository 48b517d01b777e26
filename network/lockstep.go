package network

import (
	"slices"
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"
)

// Han's lock-step mesh computer (switching: lockstep-mesh; docs/han.md):
// its settings and their checks. The machine and its algorithms are
// package network/han, run by flitsim route, not by run's kernel.

// SwitchingLockstepMesh is the switching value of Han's lock-step mesh.
const SwitchingLockstepMesh = "lockstep-mesh"

// maxLockstepBuffers bounds lockstep.buffers.
const maxLockstepBuffers = 64

// LockstepConfig sets the lock-step mesh (switching: lockstep-mesh).
type LockstepConfig struct {
	// Buffers is every processor's pool of message buffers; 0 is what the
	// algorithm needs (Q 5, H 3, k-strip H k + 1, …).
	Buffers int `yaml:"buffers" json:"buffers,omitempty" allowed:"an integer from 0 to 64 (messages a processor holds; 0: what the algorithm needs; switching: lockstep-mesh, flitsim route)" default:"0"`
	// Model is the thesis's distributed model (a processor sends on any
	// of its links in a step) or the ILLIAC model (SIMD: every processor
	// sends in the one direction the controller names).
	Model string `yaml:"model" json:"model,omitempty" allowed:"distributed, illiac (switching: lockstep-mesh)" default:"distributed"`
	// Wrap links every row's and column's ends (a torus), as the ILLIAC
	// variation with wrap-around connections has.
	Wrap bool `yaml:"wrap" json:"wrap,omitempty"`
}

// lockstepModels are lockstep.model's values ("" is distributed).
var lockstepModels = []string{"distributed", "illiac"}

// IsLockstepMesh reports whether c selects the lock-step mesh.
func IsLockstepMesh(c *Config) bool {
	return strings.EqualFold(strings.TrimSpace(c.Switching), SwitchingLockstepMesh)
}

// checkLockstep checks lockstep.buffers, whatever the switching (as the
// packet router's keys are).
func checkLockstep(c *Config) error {
	if b := c.Lockstep.Buffers; b < 0 || b > maxLockstepBuffers {
		return inputerr.New("lockstep.buffers", b, "an integer from 0 to %d (0: what the algorithm needs)", maxLockstepBuffers)
	}
	if m := c.Lockstep.Model; m != "" && !slices.Contains(lockstepModels, m) {
		return inputerr.New("lockstep.model", m, "%s", strings.Join(lockstepModels, ", "))
	}
	return nil
}

// CheckLockstep is checkLockstep for flitsim route, which does not build
// run's network.
func CheckLockstep(c *Config) error { return checkLockstep(c) }
