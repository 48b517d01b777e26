// Package link models the wires between switches and between a switch and a
// terminal: their latency and how many flits they have carried. (How much of
// a packet a switch holds before forwarding, the switching mode, is the
// switch's rule: package xbar, switch/mode.go.)
package link

// Link is one unidirectional channel. A flit that leaves the upstream buffer
// in cycle t may leave the downstream buffer from cycle t+Latency on; its slot
// there is reserved from cycle t (credit flow control reserves at departure),
// so a link never drops a flit. A link carries at most one flit per cycle.
type Link struct {
	Flits   uint64 // flits carried since the last Reset
	Latency int32
	// last is 1 + the cycle of the last flit, modulo 2^32, to check one
	// flit per cycle (a false alarm would need a link idle for exactly 2^32
	// cycles; why 32 bits: internal/kernel/speed.md).
	last uint32
}

// New returns a link with the given latency (at least one cycle).
func New(latency int) Link { return Link{Latency: int32(latency)} }

// Carry records one flit crossing in cycle now. It reports false if the link
// already carried a flit in that cycle (an invariant violation).
func (l *Link) Carry(now int64) bool {
	c := uint32(now) + 1
	ok := l.last != c
	l.last = c
	l.Flits++
	return ok
}

// Reset clears the flit counter (at the start of a measurement window).
func (l *Link) Reset() { l.Flits = 0 }

// Restart clears the flit counter and the one-per-cycle check, for a run
// whose cycles count from 0 again.
func (l *Link) Restart() { l.Flits, l.last = 0, 0 }
