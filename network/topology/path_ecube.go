package topology

import (
	"math/bits"

	"github.com/flitsim/flitsim/flit"
)

// Path of e-cube routing (PathRouter): the differing dimensions in the
// router's order (increasing, or as topology.order says), or for
// ecube-random descending cyclically from the packet's start dimension,
// then the terminal port (d).
func (r *ecubeRouter) Path(sw, _ int, w *flit.Worm, out []uint8) []uint8 {
	diff := uint64(sw ^ int(w.Dst))
	switch {
	case r.random:
		j := w.Aux
		if j >= uint64(r.d) {
			j %= uint64(r.d) // (not Init's: as Route)
		}
		below := uint64(1)<<(j+1) - 1 // the start dimension and those under it, first
		out = appendDescending(out, diff&below)
		out = appendDescending(out, diff&^below)
	case r.ident:
		for x := diff; x != 0; x &= x - 1 {
			out = append(out, uint8(bits.TrailingZeros64(x)))
		}
	default:
		for _, j := range r.order {
			if diff>>uint(j)&1 != 0 {
				out = append(out, uint8(j))
			}
		}
	}
	return append(out, uint8(r.d))
}

// appendDescending appends the positions of x's set bits, highest first.
func appendDescending(out []uint8, x uint64) []uint8 {
	for ; x != 0; x &^= 1 << uint(63-bits.LeadingZeros64(x)) {
		out = append(out, uint8(63-bits.LeadingZeros64(x)))
	}
	return out
}
