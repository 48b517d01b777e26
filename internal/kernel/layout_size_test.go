package kernel

import (
	"testing"
	"unsafe"
)

// A buffer's record is two cache lines, and what a hop reads and writes
// (the ring, where moves go, the last move's cycle) is the first
// (bufState's comment, speed.md).
func TestBufStateLines(t *testing.T) {
	var x bufState
	if s := unsafe.Sizeof(x); s != 128 {
		t.Errorf("bufState is %d bytes, want 128", s)
	}
	if o := unsafe.Offsetof(x.moved) + unsafe.Sizeof(x.moved); o > 64 {
		t.Errorf("bufState.moved ends at byte %d, past the first line", o)
	}
}
