package xbar

import (
	"fmt"
	"slices"
	"strings"
)

// Policy orders competing requests for the same output port.
type Policy uint8

const (
	// RoundRobin rotates priority over input ports, per output port, starting
	// after the last winner.
	RoundRobin Policy = iota
	// Oldest grants the packet generated first (FCFS); ties go to the older
	// worm.
	Oldest
	// UpperFirst grants the lowest-numbered input port ("upper channel first"
	// in Chiang's MIN drawings, where port 0 is on top).
	UpperFirst
	// SourcePriority grants the packet from the lowest-numbered source (a
	// predefined priority by source).
	SourcePriority
	// Clock is Chiang's clock-rotating priority: the packet that started
	// first, then the lowest source; deadlock- and starvation-free for
	// synchronous multicast worms.
	Clock
	// Grab is deliberately non-atomic: each free port is decided on its own
	// (favouring the straight-through input), so a multicast head may hold
	// part of its ports while waiting for the rest (the hazard of Chiang's
	// Fig 4.6).
	Grab
)

func (p Policy) String() string { return arbiters[p].Name }

// Describe says what a policy grants first.
func (p Policy) Describe() string { return arbiters[p].Desc }

// PolicyNames lists the registered arbiters' names, in registration order.
func PolicyNames() []string {
	s := make([]string, len(arbiters))
	for i, a := range arbiters {
		s[i] = a.Name
	}
	return s
}

// Policies lists the registered arbiters' policies, in registration order
// (tests iterate over it).
func Policies() []Policy {
	s := make([]Policy, len(arbiters))
	for i := range arbiters {
		s[i] = Policy(i)
	}
	return s
}

// ParsePolicy reads an arbiter's name or one of its aliases
// (case-insensitive).
func ParsePolicy(s string) (Policy, error) {
	n := strings.ToLower(s)
	for i, a := range arbiters {
		if n == a.Name || slices.Contains(a.Aliases, n) {
			return Policy(i), nil
		}
	}
	return 0, fmt.Errorf("unknown arbiter %q (allowed: %s)", s, strings.Join(PolicyNames(), ", "))
}

// Request is one head flit asking switch ports for its worm.
type Request struct {
	In   int32   // input port the head arrives on
	Want PortSet // every output port it needs (all or nothing)
	Worm int32   // worm pool index
	Age  int64   // generation cycle, for Oldest
	Src  int32   // source terminal, for SourcePriority
	ID   uint64  // worm serial, the final tie-break
	Buf  int32   // the caller's handle for the requester (opaque here)
}
