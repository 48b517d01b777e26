package xbar

import (
	"fmt"
	"slices"
)

// Arbiter declares one arbitration policy: the arbiter key's value, its
// aliases and what it grants first. Config validation, `flitsim list`,
// ParsePolicy and the tests read the registry.
type Arbiter struct {
	Name    string   // canonical, lower case
	Aliases []string // other accepted spellings, lower case
	Desc    string   // what it grants first (`flitsim list`)
	// Compare ranks two requests at one switch for an arbiter added with
	// RegisterArbiter: negative when a is granted first, positive when b
	// is, 0 for a tie (then the older worm serial wins). rr is the input
	// after the switch's last winner, ports its radix. The built-in
	// policies leave it nil: Switch.before ranks them itself.
	Compare func(a, b *Request, rr, ports int32) int
}

// arbiters is indexed by Policy: the built-in policies in the order of
// their constants, then RegisterArbiter's. (A package-level value, not an
// init function, so that Go fills it before any package-level variable that
// calls RegisterArbiter.)
var arbiters = []Arbiter{
	{Name: "round-robin", Aliases: []string{"rr", "roundrobin"},
		Desc: "rotating priority over input ports, starting after the last winner"},
	{Name: "oldest", Aliases: []string{"fcfs", "oldest-first", "age"},
		Desc: "the packet generated first (FCFS)"},
	{Name: "upper-first", Aliases: []string{"upper-channel-first", "lowest-port", "ucf"},
		Desc: "the lowest-numbered input port (Chiang's upper channel first)"},
	{Name: "source", Aliases: []string{"source-priority", "fixed"},
		Desc: "the packet from the lowest-numbered source (predefined priority)"},
	{Name: "clock", Aliases: []string{"clock-rotating"},
		Desc: "clock rotating: the packet that started first, then the lowest source"},
	{Name: "grab", Aliases: []string{"non-atomic"},
		Desc: "non-atomic: each port decided on its own, favouring the straight-through input (Chiang's Fig 4.6 hazard)"},
}

// RegisterArbiter adds an arbiter ranked by its Compare function and
// returns its Policy. It panics on a malformed or duplicate declaration (a
// programming error, found when the program starts).
func RegisterArbiter(a Arbiter) Policy {
	if a.Compare == nil {
		panic("xbar.RegisterArbiter(" + a.Name + "): want a Compare function")
	}
	for _, n := range append([]string{a.Name}, a.Aliases...) {
		if _, err := ParsePolicy(n); err == nil || n == "" {
			panic(fmt.Sprintf("xbar: arbiter name %q empty or registered twice", n))
		}
	}
	a.Aliases = slices.Clone(a.Aliases)
	arbiters = append(arbiters, a)
	return Policy(len(arbiters) - 1)
}

// Arbiters lists the registered arbiters; element i is Policy(i).
func Arbiters() []Arbiter { return slices.Clone(arbiters) }
