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

// pktQueue is one queue of the packet-switched router, in 16 bytes so that
// the 12-cube's 53 248 of them (with the links' far ends, 8 bytes each)
// stay in a core's L2 cache (speed.md). Up to two packets it holds them
// in its record, oldest first (a send moves the second up); beyond two, a
// ring of packet (pool) indices whose length is a power of two, so that a
// packet joins and leaves without moving the others or allocating once
// the ring is large enough, kept in the router's slab of rings and named
// by its offset (a slice header would double the record): rings[ext−2]
// is the position of its oldest packet, rings[ext−1] its length − 1.
type pktQueue struct {
	cnt int32
	ext int32 // 0: the packets are inl; else the ring is rings[ext : ext+m+1]
	inl [2]int32
}

func (q *pktQueue) n() int32 { return q.cnt }

// slot is where the packet at position i (0: the oldest) is kept.
func (q *pktQueue) slot(rings []int32, i int32) *int32 {
	if q.ext == 0 {
		return &q.inl[i&1]
	}
	return &rings[q.ext+(rings[q.ext-2]+i)&rings[q.ext-1]]
}

// at is the packet at position i (0: the oldest).
func (q *pktQueue) at(rings []int32, i int32) int32 { return *q.slot(rings, i) }

// set replaces the packet at position i.
func (q *pktQueue) set(rings []int32, i, wi int32) { *q.slot(rings, i) = wi }

// full reports whether the queue has no free slot (push needs grow first).
func (q *pktQueue) full(rings []int32) bool {
	if q.ext == 0 {
		return q.cnt == 2
	}
	return q.cnt > rings[q.ext-1]
}

// push appends packet wi (the newest); the queue has room.
func (q *pktQueue) push(rings []int32, wi int32) {
	q.set(rings, q.cnt, wi)
	q.cnt++
}

// grow moves the packets to the ring at offset at of rings (a new block
// longer than the old, its mask at rings[at−1]), the oldest first.
func (q *pktQueue) grow(rings []int32, at int32) {
	m := rings[at-1]
	nb := rings[at : at+m+1]
	for i := range q.cnt {
		nb[i] = q.at(rings, i)
	}
	q.ext, rings[at-2] = at, 0
}

// popFront takes out the oldest packet.
func (q *pktQueue) popFront(rings []int32) {
	if q.ext == 0 {
		q.inl[0] = q.inl[1]
	} else {
		h := &rings[q.ext-2]
		*h = (*h + 1) & rings[q.ext-1]
	}
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
