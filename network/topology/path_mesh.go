package topology

import (
	"math/bits"

	"github.com/flitsim/flitsim/flit"
)

// Whole-leg paths on the mesh and torus (PathRouter), for the
// packet-switched router. Along a minimal route each dimension keeps its
// direction (on a torus the shorter way stays the shorter way, a tie
// becomes a strict preference after one move), so a leg is, per
// dimension, a port and a number of moves.

// Path of dimension order: each dimension's moves in turn, then the
// terminal port (2n).
func (r *dorRouter) Path(sw, _ int, w *flit.Worm, out []uint8) []uint8 {
	dst := int(w.Dst)
	cs, cd := r.coord[sw*r.n:sw*r.n+r.n], r.coord[dst*r.n:dst*r.n+r.n]
	for _, i := range r.order {
		x, d := int(cs[i]), int(cd[i])
		if x == d {
			continue
		}
		up, moves := d > x, abs(d-x)
		if r.torus {
			// As portTo: + within half the ring ahead, a tie by w.Aux's bit
			// i with tie random.
			k := r.sides[i]
			delta := d - x + k&-b2i(d < x)
			up = 2*delta <= k
			if r.tieRandom && 2*delta == k {
				up = w.Aux>>uint(i)&1 != 0
			}
			moves = k - delta
			if up {
				moves = delta
			}
		}
		p := uint8(2*i + b2i(up))
		for range moves {
			out = append(out, p)
		}
	}
	return append(out, uint8(2*r.n))
}

// Path of the random interleaving: Route's draw at each switch of the leg
// (the same hash of w.Aux and the switch), the moves left counted down
// and the switch advanced by the chosen dimension's stride, instead of
// Route's recount of every dimension's moves at every hop.
func (r *meshOrderRouter) Path(sw, _ int, w *flit.Worm, out []uint8) []uint8 {
	var left [maxMeshDims]int
	var port [maxMeshDims]uint8
	var at [maxMeshDims]int32 // the switch's coordinates
	dst := int(w.Dst)
	copy(at[:r.n], r.coord[sw*r.n:sw*r.n+r.n])
	cd := r.coord[dst*r.n : dst*r.n+r.n]
	total := 0
	for i := range r.n {
		m, p := r.moves(int(at[i]), int(cd[i]), i, w.Aux)
		left[i], port[i] = m, uint8(p)
		total += m
	}
	for ; total > 0; total-- {
		u, _ := bits.Mul64(mix64(w.Aux^uint64(sw)*0x9e3779b97f4a7c15), uint64(total))
		i := 0
		for u >= uint64(left[i]) {
			u -= uint64(left[i])
			i++
		}
		out = append(out, port[i])
		left[i]--
		sw = r.step(sw, i, port[i]&1 != 0, &at[i])
	}
	return append(out, uint8(2*r.n))
}

// step is the switch one move from sw in dimension i (+ when up), whose
// coordinate i is *x, updated (a torus wraps round).
func (r *meshOrderRouter) step(sw, i int, up bool, x *int32) int {
	k, s := int32(r.sides[i]), r.stride[i]
	switch {
	case up && *x == k-1:
		*x = 0
		return sw - int(k-1)*s
	case up:
		*x++
		return sw + s
	case *x == 0:
		*x = k - 1
		return sw + int(k-1)*s
	}
	*x--
	return sw - s
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
