package collective

import "github.com/flitsim/flitsim/internal/kernel"

// enqueueTagged enqueues a one-slot packet from node src to node dst and
// tags it with aux (the schedule's name for the logical packet; copies
// keep it). It is the hcube schedules' only access to the router's packet
// storage outside Arrived's worm: their per-packet data live in their own
// slices, keyed by the tag.
func enqueueTagged(k *kernel.Kernel, c *cube, src, dst int, aux uint64) int32 {
	return k.EnqueueScheduled(c.term[src], c.term[dst], aux)
}
