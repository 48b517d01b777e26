// Package xbar models a k×k crossbar switch: the set of output ports a head
// flit asks for, the worm that holds each output port, and the arbiter that
// decides which requests win. (The folder is switch/, a Go keyword, so the
// package is named xbar.)
package xbar

import "math/bits"

// MaxPorts is the largest switch radix a PortSet can describe.
const MaxPorts = 64

// PortSet is a set of output ports of one switch, one bit per port. A routing
// unit returns a set, not a port, so replication (multicast) needs no
// redesign: a unicast route is a set of one.
type PortSet uint64

// Port returns the set holding only port p.
func Port(p int) PortSet { return PortSet(1) << uint(p) }

// Has reports whether p is in the set.
func (s PortSet) Has(p int) bool { return s&(PortSet(1)<<uint(p)) != 0 }

// Count is the number of ports in the set.
func (s PortSet) Count() int { return bits.OnesCount64(uint64(s)) }

// First is the lowest port in the set, or -1 if it is empty.
func (s PortSet) First() int {
	if s == 0 {
		return -1
	}
	return bits.TrailingZeros64(uint64(s))
}

// Next removes and returns the lowest port; use it to walk a set without
// allocating: for s := set; s != 0; { p := s.Next(); ... }.
func (s *PortSet) Next() int {
	p := bits.TrailingZeros64(uint64(*s))
	*s &= *s - 1
	return p
}
