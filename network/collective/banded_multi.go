package collective

import (
	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/internal/kernel"
)

// bandedMulti is ⌊d/β⌋ simultaneous banded transpositions (Varvarigos
// §2.7, digest 000a §4.9): matrix j = 1..J stores column c at
// L_{jβ}(p(c)), the Binary-Gray label rotated left by jβ bits, so the
// matrices' β-dimensions are disjoint blocks of β physical dimensions.
//
//   - phase 1, 2^β steps: every matrix clears the β-parts of all its
//     packets (the isotropic part: A-rows and the upper-half packets'
//     β-tags, column sums 2^β) by the symmetric OCTR on its own block;
//   - phase 2: every packet left has one Gray bit; each node sends them,
//     one per link per step in arrival order (phases do not overlap, as
//     in the seed). The seed bounds it by 2^β + 1, for 2^{β+1} + 1 in all.
type bandedMulti struct {
	c     *cube
	lays  []bandLayout
	steps [][]rowStep
	rowOf [][]int32 // per step × β-dimension: the row, or −1
	final []int32   // per row: the step of its last hop
	na    int       // A-rows (row < na); the rest are upper-half β-tags
	nrow  int
	rows  []int32   // per node × matrix × row: the packet, or −1
	gq    [][]int32 // per node × physical dimension: phase-2 packets
	mat   []int8    // per physical dimension: the matrix whose β-block it is in
	ck    *checker
}

func newBandedMulti(c *cube, beta int, ck *checker) *bandedMulti {
	d := c.d
	s := &bandedMulti{c: c, ck: ck, na: 1<<beta - 1, mat: make([]int8, d)}
	for j := 1; j <= d/beta; j++ {
		s.lays = append(s.lays, bandLayout{d: d, beta: beta, lo: d - beta, rot: j * beta % d})
	}
	var tags []uint32
	for side := 0; side < 2; side++ {
		for x := uint32(1); x < 1<<beta; x++ {
			tags = append(tags, x)
		}
	}
	s.nrow = len(tags)
	s.steps = octr(tags, beta)
	s.final = make([]int32, s.nrow)
	for t, st := range s.steps {
		r := make([]int32, beta)
		for j := range r {
			r[j] = -1
		}
		for _, e := range st {
			r[e.Dim], s.final[e.Row] = e.Row, int32(t)
		}
		s.rowOf = append(s.rowOf, r)
	}
	for j, lay := range s.lays {
		for b := 0; b < beta; b++ {
			s.mat[(lay.lo+b+lay.rot)%d] = int8(j)
		}
	}
	s.rows = make([]int32, c.n*len(s.lays)*s.nrow)
	for i := range s.rows {
		s.rows[i] = -1
	}
	s.gq = make([][]int32, c.n*d)
	return s
}

// phase1 is phase 1's length (the OCTR's, 2^β).
func (s *bandedMulti) phase1() int { return len(s.steps) }

// key names matrix j's packet from p to q.
func (s *bandedMulti) key(j, p, q int) uint64 { return uint64((j*s.c.n+p)*s.c.n + q) }

func (s *bandedMulti) load(k *kernel.Kernel) {
	n, d := s.c.n, s.c.d
	for j, lay := range s.lays {
		for c := 0; c < n; c++ {
			p := lay.node(c)
			c1 := rotR(p, lay.rot, d) >> lay.lo
			for _, col := range lay.band(c) {
				q := lay.node(col)
				wi := enqueueTagged(k, s.c, p, q, s.key(j, p, q))
				s.ck.expect(q, j*n+p)
				qu := rotR(q, lay.rot, d)
				tau := (qu >> lay.lo) ^ c1
				switch gray := (rotR(p, lay.rot, d) ^ qu) & (1<<lay.lo - 1); {
				case tau == 0: // only the Gray bit: phase 2
					e := (trailing(gray) + lay.rot) % d
					s.gq[p*d+e] = append(s.gq[p*d+e], wi)
				case gray == 0:
					s.rows[(p*len(s.lays)+j)*s.nrow+tau-1] = wi
				default:
					s.rows[(p*len(s.lays)+j)*s.nrow+s.na+tau-1] = wi
				}
			}
		}
	}
}

func (s *bandedMulti) Sends(slot int64, node int32, out []kernel.SlotSend) []kernel.SlotSend {
	t, p, d := int(slot), int(node), s.c.d
	if t < s.phase1() {
		for j, lay := range s.lays {
			for _, e := range s.steps[t] {
				at := (p*len(s.lays)+j)*s.nrow + int(e.Row)
				if wi := s.rows[at]; wi >= 0 {
					out = append(out, kernel.SlotSend{Packet: wi, Port: s.c.port[p*d+(lay.lo+int(e.Dim)+lay.rot)%d]})
					s.rows[at] = -1
				}
			}
		}
		return out
	}
	for e := 0; e < d; e++ {
		if q := s.gq[p*d+e]; len(q) > 0 {
			out = append(out, kernel.SlotSend{Packet: q[0], Port: s.c.port[p*d+e]})
			s.gq[p*d+e] = q[1:]
		}
	}
	return out
}

func (s *bandedMulti) Arrived(slot int64, node, inPort int32, w *flit.Worm, wi int32) bool {
	t, p, d, n := int(slot), int(node), s.c.d, s.c.n
	j, src, dst := int(w.Aux)/(n*n), int(w.Aux)/n%n, int(w.Aux)%n
	if dst == p {
		s.ck.got(p, j*n+src, true)
		return false
	}
	if t >= s.phase1() {
		s.ck.got(p, j*n+src, false) // (phase 2 hops are the last)
		return false
	}
	e := int(s.c.dimIn[p*s.c.d1+int(inPort)])
	lay := s.lays[s.mat[e]]
	row := s.rowOf[t][(e-lay.rot-lay.lo+2*d)%d]
	if int(s.final[row]) > t {
		s.rows[(p*len(s.lays)+int(s.mat[e]))*s.nrow+int(row)] = wi
		return true
	}
	g := trailing(p ^ dst) // (one Gray bit left)
	s.gq[p*d+g] = append(s.gq[p*d+g], wi)
	return true
}
