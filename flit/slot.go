//go:build !checked

package flit

import "unsafe"

// slot is the ring's slot j for a ring index j below the depth, which Front and
// PushReady guarantee; this build does not check it, the checked build
// (slot_checked.go, -tags checked) does. Why: internal/kernel/speed.md.
func (b *Buffer) slot(j int) *Flit {
	return (*Flit)(unsafe.Add(unsafe.Pointer(b.first), uintptr(j)*unsafe.Sizeof(Flit{})))
}
