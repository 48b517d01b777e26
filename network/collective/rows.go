package collective

import (
	"github.com/flitsim/flitsim/internal/kernel"
)

// rowSched carries out a symmetric schedule on the hypercube (digest 000a
// §4.3, §10.5): every node keeps its packets in row slots indexed alike at
// all nodes; in slot t, for each entry (i, j) of S_t, it sends the packet
// in row slot i over its dimension-j link and stores the packet arriving
// over dimension j in row slot i. A node reads only its own row slots and
// the switching matrices, which every node computes alike from the
// (identical) task matrix.
type rowSched struct {
	c     *cube
	steps [][]rowStep
	nrow  int
	slot  []int32 // per row × node: the packet's index, or −1 (row-major: the nodes' same row slots are adjacent, and all nodes use them in the same slot)
	// rowOf[t][j] is the row sent over dimension j in slot t, or −1.
	rowOf [][]int32
	ck    *checker
	pk    *kernel.ScheduledPackets
	// stop, if not nil, cuts the load short (TE on the 13-cube loads 67
	// million packets: seconds): the packets not loaded are expected all
	// the same, so an interrupted run counts them missing.
	stop func() bool
	// from, if not nil, names the nodes whose rows are loaded (a partial
	// exchange run as a TE, pe_setup.go): the others' row slots stay
	// empty, so the fixed schedule only idles where they would have sent.
	from []bool
}

func newRowSched(c *cube, tags []uint32, ck *checker) *rowSched {
	s := &rowSched{c: c, steps: octr(tags, c.d), nrow: len(tags), ck: ck}
	s.slot = make([]int32, c.n*len(tags))
	for i := range s.slot {
		s.slot[i] = -1
	}
	s.rowOf = make([][]int32, len(s.steps))
	for t, st := range s.steps {
		r := make([]int32, c.d)
		for j := range r {
			r[j] = -1
		}
		for _, e := range st {
			r[e.Dim] = e.Row
		}
		s.rowOf[t] = r
	}
	return s
}

// load enqueues, at every node s, the packet of row i for s ⊕ tag_i.
func (s *rowSched) load(k *kernel.Kernel, tags []uint32) {
	s.pk = k.ScheduledPackets()
	cut := false
	for i, tag := range tags { // (row by row: a row's packets stay one block of records as they move)
		cut = cut || s.stop != nil && s.stop()
		for node := 0; node < s.c.n; node++ {
			if s.from != nil && !s.from[node] {
				continue
			}
			dst := node ^ int(tag)
			if !cut {
				s.slot[i*s.c.n+node] = k.EnqueueScheduled(s.c.term[node], s.c.term[dst], 0)
			}
			s.ck.expect(dst, node) // (at dst, from node)
		}
	}
}

func (s *rowSched) Sends(slot int64, node int32, out []kernel.SlotSend) []kernel.SlotSend {
	if slot >= int64(len(s.steps)) {
		return out
	}
	for _, e := range s.steps[slot] {
		at := int(e.Row)*s.c.n + int(node)
		if wi := s.slot[at]; wi >= 0 {
			out = append(out, kernel.SlotSend{Packet: wi, Port: s.c.port[int(node)*s.c.d+int(e.Dim)]})
			s.slot[at] = -1
		}
	}
	return out
}

func (s *rowSched) Arrived(slot int64, node, inPort int32, wi int32) bool {
	if s.c.node[s.pk.Dst(wi)] == int(node) {
		s.ck.got(int(node), s.c.node[s.pk.Src(wi)], true)
		return false
	}
	j := s.c.dimIn[int(node)*s.c.d1+int(inPort)]
	row := s.rowOf[slot][j]
	s.slot[int(row)*s.c.n+int(node)] = wi
	return true
}
