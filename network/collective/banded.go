package collective

import (
	"fmt"
	"math/bits"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/internal/kernel"
)

// bandLayout is the Binary-Gray assignment of a banded N×N matrix
// (digest 000a §4.7): column c = c_2·2^β + c_1 lives at node
// p(c) = c_1 G_{c_2}, c_1 on the high β bits (dimensions d−β..d−1) and the
// reflected Gray word G_{c_2} on the low d−β bits. Transposing sends
// a_{c,j} from p(c) to p(j) for the 2^{β+1} band columns j ≠ c (cyclic
// |c−j| ≤ 2^β); the diagonal element stays.
type bandLayout struct {
	d, beta, lo int // lo = d−β: the Gray bits
	// rot rotates every label left by rot bits (⌊d/β⌋ transpositions:
	// matrix j lives at L_{jβ}(p(c)), digest §4.9); 0 for one matrix.
	rot int
}

func gray(k int) int { return k ^ k>>1 }

func grayInv(g int) int {
	k := 0
	for ; g != 0; g >>= 1 {
		k ^= g
	}
	return k
}

// node is p(c) (rotated by rot).
func (b bandLayout) node(c int) int {
	c1, c2 := c&(1<<b.beta-1), c>>b.beta
	return rotL(c1<<b.lo|gray(c2), b.rot, b.d)
}

// column is the column stored at node p (the inverse of node).
func (b bandLayout) column(p int) int {
	p = rotR(p, b.rot, b.d)
	return grayInv(p&(1<<b.lo-1))<<b.beta | p>>b.lo
}

// band is the columns j ≠ c whose element a_{c,j} column c sends: in
// Gray-order, the predecessor column's x ∈ [c_1, 2^β), the own column's
// x ≠ c_1, the successor's x ∈ [0, c_1] (Eq. 2.3).
func (b bandLayout) band(c int) []int {
	n := 1 << b.d
	var out []int
	for off := -(1 << b.beta); off <= 1<<b.beta; off++ {
		if off != 0 {
			out = append(out, ((c+off)%n+n)%n)
		}
	}
	return out
}

// grayDims are node p's links to the predecessor and successor Gray
// columns (unrotated label p).
func (b bandLayout) grayDims(p int) (pred, succ int) {
	r := 1 << b.lo
	g := p & (r - 1)
	c2 := grayInv(g)
	return bits.TrailingZeros(uint(g ^ gray((c2+r-1)%r))), bits.TrailingZeros(uint(g ^ gray((c2+1)%r)))
}

// bandedSched carries out the transposition by the digest's explicit
// construction (§4.7 (a), (b)): in step k < 2^β−1 every node sends its
// upper-half packet with β-tag τ_k over the Gray link it is due on (to
// the predecessor when x > c_1), in step 2^β−1 its two zero-β-tag packets;
// meanwhile every node applies the same β-schedule to its row slots (the
// A-rows from the start, the B-row τ_k from step k+1). Every node's task
// matrix stays identical, so the schedule is symmetric and takes 2^β.
type bandedSched struct {
	c     *cube
	lay   bandLayout
	steps [][]rowStep
	rowOf [][]int32 // per step × β-dimension: the row slot, or −1
	final []int32   // per row slot: the step of its last hop
	nrow  int
	rows  []int32   // per node × row slot: the packet, or −1
	up    [][]int32 // per node: the upper-half packets by τ index, then the two zero ones
	upDim [][]int8  // per node: the Gray dimension of each
	ck    *checker
}

func newBandedSched(c *cube, lay bandLayout, ck *checker) (*bandedSched, error) {
	steps := bandSchedule(lay.beta)
	if steps == nil {
		return nil, fmt.Errorf("banded: no symmetric β-schedule found for β = %d", lay.beta)
	}
	rows := bandRows(lay.beta)
	s := &bandedSched{c: c, lay: lay, steps: steps, nrow: len(rows), ck: ck}
	s.final = make([]int32, len(rows))
	s.rowOf = make([][]int32, len(steps))
	for t, st := range steps {
		s.rowOf[t] = make([]int32, lay.beta)
		for j := range s.rowOf[t] {
			s.rowOf[t][j] = -1
		}
		for _, e := range st {
			s.rowOf[t][e.Dim] = e.Row
			s.final[e.Row] = int32(t)
		}
	}
	s.rows = make([]int32, c.n*s.nrow)
	for i := range s.rows {
		s.rows[i] = -1
	}
	s.up, s.upDim = make([][]int32, c.n), make([][]int8, c.n)
	return s, nil
}

// load enqueues every node's band packets into its A-row slots and its
// upper-half list (τ order, then the zero-tag ones to pred and succ).
func (s *bandedSched) load(k *kernel.Kernel) {
	lay, n := s.lay, s.c.n
	order := bandOrder(lay.beta)
	idx := make([]int, 1<<lay.beta) // τ → its index k
	for i, t := range order {
		idx[t] = i
	}
	nb := 1 << lay.beta
	for c := 0; c < n; c++ {
		p := lay.node(c)
		pu := rotR(p, lay.rot, lay.d)
		c1 := pu >> lay.lo
		_, sd := lay.grayDims(pu)
		s.up[p] = make([]int32, nb+1)
		s.upDim[p] = make([]int8, nb+1)
		for _, j := range lay.band(c) {
			q := lay.node(j)
			wi := enqueueTagged(k, s.c, p, q, uint64(p*n+q))
			s.ck.expect(q, p)
			qu := rotR(q, lay.rot, lay.d)
			x := qu >> lay.lo
			tau := uint32(x ^ c1)
			switch g := (pu ^ qu) & (1<<lay.lo - 1); {
			case g == 0: // own column: the A-row of its tag
				s.rows[p*s.nrow+int(tau)-1] = wi
			case tau == 0: // zero β-tag: last step, over its Gray link
				at := nb - 1
				if bits.TrailingZeros(uint(g)) == sd {
					at = nb
				}
				s.up[p][at], s.upDim[p][at] = wi, int8(bits.TrailingZeros(uint(g)))
			default:
				s.up[p][idx[tau]], s.upDim[p][idx[tau]] = wi, int8(bits.TrailingZeros(uint(g)))
			}
		}
	}
}

// port is node p's link over unrotated dimension dim.
func (s *bandedSched) port(p, dim int) int32 {
	return s.c.port[p*s.c.d+(dim+s.lay.rot)%s.c.d]
}

func (s *bandedSched) Sends(slot int64, node int32, out []kernel.SlotSend) []kernel.SlotSend {
	t, p, nb := int(slot), int(node), 1<<s.lay.beta
	if t >= len(s.steps) {
		return out
	}
	if t < nb-1 {
		out = append(out, kernel.SlotSend{Packet: s.up[p][t], Port: s.port(p, int(s.upDim[p][t]))})
	} else {
		for i := nb - 1; i <= nb; i++ {
			out = append(out, kernel.SlotSend{Packet: s.up[p][i], Port: s.port(p, int(s.upDim[p][i]))})
		}
	}
	for _, e := range s.steps[t] {
		at := p*s.nrow + int(e.Row)
		if wi := s.rows[at]; wi >= 0 {
			out = append(out, kernel.SlotSend{Packet: wi, Port: s.port(p, s.lay.lo+int(e.Dim))})
			s.rows[at] = -1
		}
	}
	return out
}

func (s *bandedSched) Arrived(slot int64, node, inPort int32, w *flit.Worm, wi int32) bool {
	t, p, nb := int(slot), int(node), 1<<s.lay.beta
	dim := (int(s.c.dimIn[p*s.c.d1+int(inPort)]) - s.lay.rot + s.c.d) % s.c.d // (unrotated)
	src, dst := int(w.Aux)/s.c.n, int(w.Aux)%s.c.n
	row := -1
	switch {
	case dim < s.lay.lo && t < nb-1:
		row = nb - 1 + t // the B-row τ_t
	case dim >= s.lay.lo && int(s.final[s.rowOf[t][dim-s.lay.lo]]) > t:
		row = int(s.rowOf[t][dim-s.lay.lo])
	}
	if row < 0 {
		s.ck.got(p, src, dst == p)
		return false
	}
	s.rows[p*s.nrow+row] = wi
	return true
}
