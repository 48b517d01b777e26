// Package link models the wires between switches and between a switch and a
// terminal: their latency, how many flits they have carried, and the
// switching mode (how much of a packet a switch must hold before forwarding).
package link

import (
	"fmt"
	"strings"
)

// Mode is the switching discipline of a network.
type Mode uint8

const (
	// Wormhole forwards each flit as soon as the next buffer has a free slot;
	// a blocked worm stays spread over several switches.
	Wormhole Mode = iota
	// VCT (virtual cut-through) forwards the head only when the next buffer
	// can take the whole packet, so a blocked packet collapses into one buffer.
	VCT
	// SAF (store-and-forward) forwards the head only after the tail has
	// arrived in the same buffer.
	SAF
)

var modeNames = []string{"wormhole", "vct", "saf"}

var modeDescs = []string{
	"each flit moves on as soon as the next buffer has a slot; a blocked worm spans several switches",
	"virtual cut-through: a head moves only when the next buffer can take the whole packet",
	"store-and-forward: a head moves only when its tail is in the same buffer",
}

// Describe says what a mode waits for.
func (m Mode) Describe() string { return modeDescs[m] }

func (m Mode) String() string { return modeNames[m] }

// ModeNames lists the accepted spellings, for help texts and errors.
func ModeNames() []string { return append([]string(nil), modeNames...) }

// Modes lists the switching modes, in the order of ModeNames (tests
// iterate over it).
func Modes() []Mode {
	m := make([]Mode, len(modeNames))
	for i := range m {
		m[i] = Mode(i)
	}
	return m
}

// ParseMode reads a mode name.
func ParseMode(s string) (Mode, error) {
	switch strings.ToLower(s) {
	case "wormhole", "wh":
		return Wormhole, nil
	case "vct", "virtual-cut-through", "cut-through":
		return VCT, nil
	case "saf", "store-and-forward":
		return SAF, nil
	}
	return 0, fmt.Errorf("unknown switching mode %q (allowed: wormhole, vct, saf)", s)
}

// Link is one unidirectional channel. A flit that leaves the upstream buffer
// in cycle t may leave the downstream buffer from cycle t+Latency on; its slot
// there is reserved from cycle t (credit flow control reserves at departure),
// so a link never drops a flit. A link carries at most one flit per cycle.
type Link struct {
	Flits   uint64 // flits carried since the last Reset
	Latency int32
	// last is 1 + the cycle of the last flit, modulo 2^32, to check one
	// flit per cycle (a false alarm would need a link idle for exactly 2^32
	// cycles; why 32 bits: network/kernel/speed.md).
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
