package topology

import "github.com/flitsim/flitsim/flit"

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
	if r.semi {
		st := int(w.Aux % uint64(r.d))
		for i := range r.d {
			if dim := (st + i) % r.d; diff>>uint(dim)&1 != 0 {
				out = append(out, uint8(dim))
			}
		}
		return append(out, uint8(r.d))
	}
	// Decode the permutation once (digit i of the rank in base d−i picks
	// among the dimensions not yet placed), keeping the differing ones.
	avail := uint64(1)<<uint(r.d) - 1
	rank := w.Aux
	for m := uint64(r.d); m > 0 && diff != 0; m-- {
		idx := rank % m
		rank /= m
		dim := selectBit(avail, int(idx))
		avail &^= 1 << uint(dim)
		if diff>>uint(dim)&1 != 0 {
			out = append(out, uint8(dim))
			diff &^= 1 << uint(dim)
		}
	}
	return append(out, uint8(r.d))
}
