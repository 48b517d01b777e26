package kernel

import (
	"testing"
	"unsafe"
)

// TestWormQueueFIFO: a source queue keeps first-in first-out order through
// growth and wrap-around, and popIf(0) removes nothing.
func TestWormQueueFIFO(t *testing.T) {
	var q wormQueue
	next, want := int32(0), int32(0)
	for round := range 200 {
		for range round%7 + 1 {
			q.push(next)
			next++
		}
		for range round%5 + 1 {
			if q.n == 0 {
				break
			}
			q.popIf(0)
			if got := q.front(); got != want {
				t.Fatalf("round %d: front %d, want %d", round, got, want)
			}
			q.popIf(1)
			want++
		}
		if len(q.buf)&(len(q.buf)-1) != 0 {
			t.Fatalf("ring of %d slots: not a power of two", len(q.buf))
		}
	}
	if q.n != int(next-want) {
		t.Fatalf("%d queued, want %d", q.n, next-want)
	}
}

// TestPktQueueRings: a packet queue keeps first-in first-out order (and
// remove keeps the others' order) as its packets move from its record to
// a ring of four and on to doubled rings in the slab, a restart puts them
// back in its record and empties the slab, and a queue's record is 16
// bytes and a packet's 64.
func TestPktQueueRings(t *testing.T) {
	p := &packetRouter{pt: make([]portRec, 3)}
	x := &p.pt[2]
	var model []int32
	next := int32(0)
	ringLen := func() int32 { // (2 in the record; 0 unless a power of two)
		if x.ext == 0 {
			return 2
		}
		if m := p.rings[x.ext-1]; m&(m+1) == 0 {
			return m + 1
		}
		return 0
	}
	for round := range 300 {
		for range round%9 + 1 {
			if x.full(p.rings) {
				p.growQueue(2)
			}
			x.push(p.rings, next)
			model = append(model, next)
			next++
		}
		if round%4 == 3 && len(model) > 2 { // (out of the middle, as a non-FIFO discipline takes it)
			x.remove(p.rings, 1)
			model = append(model[:1], model[2:]...)
		}
		for range round%8 + 1 {
			if len(model) == 0 {
				break
			}
			if got := x.at(p.rings, 0); got != model[0] {
				t.Fatalf("round %d: front %d, want %d", round, got, model[0])
			}
			x.popFront(p.rings)
			model = model[1:]
		}
		if n := ringLen(); x.n() != int32(len(model)) || n == 0 || x.n() > n {
			t.Fatalf("round %d: %d queued (want %d), ring of %d", round, x.n(), len(model), n)
		}
	}
	if len(p.grown) != 1 || ringLen() <= 4 {
		t.Fatalf("grown %v, ring of %d: the test did not reach a doubled ring", p.grown, ringLen())
	}
	for x.n() > 0 {
		x.popFront(p.rings)
	}
	p.shrinkQueues()
	if x.ext != 0 || len(p.grown) != 0 || len(p.rings) != 0 {
		t.Fatal("the emptied queue's packets are not back in its record, or the slab kept its blocks")
	}
	// Two packets in the record: the second moves up when the first leaves.
	x.push(p.rings, 7)
	x.push(p.rings, 8)
	x.remove(p.rings, 1)
	x.push(p.rings, 9)
	if x.at(p.rings, 0) != 7 || x.at(p.rings, 1) != 9 || x.full(p.rings) != true {
		t.Fatalf("record %+v, want 7 then 9", *x)
	}
	x.popFront(p.rings)
	if x.n() != 1 || x.at(p.rings, 0) != 9 {
		t.Fatalf("record %+v, want 9 alone", *x)
	}
	if q, s, ps := unsafe.Sizeof(pktQueue{}), unsafe.Sizeof(portRec{}), unsafe.Sizeof(pktState{}); q != 16 || s != 24 || ps != 64 {
		t.Fatalf("records of %d, %d and %d bytes, want 16, 24 and 64", q, s, ps)
	}
}
