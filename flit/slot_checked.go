//go:build checked

package flit

// slot is &b.slots[j], bounds-checked: the checked build of slot.go's slot.
func (b *Buffer) slot(j int) *Flit { return &b.slots[j] }
