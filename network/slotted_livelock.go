package network

import (
	"fmt"

	"github.com/flitsim/flitsim/internal/kernel"
)

// livelockFactor sets the deflection schemes' livelock threshold: a
// packet older than livelockFactor·d slots, or a node unable to inject for
// more than that many consecutive slots, is reported as a warning. An
// undeflected packet takes at most d slots and each deflection adds two,
// so the threshold is about 50·d deflections of one packet, or d·100
// slots in which every link of a node carried a passing packet: far past
// what a normal run shows (docs/statistics.md gives measured figures),
// while a packet or node caught in a cycle passes it in a short run.
const livelockFactor = 100

// fillLivelock sets r's livelock figures from the kernel's watch (nil for
// the schemes without one).
func fillLivelock(r *Result, l *kernel.DeflLivelock) {
	if l == nil {
		return
	}
	age, defl, lock, node := l.OldestAge, l.MaxDeflections, l.LongestLockout, l.LockoutNode
	r.OldestAge, r.MaxDeflections, r.LongestLockout = &age, &defl, &lock
	if lock > 0 {
		r.LockoutNode = &node
	}
}

// livelockWarnings is the "livelock: " and "lockout: " lines of a
// deflection run whose figures pass livelockFactor·d slots.
func livelockWarnings(r *Result) []string {
	if r.OldestAge == nil {
		return nil
	}
	limit := int64(livelockFactor * r.Config.Topology.D)
	var ws []string
	if *r.OldestAge > limit {
		ws = append(ws, fmt.Sprintf("livelock: a packet spent %d slots in the network (oldest_age, %d deflections at most: max_deflections), more than %d·d = %d",
			*r.OldestAge, *r.MaxDeflections, livelockFactor, limit))
	}
	if *r.LongestLockout > limit {
		ws = append(ws, fmt.Sprintf("lockout: node %d could not inject for %d consecutive slots (longest_lockout: passing packets held all its links), more than %d·d = %d",
			*r.LockoutNode, *r.LongestLockout, livelockFactor, limit))
	}
	return ws
}
