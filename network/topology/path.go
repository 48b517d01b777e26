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
	// Up to 16 dimensions the ones not yet placed are a list of nibbles in
	// one word, in increasing order: picking and removing one is a shift.
	if r.d > 16 {
		return r.pathWide(diff, w.Aux, out)
	}
	var list uint64
	for i := r.d - 1; i >= 0; i-- {
		list = list<<4 | uint64(i)
	}
	rank := w.Aux
	for m := uint64(r.d); m > 0 && diff != 0; m-- {
		idx := rank % m // (the compiler divides once for both)
		rank /= m
		sh := 4 * idx
		dim := list >> sh & 15
		list = list&(1<<sh-1) | list>>(sh+4)<<sh
		if diff>>dim&1 != 0 {
			out = append(out, uint8(dim))
			diff &^= 1 << dim
		}
	}
	return append(out, uint8(r.d))
}

// pathWide is Path's decoding for more than 16 dimensions.
func (r *cubeOrderRouter) pathWide(diff, rank uint64, out []uint8) []uint8 {
	avail := uint64(1)<<uint(r.d) - 1
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

// StatefulPathRouter is a StatefulRouter that can give a packet's whole
// path in one call: PathHead appends what RouteHead would give at each
// switch from sw (entered on in) to the ejection port, advancing st as the
// calls of RouteHead would. It reports false (and changes nothing) when it
// cannot, and the caller traces the path hop by hop.
type StatefulPathRouter interface {
	StatefulRouter
	PathHead(sw, in int, w *flit.Worm, st *flit.RouteState, out []uint8) ([]uint8, bool)
}

// PathHead of the d-shuffle's standard route: the destination's digits
// not yet shifted in, most significant first, then the terminal port (d).
// (The shortest route depends on the switch: traced hop by hop.)
func (r *dshuffleRouter) PathHead(_, _ int, w *flit.Worm, st *flit.RouteState, out []uint8) ([]uint8, bool) {
	if r.shortest {
		return out, false
	}
	if k := int(st.Count); k < r.n {
		// The low n−k digits, filled in from the least significant (one
		// division a digit).
		x, at := uint(int(w.Dst)%r.pow[r.n-k]), len(out)
		out = append(out, make([]uint8, r.n-k)...)
		for j := len(out) - 1; j >= at; j-- {
			out[j] = uint8(x % uint(r.d))
			x /= uint(r.d)
		}
		st.Count = uint16(r.n)
	}
	return append(out, uint8(r.d)), true
}
