package network

import (
	"runtime/debug"
	"sync"

	"github.com/flitsim/flitsim/network/topology"
)

// largePorts is the size from which the collector is managed around a
// network's build: below it a collection, or turning the collector off,
// costs more than it saves.
const largePorts = 1 << 20

// isLarge reports whether t has largePorts ports or more.
func isLarge(t *topology.Topology) bool {
	ports := 0
	for i := range t.Switches {
		ports += len(t.Switches[i].Out)
	}
	return ports >= largePorts
}

// gcHold counts the builds that hold the collector off (holdGC).
var gcHold struct {
	sync.Mutex
	n   int // builds holding it
	old int // the GC percentage to restore when the last one ends
}

// holdGC turns the collector off until release is called. A large build
// allocates gigabytes that all stay alive and almost no garbage, yet the
// collector, started each time the heap doubles, marks the growing network
// a dozen times: on the 20-cube 3 of the build's 10 s of CPU time, and a
// third of its page faults. With it off the first collection after the
// build marks the finished network once. Builds running at once (a sweep's
// jobs) share the hold; the last to end restores the setting.
func holdGC() (release func()) {
	gcHold.Lock()
	if gcHold.n == 0 {
		gcHold.old = debug.SetGCPercent(-1)
	}
	gcHold.n++
	gcHold.Unlock()
	return func() {
		gcHold.Lock()
		if gcHold.n--; gcHold.n == 0 {
			debug.SetGCPercent(gcHold.old)
		}
		gcHold.Unlock()
	}
}
