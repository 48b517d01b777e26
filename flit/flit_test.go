package flit

import (
	"testing"
	"unsafe"
)

func TestKindOf(t *testing.T) {
	cases := []struct {
		seq, n int32
		want   Kind
	}{
		{0, 1, HeadTail}, {0, 4, Head}, {1, 4, Body}, {2, 4, Body}, {3, 4, Tail}, {0, 2, Head}, {1, 2, Tail},
	}
	for _, c := range cases {
		if got := KindOf(c.seq, c.n); got != c.want {
			t.Errorf("KindOf(%d,%d) = %v, want %v", c.seq, c.n, got, c.want)
		}
	}
}

func TestBufferFIFOAndWrap(t *testing.T) {
	b := NewBuffer(3)
	if !b.Empty() || b.Free() != 3 || b.Depth() != 3 {
		t.Fatalf("new buffer: len %d free %d", b.Len(), b.Free())
	}
	next := int32(0)
	want := int32(0)
	for round := 0; round < 10; round++ {
		for b.Free() > 0 {
			b.Push(Flit{Worm: 1, Seq: next})
			next++
		}
		if b.Back().Seq != next-1 {
			t.Fatalf("back = %d, want %d", b.Back().Seq, next-1)
		}
		for i := 0; i < b.Len(); i++ {
			if b.At(i).Seq != want+int32(i) {
				t.Fatalf("At(%d) = %d, want %d", i, b.At(i).Seq, want+int32(i))
			}
		}
		// Pop two, leaving one, so the ring wraps.
		for j := 0; j < 2; j++ {
			if f := b.Pop(); f.Seq != want {
				t.Fatalf("pop = %d, want %d", f.Seq, want)
			}
			want++
		}
	}
}

func TestBufferPanicsOnMisuse(t *testing.T) {
	b := NewBuffer(1)
	b.Push(Flit{})
	mustPanic(t, "push full", func() { b.Push(Flit{}) })
	b.Pop()
	mustPanic(t, "pop empty", func() { b.Pop() })
}

func mustPanic(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s did not panic", what)
		}
	}()
	f()
}

func TestPoolRecyclesWithoutAllocating(t *testing.T) {
	var p Pool
	a := p.Get()
	b := p.Get()
	p.Worms[a].Len = 9
	p.Put(a)
	c := p.Get()
	if c != a {
		t.Fatalf("pool did not reuse index %d (got %d)", a, c)
	}
	if p.Worms[c].Len != 0 || p.Worms[c].ID != 3 {
		t.Fatalf("reused worm not reset: %+v", p.Worms[c])
	}
	if p.Live() != 2 || p.Serial() != 3 {
		t.Fatalf("live %d serial %d", p.Live(), p.Serial())
	}
	p.Put(b)
	p.Put(c)
	allocs := testing.AllocsPerRun(1000, func() {
		i := p.Get()
		p.Put(i)
	})
	if allocs != 0 {
		t.Fatalf("steady-state Get/Put allocates %v times", allocs)
	}
}

// TestWormSize keeps the worm record at 80 bytes: RouteState lives in the
// padding after Measured, so routing state costs no memory traffic.
func TestWormSize(t *testing.T) {
	if s := unsafe.Sizeof(Worm{}); s != 80 {
		t.Errorf("Worm is %d bytes, want 80", s)
	}
}
