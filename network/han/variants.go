package han

import (
	"fmt"
	"io"
	"slices"
)

// Variant is one of the thesis's extensions route runs with --variant on
// a square mesh, its parameter route.k (strips, partitions) and all.
type Variant struct {
	Name, Alg  string // --variant's value, the algorithm it extends
	Desc       string
	KMin, KMax int // route.k's range (even values); both 0: no route.k
	KDefault   int
	// Dims is the mesh's dimensions (topology.n) the variant runs on: 0 a
	// 2-D mesh, 3 a 3-D one, −1 any from 3 (K, given to Sides, Bound and
	// Run as k).
	Dims    int
	Sides   func(n, k int) string // "" when it runs on n×n, else what is wrong
	Buffers func(n, k int) int    // the pool it needs on n×n
	Bound   func(n, k int) Bound
	Run     func(n, k, buffers int, dests [][]int32, schedule string, log io.Writer) (*Result, error)
}

// Variants lists the variants route runs.
var Variants = []Variant{
	{Name: VariantKStrip, Alg: AlgH, Desc: "k-strip H (§4.6.3): K strips a stage, a side n = K^p, K + 1 buffers",
		KMin: 4, KMax: 64, KDefault: 4, Sides: KStripSides, Buffers: func(_, k int) int { return k + 1 }, Bound: KStripBound, Run: RunKStrip},
	{Name: VariantK2, Alg: AlgQ, Desc: "Q with k² partitions (§3.6.1): K² submeshes a stage, a side n = K^p, K² + 2 buffers",
		KMin: 4, KMax: 16, KDefault: 4, Sides: K2Sides, Buffers: func(_, k int) int { return k*k + 2 }, Bound: K2Bound, Run: RunK2},
	{Name: VariantOdd1, Alg: AlgQ, Desc: "Q on an odd square, §3.6.3's first mapping: 9 buffers",
		Sides: Odd1Sides, Buffers: func(int, int) int { return 9 }, Bound: Odd1Bound, Run: RunOdd1},
	{Name: VariantOdd2, Alg: AlgQ, Desc: "Q on an odd square, §3.6.3's second mapping (the middle row and column special): 6 buffers",
		Sides: Odd1Sides, Buffers: OddNeed(VariantOdd2), Bound: OddBound(VariantOdd2), Run: RunOddMapped(VariantOdd2)},
	{Name: VariantOdd3, Alg: AlgQ, Desc: "Q on an odd square, §3.6.3's third mapping (no south hops in steps s+1 … 2s): 5 buffers (6 where the recursion meets a 7×7 or 9×9 region: OddNeed)",
		Sides: Odd1Sides, Buffers: OddNeed(VariantOdd3), Bound: OddBound(VariantOdd3), Run: RunOddMapped(VariantOdd3)},
	{Name: Variant3D, Alg: AlgH, Desc: "H on an n×n×n mesh (§4.6.1; topology.n=3): three move/smooth pairs a stage, 3 buffers", Dims: 3,
		Sides: func(n, _ int) string { return KDSides(n, 3) }, Buffers: func(int, int) int { return 3 },
		Bound: func(n, _ int) Bound { return KDBound(n, 3) },
		Run: func(n, _, buffers int, dests [][]int32, schedule string, log io.Writer) (*Result, error) {
			return RunKD(3, n, buffers, dests, schedule, log)
		}},
	{Name: VariantKD, Alg: AlgH, Desc: "H on an n^K mesh (§4.6.2; topology.n=K, 3 … 8): K move/smooth pairs a stage, 3 buffers", Dims: -1,
		Sides: KDSides, Buffers: func(int, int) int { return 3 }, Bound: KDBound,
		Run: func(n, K, buffers int, dests [][]int32, schedule string, log io.Writer) (*Result, error) {
			return RunKD(K, n, buffers, dests, schedule, log)
		}},
	{Name: VariantQKD, Alg: AlgQ, Desc: "Q on an n^K mesh (§3.6.2; topology.n=K, 3 … 8): 2^K sub-hypercubes a stage, 2^K + 2 buffers (Table 5.1: 2^K + 1)", Dims: -1,
		Sides: KDSides, Buffers: QKDBuffers, Bound: QKDBound,
		Run: func(n, K, buffers int, dests [][]int32, schedule string, log io.Writer) (*Result, error) {
			return RunQKD(K, n, buffers, dests, schedule, log)
		}},
}

// FindVariant is the variant named name, or nil.
func FindVariant(name string) *Variant { return FindVariantFor(name, "") }

// FindVariantFor is the variant named name that extends alg (kd names
// both K-D Q and K-D H), else the first named name, or nil.
func FindVariantFor(name, alg string) *Variant {
	var found *Variant
	for i := range Variants {
		v := &Variants[i]
		if v.Name == name && v.Alg == alg {
			return v
		}
		if v.Name == name && found == nil {
			found = v
		}
	}
	return found
}

// VariantNames lists the variants' names, for messages.
func VariantNames() []string {
	var s []string
	for _, v := range Variants {
		if !slices.Contains(s, v.Name) {
			s = append(s, v.Name)
		}
	}
	return s
}

// KRule says which route.k the variant takes.
func (v *Variant) KRule() string {
	if v.KMax == 0 {
		return fmt.Sprintf("none with --variant %s", v.Name)
	}
	return fmt.Sprintf("an even number from %d to %d with --variant %s", v.KMin, v.KMax, v.Name)
}
