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
