package kernel

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestShuffleIsRandShuffle: the packet router's shuffle permutes as a
// Fisher–Yates shuffle from the end with rand.Rand.IntN(i+1) does, and
// leaves the source where that leaves it, for every length up to 3000.
func TestShuffleIsRandShuffle(t *testing.T) {
	a, b := rand.NewPCG(5, 6), rand.NewPCG(5, 6)
	ra := rand.New(a)
	k := &Kernel{src: b}
	for n := range 3000 {
		want := make([]int32, n)
		for i := range want {
			want[i] = int32(i)
		}
		got := slices.Clone(want)
		for i := n - 1; i > 0; i-- {
			j := ra.IntN(i + 1)
			want[i], want[j] = want[j], want[i]
		}
		shuffle(k, got)
		if !slices.Equal(got, want) {
			t.Fatalf("length %d: shuffle %v, want %v", n, got[:min(n, 10)], want[:min(n, 10)])
		}
	}
	if a.Uint64() != b.Uint64() {
		t.Fatal("the sources drifted apart")
	}
}

// TestPCGDrawIsRandIntN: a draw as shuffle makes it (drawLikeShuffle) gives rand.Rand.IntN's values
// and state, for small, power-of-two and large n (3·2^61+1 rejects often).
func TestPCGDrawIsRandIntN(t *testing.T) {
	a := rand.NewPCG(5, 6)
	ra := rand.New(a)
	hi, lo := uint64(5), uint64(6)
	ns := []int{1, 2, 3, 5, 7, 8, 12, 100, 4095, 4096, 1 << 40, 3<<61 + 1}
	rejected := 0
	for i := range 200000 {
		n := ns[i%len(ns)]
		if i%3 == 0 {
			n = 1 + i%5000
		}
		x, _, _ := pcgNext(hi, lo)
		if _, l := bits.Mul64(x, uint64(n)); uint64(n)&(uint64(n)-1) != 0 && l < -uint64(n)%uint64(n) {
			rejected++ // (the first product is rejected: the draw is made again)
		}
		v, h, l := drawLikeShuffle(hi, lo, uint64(n))
		hi, lo = h, l
		if want := ra.IntN(n); int(v) != want {
			t.Fatalf("draw %d, n %d: %d, IntN %d", i, n, v, want)
		}
	}
	if rejected == 0 {
		t.Fatal("no draw was rejected: the test did not check the rejection")
	}
	if x, _, _ := pcgNext(hi, lo); x != a.Uint64() {
		t.Fatal("the states drifted apart")
	}
}

// drawLikeShuffle is the body of shuffle's loop: IntN(n) from the PCG
// state (hi, lo), returning the value and the next state.
func drawLikeShuffle(shi, slo, n uint64) (j, nhi, nlo uint64) {
	var x uint64
	x, shi, slo = pcgNext(shi, slo)
	j, lo := bits.Mul64(x, n)
	if n&(n-1) == 0 {
		j = x & (n - 1)
	} else if lo < n {
		for thresh := -n % n; lo < thresh; {
			x, shi, slo = pcgNext(shi, slo)
			j, lo = bits.Mul64(x, n)
		}
	}
	return j, shi, slo
}
