package kernel

import "testing"

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
