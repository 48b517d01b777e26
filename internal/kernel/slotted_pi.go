package kernel

import "math/bits"

// The π_i histogram of the slotted router (Varvarigos 1992 §5.7, eq.
// 5.47; digest 000b §4.9): the distance to its destination of a packet
// picked at a random instant from the head of a random non-empty queue.
// The hypercube's queues are its forward buffers — their links cross a
// dimension, and each crossing is one hop of a shortest path (internal
// links keep the node) — and the head of a queue is the packet on its
// link. So every slot, each forward link carrying a packet counts that
// packet's distance before it crosses: Pi[i] / ΣPi is the measured π_i,
// which eq. 5.47 gives for runs that drop nothing (slotted.k: inf).

// countPi counts packet p on the forward link out of node from (no
// packet: nothing).
func (m *slotted) countPi(p slotPkt, from int) {
	if p.dt != 0 {
		m.c.Pi[bits.OnesCount32(uint32(from)^uint32(p.dest()))]++
	}
}
