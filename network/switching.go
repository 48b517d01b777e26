package network

import (
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network/esmintree"
	"github.com/flitsim/flitsim/network/topology"
	xbar "github.com/flitsim/flitsim/switch"
)

// switchingOf parses c's switching: the flit crossbar's mode, or the
// switch model that replaces the crossbar (packet, slotted) with the
// slotted router's settings.
func switchingOf(c *Config) (xbar.Mode, string, kernel.SlottedSpec, error) {
	var sspec kernel.SlottedSpec
	switch {
	case IsLockstepMesh(c):
		return 0, "", sspec, inputerr.New("switching", c.Switching, "wormhole, vct, saf, packet, slotted with flitsim run (lockstep-mesh is Han's lock-step mesh: run it with flitsim route)")
	case isPacket(c):
		return xbar.SAF, "packet", sspec, nil
	case isSlotted(c):
		sspec, err := slottedSpec(c)
		return xbar.SAF, "slotted", sspec, err
	}
	mode, err := xbar.ParseMode(c.Switching)
	if err != nil {
		return 0, "", sspec, inputerr.New("switching", c.Switching, "wormhole, vct, saf, packet, slotted (lockstep-mesh: with flitsim route)")
	}
	return mode, "", sspec, nil
}

// checkTree checks multicast.tree: a known algorithm, on an ESMIN with
// extra stages.
func checkTree(spec topology.Spec) error {
	if spec.Tree == "" {
		return nil
	}
	if _, ok := esmintree.ParseAlg(spec.Tree); !ok {
		return inputerr.New("multicast.tree", spec.Tree, "%s", strings.Join(esmintree.AlgNames(), ", "))
	}
	if _, err := topology.ESMINTrees(spec); err != nil {
		return inputerr.New("multicast.tree", spec.Tree, "only on an ESMIN with extra stages, and here %v", err)
	}
	return nil
}
