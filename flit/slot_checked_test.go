//go:build checked

package flit

import "testing"

// The checked build must still catch a ring index out of range.
func TestSlotChecked(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("slot(3) on a 3-flit buffer did not panic")
		}
	}()
	b := NewBuffer(3)
	_ = b.slot(3)
}
