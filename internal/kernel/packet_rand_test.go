package kernel

import (
	"math/rand/v2"
	"testing"
)

// TestIntNIsRandIntN: the kernel's intN gives rand.Rand.IntN's values and
// leaves the source where IntN does, for small, power-of-two and large n.
func TestIntNIsRandIntN(t *testing.T) {
	a, b := rand.NewPCG(5, 6), rand.NewPCG(5, 6)
	ra := rand.New(a)
	k := &Kernel{src: b}
	ns := []int{1, 2, 3, 5, 7, 8, 12, 100, 4095, 4096, 1 << 40, 3<<61 + 1}
	for i := range 200000 {
		n := ns[i%len(ns)]
		if i%3 == 0 {
			n = 1 + i%5000
		}
		if x, y := ra.IntN(n), k.intN(n); x != y {
			t.Fatalf("draw %d, n %d: intN %d, IntN %d", i, n, y, x)
		}
	}
	if a.Uint64() != b.Uint64() {
		t.Fatal("the sources drifted apart")
	}
}
