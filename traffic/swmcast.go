package traffic

import (
	"fmt"
	"slices"
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"
)

// Software (unicast-based) multicast (Chiang 1995 Ch. 7 and §8.3, digest
// notes/seeds/001 §4.6). A multicast is a tree of unicasts: a node that has
// received the whole message forwards it, by further unicasts, to the nodes
// it is responsible for. Nodes are one-port: a node sends its unicasts one
// after the other. The schedules below are in the unit-time model of the
// thesis: every unicast takes one step, a node that received the message in
// step t sends its first unicast in step t+1, its second in step t+2, and
// so on; the source sends its first in step 1.

// Scheme is how a multicast is carried: by the hardware (one replicating
// worm) or by one of the software schemes.
type Scheme uint8

const (
	// Hardware multicast: one multi-head worm replicated by the switches.
	Hardware Scheme = iota
	// Separate addressing: the source sends one unicast to every
	// destination, in ascending order.
	Separate
	// UMin (Xu, Gui and Ni; Chiang §8.3): split the sorted chain into a
	// lower half one node smaller than the upper when the size is odd, send
	// to the closest node of the other half, recurse on both halves.
	UMin
	// CMin (Chiang Fig 7.3): split the sorted chain into halves and send to
	// the node at the corresponding position of the other half, recurse on
	// both halves.
	CMin
)

var schemeNames = []string{"hardware", "separate", "umin", "cmin"}

func (s Scheme) String() string { return schemeNames[s] }

// Software reports whether s is a software (unicast-based) scheme.
func (s Scheme) Software() bool { return s != Hardware }

// SchemeNames lists the canonical scheme names.
func SchemeNames() []string { return slices.Clone(schemeNames) }

// ParseScheme reads a multicast scheme name: hardware (alias hw), separate
// (sa, separate-addressing), umin (u-min) or cmin (c-min).
func ParseScheme(name string) (Scheme, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "", "hardware", "hw":
		return Hardware, nil
	case "separate", "sa", "separate-addressing":
		return Separate, nil
	case "umin", "u-min":
		return UMin, nil
	case "cmin", "c-min":
		return CMin, nil
	}
	return 0, &inputerr.Error{Key: "multicast.scheme", Value: name, Allowed: "hardware, separate, umin, cmin"}
}

// Send is one unicast of a software multicast: in step Step (from 1) node
// From sends the whole message to node To.
type Send struct{ Step, From, To int }

func (s Send) String() string { return fmt.Sprintf("%d:%d→%d", s.Step, s.From, s.To) }

// Schedule returns the unicasts of a software multicast from src to dests
// (duplicates and src itself are dropped), sorted by step, and within a
// step in depth-first order of the multicast tree. The source's step-1
// unicast comes first, and each node's unicasts, in slice order, are the
// order in which it sends them. It panics for Hardware.
//
// C-min is defined by the thesis for chains whose length is a power of two
// (cubes). For other lengths this implementation keeps the thesis's split
// (lower half ⌊len/2⌋ nodes) and, when the source is in the larger upper
// half at a position with no counterpart, sends to the last node of the
// lower half: t = ℓ + min(s − c, c − ℓ − 1). That extension is ours, not
// the thesis's; on cubes it is exactly Fig 7.3.
func Schedule(scheme Scheme, src int, dests []int) []Send {
	chain := Chain(src, dests)
	s := slices.Index(chain, src)
	var out []Send
	switch scheme {
	case Separate:
		for _, d := range chain {
			if d != src {
				out = append(out, Send{Step: len(out) + 1, From: src, To: d})
			}
		}
		return out
	case UMin:
		umin(&out, chain, s, 0)
	case CMin:
		cmin(&out, chain, s, 0)
	default:
		panic("traffic: Schedule of a hardware multicast")
	}
	slices.SortStableFunc(out, func(a, b Send) int { return a.Step - b.Step })
	return out
}

// Chain is the lexicographically ordered chain of the source and the
// destinations (ascending addresses, no duplicates).
func Chain(src int, dests []int) []int {
	chain := make([]int, 0, len(dests)+1)
	chain = append(chain, src)
	chain = append(chain, dests...)
	slices.Sort(chain)
	return slices.Compact(chain)
}

// cmin is Fig 7.3 run by chain[s], which received the message in step
// step, on its address field chain.
func cmin(out *[]Send, chain []int, s, step int) {
	l, r := 0, len(chain)-1
	for l < r {
		c := (l + r + 1) / 2
		var d []int
		var t int
		if s < c { // send to the upper cube
			t = c + (s - l) // = s + (r−ℓ+1)/2
			d = chain[c : r+1]
			r = c - 1
		} else { // send to the lower cube
			t = l + min(s-c, c-l-1) // = s − (r−ℓ+1)/2 on cubes
			d = chain[l:c]
			l = c
		}
		step++
		*out = append(*out, Send{Step: step, From: chain[s], To: chain[t]})
		cmin(out, d, slices.Index(d, chain[t]), step)
	}
}

// umin is U-min run by chain[s], which received the message in step step,
// on its address field chain: the lower half has ⌊len/2⌋ nodes, and the
// sender sends to the node of the other half closest to it.
func umin(out *[]Send, chain []int, s, step int) {
	for len(chain) > 1 {
		h := len(chain) / 2
		from := chain[s]
		var to, ti int
		var d []int
		if s < h {
			d, to, ti = chain[h:], chain[h], 0
			chain = chain[:h]
		} else {
			d, to, ti = chain[:h], chain[h-1], h-1
			chain = chain[h:]
			s -= h
		}
		step++
		*out = append(*out, Send{Step: step, From: from, To: to})
		umin(out, d, ti, step)
	}
}
