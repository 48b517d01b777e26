package network

import (
	"math/rand/v2"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/internal/kernel"
)

// Valiant's two-phase randomised routing on the packet router (Brebner
// 1983 §2.3, §3.7.5; digest §4.4, §4.6.5): every packet first travels to a
// terminal drawn uniformly among all N (its own source included: an empty
// first leg), then on to its destination, each leg by the topology's
// routing. The key valiant says how the phases meet:
//
//   - off: one phase, straight to the destination;
//   - separate: phase 2 starts when every packet has finished phase 1 (a
//     barrier); each node's arrivals start phase 2 in random order, and
//     each phase is measured on its own (Brebner's chapter 3);
//   - merged: a packet starts its second leg as soon as it reaches its
//     intermediate node, re-queued there; it counts as arrived only at its
//     destination (full merging);
//   - merged-priority: merged, and a queue sends a packet still in its
//     first leg before any in its second (partial merging; FIFO within each
//     class, so only with queue.discipline fifo).
var valiantModes = map[string]string{"": "off", "off": "off", "none": "off", "separate": "separate",
	"merged-priority": "merged-priority", "partial": "merged-priority", "merged": "merged", "full": "merged"}

const valiantAllowed = "off, separate, merged-priority, merged (aliases none, partial, full)"

// valiantMode checks the key valiant (whatever the switching, as the other
// packet-router keys) and returns its canonical value.
func valiantMode(c *Config, packet bool, disc string) (string, error) {
	m, err := lookup(valiantModes, "valiant", c.Valiant, valiantAllowed)
	switch {
	case err != nil:
		return "", err
	case m != "off" && !packet:
		return "", inputerr.New("valiant", c.Valiant, "off (two-phase routing only with switching: packet)")
	case m == "separate" && !IsBatch(c):
		// (Open traffic never leaves every packet at its intermediate
		// node at once: the barrier would hold them all for ever.)
		return "", inputerr.New("valiant", c.Valiant, "off, merged-priority, merged with traffic.mode open (separate phases need traffic.mode: batch)")
	case m == "merged-priority" && disc != "fifo":
		return "", inputerr.New("valiant", c.Valiant, "off, separate, merged with queue.discipline %s (merged-priority is FIFO within each phase)", disc)
	}
	return m, nil
}

// setValiant sets the packet router's phases for mode on n terminals.
func setValiant(s *kernel.PacketSpec, mode string, n int) {
	if mode == "off" {
		return
	}
	s.Via = func(_ *flit.Worm, rng *rand.Rand) int32 { return int32(rng.IntN(n)) }
	s.Barrier = mode == "separate"
	s.Phase1First = mode == "merged-priority"
}
