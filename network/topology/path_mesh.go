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
	var ms [maxMeshDims]meshMoves
	total := r.legMoves(&ms, sw, int(w.Dst), w.Aux)
	for ; total > 0; total-- {
		u, _ := bits.Mul64(mix64(w.Aux^uint64(sw)*0x9e3779b97f4a7c15), uint64(total))
		i := 0
		for u >= uint64(ms[i].left) {
			u -= uint64(ms[i].left)
			i++
		}
		m := &ms[i]
		out = append(out, m.port)
		m.left--
		sw += int(m.step)
		if m.wrapIn--; m.wrapIn == -1 { // (once at most: a minimal route goes round once)
			sw -= r.sides[i] * int(m.step)
		}
	}
	return append(out, uint8(2*r.n))
}

// meshMoves is what a leg still needs in one dimension: the moves left,
// the port that makes them, the change of switch number a move makes, and
// the moves before the one over a torus's wrap-around link (which takes
// the switch number the other way round the ring).
type meshMoves struct {
	left, step, wrapIn int32
	port               uint8
}

// legMoves fills ms for a leg from switch sw to dst and returns the number
// of moves.
func (r *meshOrderRouter) legMoves(ms *[maxMeshDims]meshMoves, sw, dst int, aux uint64) int {
	cs, cd := r.coord[sw*r.n:sw*r.n+r.n], r.coord[dst*r.n:dst*r.n+r.n]
	total := 0
	for i := range min(r.n, maxMeshDims) {
		x, s := int32(cs[i]), int32(r.stride[i])
		left, p := r.moves(int(x), int(cd[i]), i, aux)
		m := &ms[i]
		m.left, m.port = int32(left), uint8(p)
		total += left
		if p&1 != 0 { // up: coordinate k−1 goes round to 0
			m.step, m.wrapIn = s, int32(r.sides[i])-1-x
		} else {
			m.step, m.wrapIn = -s, x
		}
	}
	return total
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
