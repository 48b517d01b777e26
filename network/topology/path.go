package topology

import (
	"math/bits"
	"slices"

	"github.com/flitsim/flitsim/flit"
)

// PathRouter is a Router that gives a packet's whole path in one call: the
// output port Route would give at each switch, from switch sw (entered on
// port in) to the port that ejects at w.Dst, appended to out in order. It
// must equal the trace of Route hop by hop (a test checks each one); the
// packet-switched router traces every leg at its source and, for routers
// like the cube's random order that decode a per-packet draw at every hop,
// one call costs what one hop did.
type PathRouter interface {
	Router
	Path(sw, in int, w *flit.Worm, out []uint8) []uint8
}

// Path of the random-order and semi-strict cube: the differing dimensions
// in the packet's order, then the terminal port (d).
func (r *cubeOrderRouter) Path(sw, _ int, w *flit.Worm, out []uint8) []uint8 {
	diff := uint64(sw ^ int(w.Dst))
	switch {
	case r.semi:
		return r.semiPath(diff, w.Aux, out)
	case r.d > 16:
		return r.pathWide(diff, w.Aux, out)
	}
	// diff's dimensions as nibbles, the lowest first, and how many, from a
	// table per byte (a loop over the bits was a quarter of a leg).
	c0, c1 := cubeBytes[diff&255], cubeBytes[256+diff>>8&255]
	list := c0&(1<<32-1) | c1&(1<<32-1)<<(c0>>56*4)
	m := c0>>56 + c1>>56
	// (Decoded straight into out's array: room for 32 bytes, at most d ≤ 16
	// dimensions and the terminal port are kept.)
	at := len(out)
	out = slices.Grow(out, 32)
	buf := (*[32]uint8)(out[at : at+32])
	cubeDecode(r.lead(w.Aux, int(m)), m, list, buf)
	buf[m&31] = uint8(r.d)
	return out[:at+int(m)+1]
}

// cubeDecode writes to buf the m dimensions in list (nibbles) in the order
// that the m digits of t < m! pick them: digit i, of base m−i, counted
// from t's low end, picks among the dimensions not yet placed, in
// increasing order (the rule of direct_hypercube_order.go, once lead has
// dropped the digits of the places above m). The dimensions left are a
// list of nibbles in one word: picking and removing one is a shift. A
// digit is a multiplication by cubeRecip, not a division (a 64-bit
// division was most of a leg's time); the last six come from a table
// (cubeTails), written as six bytes whatever m is (the loop's end was a
// coin toss; Path writes the terminal port over what is past m). (A
// function of its own so that Path's slice does not take registers from
// the loop.)
func cubeDecode(t, m, list uint64, buf *[32]uint8) {
	k := 0
	for ; m >= uint64(len(cubeTails)); m-- {
		q, _ := bits.Mul64(t, cubeRecip[m&31])
		sh := (t - q*m) * 4 & 63
		t = q
		x := list >> sh // (the picked dimension, then the ones above it)
		buf[k&15] = uint8(x & 15)
		k++
		list = list&(1<<sh-1) | x>>4<<sh
	}
	perm := cubeTails[m&7][t]            // (the last digits at once: t < m!)
	b := (*[6]uint8)(buf[k&15 : k&15+6]) // (written out: Go does not unroll, and a shift by 4i takes a register)
	b[0] = uint8(list >> (perm & 15 * 4) & 15)
	b[1] = uint8(list >> (perm >> 4 & 15 * 4) & 15)
	b[2] = uint8(list >> (perm >> 8 & 15 * 4) & 15)
	b[3] = uint8(list >> (perm >> 12 & 15 * 4) & 15)
	b[4] = uint8(list >> (perm >> 16 & 15 * 4) & 15)
	b[5] = uint8(list >> (perm >> 20 & 15 * 4) & 15)
}

// cubeBytes[256h+b] lists the set bits of b, each plus 8h, as nibbles, the
// lowest first, with their count in the top byte (Path's list of a leg's
// dimensions, d ≤ 16).
var cubeBytes = func() (t [512]uint64) {
	for i := range t {
		h, b := uint64(i/256), uint64(i%256)
		n := uint64(0)
		for x := b; x != 0; x &= x - 1 {
			t[i] |= (8*h + uint64(bits.TrailingZeros64(x))) << (4 * n)
			n++
		}
		t[i] |= n << 56
	}
	return
}()

// cubeTails[m] (m ≤ 6), for each t < m!, is the order in which t's m
// digits pick from a list of m: the places picked, as nibbles, the first
// lowest. cubeDecode takes the last digits from it, each then a shift
// rather than a multiplication and a removal from the list (2.9 KB for
// m = 6).
var cubeTails = func() (t [7][]uint32) {
	f := 1
	for m := range len(t) {
		f *= max(m, 1) // m!
		t[m] = make([]uint32, f)
		for rank := range t[m] {
			list, r, e := cubeList16, uint64(rank), uint32(0)
			for i := range m {
				base := uint64(m - i)
				sh := r % base * 4
				r /= base
				e |= uint32(list>>sh&15) << (4 * i)
				list = list&(1<<sh-1) | list>>(sh+4)<<sh
			}
			t[m][rank] = e
		}
	}
	return
}()

// cubeList16 is the places 0…15 as nibbles, 0 lowest (cubeTails' list).
const cubeList16 uint64 = 0xfedcba9876543210

// cubeRecip[m] = ⌈2^64/m⌉ for 2 ≤ m ≤ 19, 0 for m = 1: the high word of
// x·cubeRecip[m] is ⌊x/m⌋ for every x < 2^64/m. (With x = qm + s, s < m,
// and e = m·cubeRecip[m] − 2^64 < m, x·cubeRecip[m]/2^64 = q + (s +
// x·e/2^64)/m, and x·e < 2^64 keeps the fraction below 1.) A rank at the
// digit of base m is below m! and m!·m < 2^64 for m ≤ 19; m = 1 comes
// with rank 0. TestCubeRecip checks the bound's edges.
var cubeRecip = func() (t [32]uint64) {
	for m := uint64(2); m <= 19; m++ {
		t[m] = ^uint64(0)/m + 1
	}
	return
}()

// cubeDigit splits rank < m! into the digit of base m and the rest: by
// cubeRecip up to m = 19, by a division for m = 20 (rank < 20! but
// 20!·20 > 2^64).
func cubeDigit(rank, m uint64) (rest, idx uint64) {
	if m <= 19 {
		rest, _ = bits.Mul64(rank, cubeRecip[m])
	} else {
		rest = rank / m
	}
	return rest, rank - rest*m
}

// semiPath is Path of the semi-strict order: diff's dimensions from the
// start dimension up, then from 0 up to it.
func (r *cubeOrderRouter) semiPath(diff, aux uint64, out []uint8) []uint8 {
	st := aux
	if st >= uint64(r.d) {
		st %= uint64(r.d) // (not Init's: as Route)
	}
	for x := diff >> st; x != 0; x &= x - 1 {
		out = append(out, uint8(int(st)+bits.TrailingZeros64(x)))
	}
	for x := diff & (1<<st - 1); x != 0; x &= x - 1 {
		out = append(out, uint8(bits.TrailingZeros64(x)))
	}
	return append(out, uint8(r.d))
}

// pathWide is Path for more than 16 dimensions (too many for nibbles):
// the same rule, each pick a bit selection.
func (r *cubeOrderRouter) pathWide(diff, rank uint64, out []uint8) []uint8 {
	m := uint64(bits.OnesCount64(diff))
	t := r.lead(rank, int(m))
	for ; m > 0; m-- {
		var c uint64
		t, c = cubeDigit(t, m)
		dim := selectBit(diff, int(c))
		out = append(out, uint8(dim))
		diff &^= 1 << uint(dim)
	}
	return append(out, uint8(r.d))
}

// StatefulPathRouter is a StatefulRouter that can give a packet's whole
// path in one call: PathHead appends what RouteHead would give at each
// switch from sw (entered on in) to the ejection port, advancing st as the
// calls of RouteHead would. It reports false (and changes nothing) when it
// cannot, and the caller traces the path hop by hop.
type StatefulPathRouter interface {
	StatefulRouter
	PathHead(sw, in int, w *flit.Worm, st *flit.RouteState, out []uint8) ([]uint8, bool)
}

// PathHead of the d-shuffle: the destination's digits not yet shifted in,
// most significant first, then the terminal port (d). The standard route
// counts the digits shifted in; the shortest starts after the overlap of
// switch and destination, which then grows by one a hop (were it to grow
// by more, it would have been longer a hop before), so the route is the
// same digits and leaves the state alone, as Route does.
func (r *dshuffleRouter) PathHead(sw, _ int, w *flit.Worm, st *flit.RouteState, out []uint8) ([]uint8, bool) {
	k := int(st.Count)
	if r.shortest {
		k = r.overlap(sw, int(w.Dst))
	}
	if k < r.n {
		x := uint64(w.Dst)
		if k > 0 {
			x %= uint64(r.pow[r.n-k]) // (a standard leg starts at k = 0: x is all of Dst)
		}
		at := len(out)
		out = slices.Grow(out, r.n-k+1)[:at+r.n-k]
		r.digits(x, out[at:])
		if !r.shortest {
			st.Count = uint16(r.n)
		}
	}
	return append(out, uint8(r.d)), true
}

// digits writes x < d^n's low len(ds) base-d digits to ds, most
// significant first. A digit is a multiplication by the reciprocal
// ⌈2^64/d⌉ (exact for x < 2^64/d: see cubeRecip), not a division: a leg's
// n divisions were most of PathHead's time.
func (r *dshuffleRouter) digits(x uint64, ds []uint8) {
	d, inv := uint64(r.d), r.rpow[1]
	for i := len(ds) - 1; i >= 0; i-- {
		q, _ := bits.Mul64(x, inv)
		ds[i] = uint8(x - q*d)
		x = q
	}
}
