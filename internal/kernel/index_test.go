package kernel

import "testing"

// elem must be &s[i] for every index in range, in both builds.
func TestElemIsIndex(t *testing.T) {
	s := make([]bufState, 5)
	for i := range s {
		if elem(s, int32(i)) != &s[i] {
			t.Fatalf("elem(s, %d) is not &s[%d]", i, i)
		}
	}
	w := []int64{1, 2, 3}
	*elem(w, 2) = 7
	if w[2] != 7 {
		t.Fatalf("write through elem landed elsewhere: %v", w)
	}
}
