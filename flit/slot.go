//go:build !checked

package flit

import "unsafe"

// slot is &b.slots[j] without the bounds check: the kernel moves every flit
// through Front and PushReady, whose ring index is below the depth by
// construction. (As network's elem: measured with callgrind, the checks
// were 2 instructions per access on the hot path.) Building with -tags
// checked puts the check back (slot_checked.go); CI runs the tests that way
// too.
func (b *Buffer) slot(j int) *Flit {
	return (*Flit)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b.slots)), uintptr(j)*unsafe.Sizeof(Flit{})))
}
