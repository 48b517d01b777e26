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
	rank := w.Aux
	if rank >= r.perms {
		rank %= r.perms // (not Init's: the digits depend on rank mod d! alone)
	}
	// (Decoded straight into out's array: room for 32 bytes, at most d ≤ 16
	// dimensions and the terminal port are kept.)
	at := len(out)
	out = slices.Grow(out, 32)
	buf := (*[32]uint8)(out[at : at+32])
	k, list, m := 0, cubeList16, uint64(r.d)
	if r.first2 != nil {
		// The first two digits (base d and d − 1, from the list of all
		// dimensions) at once, from a table.
		q, _ := bits.Mul64(rank, r.recip2)
		e := r.first2[rank-q*uint64(len(r.first2))]
		rank, list, m = q, e&(1<<56-1), m-2
		d1, d2 := e>>56&15, e>>60
		buf[0] = uint8(d1)
		k = int(diff >> d1 & 1)
		buf[k] = uint8(d2)
		k += int(diff >> d2 & 1)
	}
	k = cubeDecode(rank, diff, m, list, k, buf)
	buf[k&31] = uint8(r.d)
	return out[:at+k+1]
}

// cubeDecode writes to buf, after the k written, the dimensions of diff in
// the order of the permutation of the m dimensions in list with rank
// rank < m!, m ≤ 16, and returns how many buf holds. Digit i of the rank
// in base m−i picks among the dimensions not yet placed, which are a list
// of nibbles in one word in increasing order: picking and removing one is
// a shift. A digit is a multiplication by cubeRecip, not a division (a
// 64-bit division was most of a leg's time); the last six come from a
// table (cubeTails), the others are all decoded. Every dimension picked is
// written to buf, the count advancing only when it is one of diff's:
// whether it is is a coin toss, which a jump would mispredict half the
// time. (A function of its own so that Path's slice does not take
// registers from the loop.)
func cubeDecode(rank, diff, m, list uint64, k int, buf *[32]uint8) int {
	want := bits.OnesCount64(diff)
	// Every digit above the table's, whether or not diff's dimensions are
	// all placed: the loop's count is then fixed for a d, and its end no
	// coin toss (it was 1.6 mispredicted jumps a leg).
	for ; m >= uint64(len(cubeTails)); m-- {
		q, _ := bits.Mul64(rank, cubeRecip[m&31])
		sh := (rank - q*m) * 4 & 63
		rank = q
		t := list >> sh // (the picked dimension, then the ones above it)
		buf[k&31] = uint8(t & 15)
		k += int(diff >> (t & 15) & 1)
		list = list&(1<<sh-1) | t>>4<<sh
	}
	perm := cubeTails[m&7][rank] // (the last digits at once: rank < m!)
	for ; k < want; perm >>= 4 {
		t := list >> (perm & 15 * 4) & 15
		buf[k&31] = uint8(t)
		k += int(diff >> t & 1)
	}
	return k
}

// cubeTails[m] (m ≤ 6), for each rank < m!, is the order in which the
// rank's m digits pick from a list of m: the places picked, as nibbles,
// the first lowest. cubeDecode takes the last digits from it, each then a
// shift rather than a multiplication and a removal from the list (the
// decoding ends near the last places: 2.9 KB for m = 6).
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

// cubeFirst2 is the table of the first two digits of the d-cube's ranks
// (d ≥ 2): for rank mod d(d−1), the list of the dimensions left (as in
// cubeDecode) in the low 56 bits, the two dimensions picked in the top two
// nibbles.
func cubeFirst2(d uint64) []uint64 {
	t := make([]uint64, d*(d-1))
	for c := range t {
		list, e := cubeList16, uint64(0)
		for i, idx := range []uint64{uint64(c) % d, uint64(c) / d} {
			sh := 4 * idx
			e |= list >> sh & 15 << (56 + 4*i)
			list = list&(1<<sh-1) | list>>(sh+4)<<sh
		}
		t[c] = e | list
	}
	return t
}

// cubeList16 is the dimensions 0…15 as nibbles, 0 lowest: Path's list of
// the dimensions not yet placed, for any d ≤ 16 (a permutation of d
// dimensions picks only among the first m at the digit of base m).
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

// pathWide is Path's decoding for more than 16 dimensions.
func (r *cubeOrderRouter) pathWide(diff, rank uint64, out []uint8) []uint8 {
	if rank >= r.perms {
		rank %= r.perms // (as Path)
	}
	avail := uint64(1)<<uint(r.d) - 1
	for m := uint64(r.d); m > 0 && diff != 0; m-- {
		var idx uint64
		rank, idx = cubeDigit(rank, m)
		dim := selectBit(avail, int(idx))
		avail &^= 1 << uint(dim)
		if diff>>uint(dim)&1 != 0 {
			out = append(out, uint8(dim))
			diff &^= 1 << uint(dim)
		}
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
