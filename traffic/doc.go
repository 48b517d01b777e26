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
