package han

import (
	"bufio"
	"fmt"
	"io"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// Permutations lists the named permutations (plus "file:F").
var Permutations = []string{"transpose", "rot180", "bit-reversal", "shuffle", "random"}

// Permutation is the named permutation on an n×n mesh (PermutationMesh).
func Permutation(name string, n int, seed uint64) ([]int32, error) {
	return PermutationMesh(name, n, n, seed)
}

// PermutationMesh is the named permutation on a rows×cols mesh (row-major:
// element p is processor p's destination):
//   - transpose: (i,j) → (j,i) (square meshes);
//   - rot180: (i,j) → (rows−1−i, cols−1−j);
//   - bit-reversal: the bits of the row and of the column each reversed
//     (sides powers of two);
//   - shuffle: the perfect shuffle of the row-major index, its bits rotated
//     left by one (sides powers of two);
//   - random: uniform, from seed.
func PermutationMesh(name string, rows, cols int, seed uint64) ([]int32, error) {
	N := rows * cols
	pow2 := rows&(rows-1) == 0 && cols&(cols-1) == 0
	switch {
	case !slices.Contains(Permutations, name):
		return nil, fmt.Errorf("permutation %q (allowed: %s, file:F)", name, strings.Join(Permutations, ", "))
	case name == "transpose" && rows != cols:
		return nil, fmt.Errorf("permutation transpose on a %d×%d mesh: it needs a square mesh", rows, cols)
	case (name == "bit-reversal" || name == "shuffle") && !pow2:
		return nil, fmt.Errorf("permutation %s on a %d×%d mesh: it needs sides that are powers of two", name, rows, cols)
	}
	lr, lc := bits.Len(uint(rows))-1, bits.Len(uint(cols))-1
	rev := func(x, w int) int {
		if w == 0 {
			return x
		}
		return int(bits.Reverse(uint(x)) >> (bits.UintSize - w))
	}
	p := make([]int32, N)
	for i := range N {
		r, c := i/cols, i%cols
		switch name {
		case "transpose":
			p[i] = int32(c*cols + r)
		case "rot180":
			p[i] = int32((rows-1-r)*cols + cols - 1 - c)
		case "bit-reversal":
			p[i] = int32(rev(r, lr)*cols + rev(c, lc))
		case "shuffle":
			w := lr + lc
			p[i] = int32((i<<1 | i>>(w-1)) & (N - 1))
		default:
			p[i] = int32(i)
		}
	}
	if name == "random" {
		rng := rand.New(rand.NewPCG(seed, 0x4841_4e31_3939_30)) // (one seeded source per run)
		rng.Shuffle(N, func(a, b int) { p[a], p[b] = p[b], p[a] })
	}
	return p, nil
}

// ReadPermutation reads a (partial) permutation of an n×n mesh: n² entries
// separated by white space, row-major, each the destination processor's
// row-major index, or −1 for a processor without a message; '#' starts a
// comment. The error names the first entry that makes it no permutation.
func ReadPermutation(rd io.Reader, n int) ([]int32, error) {
	return ReadPermutationMesh(rd, n, n)
}

// ReadPermutationMesh is ReadPermutation on a rows×cols mesh.
func ReadPermutationMesh(rd io.Reader, rows, cols int) ([]int32, error) {
	N, n := rows*cols, cols
	var p []int32
	by := make([]int, N) // per destination: 1 + the processor naming it
	sc := bufio.NewScanner(rd)
	for line := 1; sc.Scan(); line++ {
		text, _, _ := strings.Cut(sc.Text(), "#")
		for _, f := range strings.Fields(text) {
			v, err := strconv.Atoi(f)
			if err != nil || v < -1 || v >= N {
				return nil, fmt.Errorf("line %d: entry %q is not a destination (allowed: 0 … %d, or −1 for none)", line, f, N-1)
			}
			src := len(p)
			if src >= N {
				return nil, fmt.Errorf("line %d: more than %d entries (one per processor of the %d×%d mesh)", line, N, rows, cols)
			}
			if v >= 0 {
				if by[v] != 0 {
					return nil, fmt.Errorf("line %d: destination %d (%d,%d) repeated: processors %d and %d both send to it", line, v, v/n, v%n, by[v]-1, src)
				}
				by[v] = src + 1
			}
			p = append(p, int32(v))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(p) < N {
		return nil, fmt.Errorf("%d entries, want %d (one per processor of the %d×%d mesh; −1 for none): processor %d (%d,%d) has no entry", len(p), N, rows, cols, len(p), len(p)/n, len(p)%n)
	}
	return p, nil
}

// RandomBroadcast is a random restricted broadcast on an n×n mesh (§1.3.4):
// k messages (k uniform in 1 … n²) at k random processors, carrying between
// them L distinct destinations (L uniform in k … n²), each at least one.
func RandomBroadcast(n int, seed uint64) [][]int32 { return RandomBroadcastMesh(n, n, seed) }

// RandomBroadcastMesh is RandomBroadcast on a rows×cols mesh.
func RandomBroadcastMesh(rows, cols int, seed uint64) [][]int32 {
	N := rows * cols
	rng := rand.New(rand.NewPCG(seed, 0x4842_4341_5354)) // (one seeded source per run)
	src, dst := rng.Perm(N), rng.Perm(N)
	k := 1 + rng.IntN(N)
	L := k + rng.IntN(N-k+1)
	cuts := append(rng.Perm(L - 1)[:k-1], L-1) // group ends: k − 1 distinct cuts in 0 … L−2, then the last
	slices.Sort(cuts)
	out := make([][]int32, N)
	from := 0
	for i, c := range cuts {
		for _, d := range dst[from : c+1] {
			out[src[i]] = append(out[src[i]], int32(d))
		}
		from = c + 1
	}
	return out
}
