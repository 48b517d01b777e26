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
// remove keeps the others' order) as its ring moves from its record to
// its spare and on to doubled arrays, and a queue's and a packet's
// records stay one cache line each.
func TestPktQueueRings(t *testing.T) {
	p := &packetRouter{pt: make([]portRec, 3), spare: make([]int32, 12)}
	x := &p.pt[2]
	x.ring = x.inl[:]
	var model []int32
	next := int32(0)
	for round := range 300 {
		for range round%9 + 1 {
			if x.full() {
				p.growQueue(2)
			}
			x.push(next)
			model = append(model, next)
			next++
		}
		if round%4 == 3 && len(model) > 2 { // (out of the middle, as a non-FIFO discipline takes it)
			x.remove(1)
			model = append(model[:1], model[2:]...)
		}
		for range round%8 + 1 {
			if len(model) == 0 {
				break
			}
			if got := x.at(0); got != model[0] {
				t.Fatalf("round %d: front %d, want %d", round, got, model[0])
			}
			x.popFront()
			model = model[1:]
		}
		if x.n() != int32(len(model)) || len(x.ring)&(len(x.ring)-1) != 0 {
			t.Fatalf("round %d: %d queued (want %d), ring of %d", round, x.n(), len(model), len(x.ring))
		}
	}
	if len(p.grown) != 1 || len(x.ring) <= 4 {
		t.Fatalf("grown %v, ring of %d: the test did not reach a doubled ring", p.grown, len(x.ring))
	}
	for x.n() > 0 {
		x.popFront()
	}
	p.shrinkQueues()
	if &x.ring[0] != &x.inl[0] || len(p.grown) != 0 {
		t.Fatal("the emptied queue's ring is not back in its record")
	}
	if s, ps := unsafe.Sizeof(portRec{}), unsafe.Sizeof(pktState{}); s != 64 || ps != 64 {
		t.Fatalf("records of %d and %d bytes, want 64", s, ps)
	}
}
