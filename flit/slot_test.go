package flit

import "testing"

// slot must be &slots[j] for every index in range, in both builds.
func TestSlotIsIndex(t *testing.T) {
	b := NewBuffer(3)
	for j := range 3 {
		if b.slot(j) != &b.slots[j] {
			t.Fatalf("slot(%d) is not &slots[%d]", j, j)
		}
	}
}
