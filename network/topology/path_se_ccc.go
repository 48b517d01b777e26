package topology

import (
	"slices"

	"github.com/flitsim/flitsim/flit"
)

// Whole-leg paths of the shuffle-exchange and the cube-connected cycles
// (StatefulPathRouter, PathRouter) for the packet-switched router: the
// walk of Route or RouteHead on addresses alone, without a call through
// the Router interface and a look-up of the next switch at every hop.

// PathHead of Brebner's shuffle-exchange route: the first shuffle, then
// at each stage i from n − 1 down to 0 an exchange where destination bit i
// differs and a shuffle unless i = 0, then the terminal port (2). Whether
// a stage exchanges is a coin toss: the exchange is written whether or not
// it is taken, the length advancing only when it is.
func (r *seRouter) PathHead(sw, _ int, w *flit.Worm, st *flit.RouteState, out []uint8) ([]uint8, bool) {
	n, dst, c := r.n, int(w.Dst), int(st.Count)
	if c > n {
		return out, false // (no route counts past n shuffles)
	}
	at := len(out)
	out = slices.Grow(out, 2*n+2)
	buf := out[at : at+2*n+2]
	// (Unsigned shifts by counts masked below 64: no fix-ups for negative
	// or oversized counts.)
	x, d, mask, top := uint(sw), uint(dst), uint(1)<<uint(n)-1, uint(n-1)&63
	k := 0
	if c == 0 {
		buf[0], k, c = 0, 1, 1
		x = x<<1&mask | x>>top
	}
	for i := n - c; ; i-- {
		b := (d>>(uint(i)&63) ^ x) & 1
		buf[k] = 1
		k += int(b)
		x ^= b
		if i == 0 {
			break
		}
		buf[k] = 0
		k++
		x = x<<1&mask | x>>top
		c++
	}
	buf[k] = 2
	st.Count = uint16(c)
	return out[:at+k+1], true
}

// Path of the CCC route: to the destination's cycle (the cube edge where
// position p's bit differs, else forward), then the shorter way round the
// cycle, then the terminal port (3). As in the shuffle-exchange's, a cube
// edge is written whether or not it is taken.
func (r *cccRouter) Path(sw, _ int, w *flit.Worm, out []uint8) []uint8 {
	s := r.s
	c, p := sw/s, sw%s
	c2, p2 := int(w.Dst)/s, int(w.Dst)%s
	at := len(out)
	out = slices.Grow(out, 3*s+2)
	buf := out[at : at+3*s+2] // (at most s cube edges, s − 1 steps forward, s/2 round, 1)
	k := 0
	for diff := uint(c ^ c2); diff != 0; {
		b := diff >> (uint(p) & 63) & 1
		buf[k] = 0
		k += int(b)
		if diff &^= b << (uint(p) & 63); diff == 0 {
			break
		}
		buf[k] = 1
		k++
		if p++; p == s {
			p = 0
		}
	}
	// On the cycle the direction holds: a step the shorter way leaves the
	// rest the shorter way, and breaks a tie.
	f := (p2 - p + s) % s
	port, moves := uint8(2), s-f
	if 2*f < s || 2*f == s && (!r.tieRandom || w.Aux&1 != 0) {
		port, moves = 1, f
	}
	for range moves {
		buf[k] = port
		k++
	}
	buf[k] = 3
	return out[:at+k+1]
}

// PathHead of Upfal's three-pass CCC⁺ route from hop st.Count on: each
// hop straight on or flipping its position's bit (by w.Aux in the two
// random passes, by the destination in the last), then the terminal port
// (2).
func (r *upfalRouter) PathHead(sw, _ int, w *flit.Worm, st *flit.RouteState, out []uint8) ([]uint8, bool) {
	h := int(st.Count)
	u := r.leg(sw, w, h)
	for ; h < u.hops; h++ {
		if u.flip(h, w.Aux) {
			out = append(out, 1)
			u.c ^= 1 << u.p
		} else {
			out = append(out, 0)
		}
		if u.p++; u.p == u.s {
			u.p = 0
		}
	}
	st.Count = uint16(h)
	return append(out, 2), true
}
