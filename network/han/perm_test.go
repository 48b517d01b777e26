package han

import (
	"slices"
	"strings"
	"testing"
)

func TestReadPermutation(t *testing.T) {
	p, err := ReadPermutation(strings.NewReader("# a partial permutation of 2×2\n3 -1\n0 1 # the last row\n"), 2)
	if err != nil || !slices.Equal(p, []int32{3, -1, 0, 1}) {
		t.Fatalf("%v, %v", p, err)
	}
	for _, c := range []struct{ text, want string }{
		{"0 1 2 2", "line 1: destination 2 (1,0) repeated: processors 2 and 3"},
		{"0 1\n2", "3 entries, want 4"},
		{"0 1 2 4", `entry "4" is not a destination (allowed: 0 … 3, or −1 for none)`},
		{"0 1 x 3", `entry "x"`},
		{"0 1 2 3 -1", "line 1: more than 4 entries"},
	} {
		if _, err := ReadPermutation(strings.NewReader(c.text), 2); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
		}
	}
}

// The named permutations are permutations, and the broadcasts restricted:
// every destination named at most once.
func TestInputsArePermutations(t *testing.T) {
	for _, n := range []int{2, 4, 8, 16} {
		for _, name := range Permutations {
			p, err := Permutation(name, n, 7)
			if err != nil {
				t.Fatal(err)
			}
			seen := make([]bool, n*n)
			for _, d := range p {
				if seen[d] {
					t.Fatalf("%s n=%d: %d twice", name, n, d)
				}
				seen[d] = true
			}
		}
		seen := make([]bool, n*n)
		for _, ds := range RandomBroadcast(n, 3) {
			for _, d := range ds {
				if seen[d] {
					t.Fatalf("broadcast n=%d: %d twice", n, d)
				}
				seen[d] = true
			}
		}
	}
}
