package collective

import (
	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/internal/kernel"
)

// xrowSched is the symmetric row schedule of rowSched on any network whose
// links are named by dimension with one in-link per dimension per node
// (dims: the folded cube, the permutation cube): every node keeps its
// packets in row slots indexed alike at all nodes; in slot t, for each
// entry (i, j) of S_t, it sends the packet in row slot i over its
// dimension-j link, and stores the packet arriving over dimension j in row
// slot i. A row's packet is delivered where its last entry takes it.
type xrowSched struct {
	x     *dims
	steps [][]rowStep
	nrow  int
	slot  []int32   // node × row: the packet's pool index, or −1
	rowOf [][]int32 // slot × dimension: the row sent, or −1
	last  []int32   // per row: the slot of its last entry, or −1
	ck    *checker
}

func newXrowSched(x *dims, nrow int, steps [][]rowStep, ck *checker) *xrowSched {
	s := &xrowSched{x: x, steps: steps, nrow: nrow, ck: ck, slot: make([]int32, x.n*nrow), last: make([]int32, nrow)}
	for i := range s.slot {
		s.slot[i] = -1
	}
	for i := range s.last {
		s.last[i] = -1
	}
	s.rowOf = make([][]int32, len(steps))
	for t, st := range steps {
		r := make([]int32, x.D)
		for j := range r {
			r[j] = -1
		}
		for _, e := range st {
			r[e.Dim] = e.Row
			s.last[e.Row] = int32(t)
		}
		s.rowOf[t] = r
	}
	return s
}

// load enqueues, at every node v, row i's packet for dst(v, i) (the
// caller tells the checker what the task expects: not read off the rows).
func (s *xrowSched) load(k *kernel.Kernel, dst func(v, i int) int) {
	n := s.x.n
	for v := 0; v < n; v++ {
		for i := 0; i < s.nrow; i++ {
			t := dst(v, i)
			wi := k.EnqueueScheduled(s.x.term[v], s.x.term[t], uint64(v*n+t))
			s.slot[v*s.nrow+i] = wi
		}
	}
}

// expectTE makes ck expect every node to receive one packet from every
// other (the total exchange).
func expectTE(ck *checker, n int) {
	for v := 0; v < n; v++ {
		for t := 0; t < n; t++ {
			if t != v {
				ck.expect(t, v)
			}
		}
	}
}

func (s *xrowSched) Sends(slot int64, node int32, out []kernel.SlotSend) []kernel.SlotSend {
	if slot >= int64(len(s.steps)) {
		return out
	}
	base := int(node) * s.nrow
	for _, e := range s.steps[slot] {
		if wi := s.slot[base+int(e.Row)]; wi >= 0 {
			out = append(out, kernel.SlotSend{Packet: wi, Port: s.x.portOf(int(node), int(e.Dim))})
			s.slot[base+int(e.Row)] = -1
		}
	}
	return out
}

func (s *xrowSched) Arrived(slot int64, node, inPort int32, w *flit.Worm, wi int32) bool {
	row := s.rowOf[slot][s.x.dimOf(node, inPort)]
	if s.last[row] == int32(slot) {
		n := s.x.n
		s.ck.got(int(node), int(w.Aux)/n, int(w.Aux)%n == int(node))
		return false
	}
	s.slot[int(node)*s.nrow+int(row)] = wi
	return true
}
