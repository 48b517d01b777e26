package xbar

import (
	"fmt"
	"strings"
)

// Mode is the switching discipline of a network: how much of a packet a
// switch must hold, or have room for, before it forwards the head.
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

// HeadRoom is the number of free slots every destination buffer must offer
// a packet's head flit before it moves: the whole packet (packetLen flits)
// under virtual cut-through, one slot otherwise. Body and tail flits need one
// slot under every mode.
func (m Mode) HeadRoom(packetLen int) int {
	if m == VCT {
		return packetLen
	}
	return 1
}

// HeadWaitsForTail reports whether a head may leave a buffer only once its
// packet's tail is in the same buffer (store-and-forward).
func (m Mode) HeadWaitsForTail() bool { return m == SAF }
