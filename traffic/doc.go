// Package traffic generates the packets a simulation's terminals inject:
// synthetic destination patterns (uniform, bit permutations, digit
// permutations, hot spots), packet-length distributions, Bernoulli injection,
// replayed CSV traces, the cluster multicast workload of Chiang 1995 and the
// schedules of software (unicast-based) multicast: separate addressing,
// U-min and C-min.
//
// Everything random draws from a caller-supplied *rand.Rand (math/rand/v2),
// so a run is a deterministic function of its seed. The package uses only
// the standard library and does not import the network package.
package traffic

import "fmt"

// Error is a bad traffic setting: the config key, the value given and what
// is allowed. Its message is "KEY: VALUE is not allowed (allowed: ALLOWED)".
//
// Keys are "traffic.pattern", "traffic.hotspots", "traffic.hotspot_fraction"
// and "traffic.trace". For a bad trace line the Value is "NAME line L: what",
// so the message reads
// "traffic.trace: NAME line L: src 70 is not allowed (allowed: ...)".
type Error struct {
	Key     string
	Value   string
	Allowed string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s: %s is not allowed (allowed: %s)", e.Key, e.Value, e.Allowed)
}
