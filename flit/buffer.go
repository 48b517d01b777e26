package flit

import "unsafe"

// Buffer is a fixed-depth FIFO of flits backed by a ring. It never grows:
// Push on a full buffer is a programming error and panics, because the
// switch must have checked Free first (that check is the flow control).
//
// The ring is its first slot and its depth (24 bytes where a slice took 32:
// see internal/kernel/speed.md).
type Buffer struct {
	first *Flit // the ring's first slot (nil when the depth is 0)
	depth int32
	head  int32
	n     int32
}

// NewBuffer returns an empty buffer that holds depth flits.
func NewBuffer(depth int) Buffer {
	var b Buffer
	b.Init(make([]Flit, depth))
	return b
}

// Init points the buffer at caller-owned storage, so that many buffers can
// share one allocation. Its depth is len(storage).
func (b *Buffer) Init(storage []Flit) {
	b.first, b.depth = unsafe.SliceData(storage), int32(len(storage))
	b.head, b.n = 0, 0
}

// Depth is the capacity in flits.
func (b *Buffer) Depth() int { return int(b.depth) }

// Len is the number of flits held.
func (b *Buffer) Len() int { return int(b.n) }

// Free is the number of empty slots.
func (b *Buffer) Free() int { return int(b.depth) - int(b.n) }

// Empty reports whether the buffer holds no flit.
func (b *Buffer) Empty() bool { return b.n == 0 }

// Front returns a pointer to the oldest flit; the buffer must not be empty.
func (b *Buffer) Front() *Flit { return b.slot(int(b.head)) }

// At returns the i-th oldest flit (0 is the front); i must be < Len.
func (b *Buffer) At(i int) *Flit {
	j := int(b.head) + i
	if j >= int(b.depth) {
		j -= int(b.depth)
	}
	return b.slot(j)
}

// Back returns the newest flit; the buffer must not be empty.
func (b *Buffer) Back() *Flit { return b.At(int(b.n) - 1) }

// Push appends f at the back.
func (b *Buffer) Push(f Flit) {
	if int(b.n) == int(b.depth) {
		panic("flit: push on a full buffer")
	}
	j := int(b.head) + int(b.n)
	if j >= int(b.depth) {
		j -= int(b.depth)
	}
	*b.slot(j) = f
	b.n++
}

// PushReady appends a copy of *f that may leave from cycle at (Push of a
// flit with a new ready time, without the copy; see internal/kernel/speed.md).
func (b *Buffer) PushReady(f *Flit, at int64) {
	if int(b.n) == int(b.depth) {
		panic("flit: push on a full buffer")
	}
	j := int(b.head) + int(b.n)
	if j >= int(b.depth) {
		j -= int(b.depth)
	}
	s := b.slot(j)
	*s = *f
	s.ReadyAt = uint32(at)
	b.n++
}

// Pop removes and returns the front flit.
func (b *Buffer) Pop() Flit {
	if b.n == 0 {
		panic("flit: pop on an empty buffer")
	}
	f := *b.slot(int(b.head))
	b.Drop()
	return f
}

// Drop removes the front flit, which the caller has read with Front (so
// the buffer is not empty): Pop without the copy.
func (b *Buffer) Drop() {
	h := b.head + 1
	if int(h) == int(b.depth) {
		h = 0
	}
	b.head = h
	b.n--
}
