package xbar

import (
	"fmt"
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

var policyNames = []string{"round-robin", "oldest", "upper-first", "source", "clock", "grab"}

func (p Policy) String() string { return policyNames[p] }

var policyDescs = []string{
	"rotating priority over input ports, starting after the last winner",
	"the packet generated first (FCFS)",
	"the lowest-numbered input port (Chiang's upper channel first)",
	"the packet from the lowest-numbered source (predefined priority)",
	"clock rotating: the packet that started first, then the lowest source",
	"non-atomic: each port decided on its own, favouring the straight-through input (Chiang's Fig 4.6 hazard)",
}

// Describe says what a policy grants first.
func (p Policy) Describe() string { return policyDescs[p] }

// PolicyNames lists the accepted policy names.
func PolicyNames() []string { return append([]string(nil), policyNames...) }

// ParsePolicy reads a policy name (a few common aliases are accepted).
func ParsePolicy(s string) (Policy, error) {
	switch strings.ToLower(s) {
	case "round-robin", "rr", "roundrobin":
		return RoundRobin, nil
	case "oldest", "fcfs", "oldest-first", "age":
		return Oldest, nil
	case "upper-first", "upper-channel-first", "lowest-port", "ucf":
		return UpperFirst, nil
	case "source", "source-priority", "fixed":
		return SourcePriority, nil
	case "clock", "clock-rotating":
		return Clock, nil
	case "grab", "non-atomic":
		return Grab, nil
	}
	return 0, fmt.Errorf("unknown arbiter %q (allowed: %s)", s, strings.Join(policyNames, ", "))
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
