package gridlayout

import (
	"fmt"
	"math/bits"
)

// Brebner Thm 5.12's "binary coded d-ary" simulation of the d-shuffle on a
// 2-shuffle: every d-ary digit is written in b = ⌈lg d⌉ bits, so a vertex
// x = x_{n−1}…x_0 of the d-shuffle is the nb-bit vertex code(x) of the
// 2-shuffle, and the d-shuffle link x → (x·d mod d^n) + β becomes the
// 2-shuffle path of b single-bit shifts that push β's bits in, most
// significant first (digest §6.4).

// CodeBits is b = ⌈lg d⌉, the bits per binary-coded d-ary digit.
func CodeBits(d int) int { return bits.Len(uint(d - 1)) }

// BinaryCode writes the n-digit base-d number x with b = ⌈lg d⌉ bits per
// digit (digit i in bits ib … ib+b−1).
func BinaryCode(d, n, x int) uint64 {
	b := CodeBits(d)
	var c uint64
	for i := range n {
		c |= uint64(x%d) << (i * b)
		x /= d
	}
	return c
}

// BinaryCodedPath is the 2-shuffle path for the d-shuffle link from x
// shifting in digit β: the b+1 vertices from code(x) to code(y) (nb-bit
// numbers) and the b bits shifted in, in order.
func BinaryCodedPath(d, n, x, beta int) (path []uint64, shifted []int, err error) {
	if d < 2 || n < 1 || beta < 0 || beta >= d || n*CodeBits(d) > 62 {
		return nil, nil, fmt.Errorf("binary-coded path: d = %d, n = %d, β = %d, want d ≥ 2, n ≥ 1, 0 ≤ β < d, n⌈lg d⌉ ≤ 62", d, n, beta)
	}
	b := CodeBits(d)
	mask := uint64(1)<<(n*b) - 1
	v := BinaryCode(d, n, x)
	path = []uint64{v}
	for i := b - 1; i >= 0; i-- {
		bit := beta >> i & 1
		v = (v<<1 | uint64(bit)) & mask
		path = append(path, v)
		shifted = append(shifted, bit)
	}
	return path, shifted, nil
}

// BinaryCodedLoad routes every link of the d-shuffle (d^n vertices, d links
// each, self-loops included) along its binary-coded 2-shuffle path and
// returns the largest number of paths on one 2-shuffle link (from u,
// shifting in bit c). Thm 5.12 bounds it by b·2^(b−1), b = ⌈lg d⌉: each
// link is step j of at most 2^(b−1) paths (the j bits shifted in before it
// and the b−1−j after it are fixed by its ends; the other b−1 … are free).
func BinaryCodedLoad(d, n int) (maxLoad int, err error) {
	nodes, ok := dshuffleNodes(d, n)
	if !ok {
		return 0, fmt.Errorf("binary-coded load: d = %d, n = %d, want d ≥ 2, n ≥ 1, d^n ≤ %d", d, n, MaxDShuffleNodes)
	}
	load := map[[2]uint64]int{}
	for x := range nodes {
		for beta := range d {
			path, shifted, err := BinaryCodedPath(d, n, x, beta)
			if err != nil {
				return 0, err
			}
			for j, bit := range shifted {
				k := [2]uint64{path[j], uint64(bit)}
				load[k]++
				maxLoad = max(maxLoad, load[k])
			}
		}
	}
	return maxLoad, nil
}

// BinaryCodedLoadBound is Thm 5.12's b·2^(b−1), b = ⌈lg d⌉.
func BinaryCodedLoadBound(d int) int {
	b := CodeBits(d)
	return b << (b - 1)
}
