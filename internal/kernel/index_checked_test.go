//go:build checked

package kernel

import "testing"

// The checked build (CI runs the tests with it too) must still catch an
// index out of range.
func TestElemChecked(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("elem(s, 3) on a 3-element slice did not panic")
		}
	}()
	s := make([]int32, 3)
	_ = elem(s, 3)
}
