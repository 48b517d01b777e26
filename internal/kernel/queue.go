package kernel

// wormQueue is a FIFO of packets waiting at a source interface. It is
// unbounded (the source queue of open-loop measurement) and grows by doubling.
type wormQueue struct {
	buf  []int32
	head int
	n    int
}

// Its ring's length is a power of two (8, doubling), so an index wraps by a
// mask, not a division.
func (q *wormQueue) push(w int32) {
	if q.n == len(q.buf) {
		nb := make([]int32, max(8, 2*len(q.buf)))
		for i := 0; i < q.n; i++ {
			nb[i] = q.buf[(q.head+i)&(len(q.buf)-1)]
		}
		q.buf, q.head = nb, 0
	}
	q.buf[(q.head+q.n)&(len(q.buf)-1)] = w
	q.n++
}

func (q *wormQueue) front() int32 { return q.buf[q.head] }

// popIf removes the front packet if v is 1 and nothing if v is 0, without
// a jump on v.
func (q *wormQueue) popIf(v int) {
	q.head = (q.head + v) & (len(q.buf) - 1)
	q.n -= v
}

// pktQueue is one queue of the packet-switched router: a ring of packet
// (pool) indices, oldest first, whose length is a power of two, so that a
// packet joins and leaves without moving the others or allocating once
// the ring is large enough. (A slice from which the front was cut regrew
// every time its end reached the capacity.) The ring starts as the two
// slots of the queue's own record (a join or a send then touches one
// cache line), grows into a spare of four that the router keeps for it,
// then doubles. A grown ring lives in the router's slab of rings (rings),
// named by an offset rather than a slice, so that the record is 20 bytes
// and the port's whole record 32 (speed.md: the 12-cube's records then
// nearly fit in a core's L2 cache).
type pktQueue struct {
	head int32 // position of the oldest packet in the ring
	cnt  int32
	ext  int32 // 0: the ring is inl; else rings[ext : ext+m+1], m = rings[ext−1] (its length − 1)
	inl  [2]int32
}

func (q *pktQueue) n() int32 { return q.cnt }

// ring is the queue's ring, in its record or in the slab rings, and its
// mask (its length − 1).
func (q *pktQueue) ring(rings []int32) ([]int32, int32) {
	if q.ext == 0 {
		return q.inl[:], 1
	}
	m := rings[q.ext-1]
	return rings[q.ext : q.ext+m+1], m
}

// at is the packet at position i (0: the oldest).
func (q *pktQueue) at(rings []int32, i int32) int32 {
	r, m := q.ring(rings)
	return r[(q.head+i)&m]
}

// set replaces the packet at position i.
func (q *pktQueue) set(rings []int32, i, wi int32) {
	r, m := q.ring(rings)
	r[(q.head+i)&m] = wi
}

// full reports whether the ring has no free slot (push needs grow first).
func (q *pktQueue) full(rings []int32) bool {
	_, m := q.ring(rings)
	return q.cnt > m
}

// push appends packet wi (the newest); the ring has room.
func (q *pktQueue) push(rings []int32, wi int32) {
	q.set(rings, q.cnt, wi)
	q.cnt++
}

// grow moves the ring to offset at of rings (the queue's spare, or a new
// block at the slab's end: either of length m+1 > the ring's, with m at
// rings[at−1]), the oldest packet first.
func (q *pktQueue) grow(rings []int32, at int32) {
	m := rings[at-1]
	nb := rings[at : at+m+1]
	for i := range q.cnt {
		nb[i] = q.at(rings, i)
	}
	q.ext, q.head = at, 0
}

// popFront takes out the oldest packet.
func (q *pktQueue) popFront(rings []int32) {
	_, m := q.ring(rings)
	q.head = (q.head + 1) & m
	q.cnt--
}

// remove takes out the packet at position i, moving the older ones up.
func (q *pktQueue) remove(rings []int32, i int32) {
	for ; i > 0; i-- {
		q.set(rings, i, q.at(rings, i-1))
	}
	q.popFront(rings)
}

// queueSet is the set of the packet router's non-empty queues, by id: a
// bit per queue, and a summary bit per word of them, so that a cycle
// visits only the words that hold a non-empty queue (the 12-cube has 832
// words of queue bits, and in a busy cycle about 135 queues send: a scan
// of every word was a fifth of a hop's instructions).
type queueSet struct {
	w   []uint64 // bit q&63 of w[q>>6]: queue q is non-empty
	sum []uint64 // bit i&63 of sum[i>>6]: w[i] is not 0
}

func newQueueSet(n int32) queueSet {
	nw := (n + 63) / 64
	return queueSet{make([]uint64, nw), make([]uint64, (nw+63)/64)}
}

func (s *queueSet) add(q int32) {
	*elem(s.w, q>>6) |= 1 << (q & 63)
	*elem(s.sum, q>>12) |= 1 << ((q >> 6) & 63)
}

func (s *queueSet) remove(q int32) {
	w := elem(s.w, q>>6)
	if *w &^= 1 << (q & 63); *w == 0 {
		*elem(s.sum, q>>12) &^= 1 << ((q >> 6) & 63)
	}
}

func (s *queueSet) any() bool {
	for _, w := range s.sum {
		if w != 0 {
			return true
		}
	}
	return false
}
