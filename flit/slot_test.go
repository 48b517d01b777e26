package flit

import "testing"

// slot must be &storage[j] for every index in range, in both builds.
func TestSlotIsIndex(t *testing.T) {
	storage := make([]Flit, 3)
	var b Buffer
	b.Init(storage)
	for j := range 3 {
		if b.slot(j) != &storage[j] {
			t.Fatalf("slot(%d) is not &storage[%d]", j, j)
		}
	}
	if b.Depth() != 3 || b.Free() != 3 {
		t.Fatalf("depth %d, free %d, want 3 and 3", b.Depth(), b.Free())
	}
}
