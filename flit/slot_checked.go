//go:build checked

package flit

import "unsafe"

// slot is the ring's slot j, bounds-checked: the checked build of slot.go's
// slot.
func (b *Buffer) slot(j int) *Flit { return &unsafe.Slice(b.first, b.depth)[j] }
