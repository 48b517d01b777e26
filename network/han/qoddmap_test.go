package han

import (
	"errors"
	"testing"
)

// Odd Q's second and third mappings on odd squares from 3 to 33: random
// permutations (several seeds), rot180 and the transpose are delivered
// on the pools the variants need (OddNeed: 6 for the second; 5 for the
// third, 6 where a 7×7 or 9×9 region occurs): the machine refuses any
// step that would overfill one; the integer steps stay within 1.5n.
// (verify --only han-q-odd23-full runs larger sizes.)
func TestOddMappedRandom(t *testing.T) {
	for _, v := range []string{VariantOdd2, VariantOdd3} {
		run := RunOddMapped(v)
		for _, n := range []int{3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31, 33, 37} {
			buf := FindVariant(v).Buffers(n, 0)
			inputs, err := oddPermutations(n)
			if err != nil {
				t.Fatal(err)
			}
			for seed := uint64(4); seed < 6; seed++ {
				p, _ := Permutation("random", n, seed)
				inputs = append(inputs, Lists(p))
			}
			for i, in := range inputs {
				r, err := run(n, 0, buf, in, Actual, nil)
				if err != nil {
					t.Fatalf("%s n=%d input %d: %v", v, n, i, err)
				}
				if r.MaxBuffer > buf || float64(r.IntegerSteps) > r.Bound.IntegerSteps {
					t.Errorf("%s n=%d input %d: buffers %d, %d integer steps", v, n, i, r.MaxBuffer, r.IntegerSteps)
				}
			}
		}
	}
}

// The thesis's tables on the first stage: the second mapping's move
// leaves IV(s−1, s−1) holding six when II(s,s) and the four ordinary
// sources all send there (n = 2s+1 = 11), and the machine refuses the
// step on five buffers; the third mapping's first move never holds more
// than five (rot180: every message crosses to the diagonal quadrant).
func TestOddMappedTables(t *testing.T) {
	const s, n = 5, 11
	dest := make([]int32, n*n)
	for i := range dest {
		dest[i] = -1
	}
	at := func(r, c int) int { return r*n + c }
	iv := at(2*s, 2*s) // IV(s−1, s−1)
	// own, I(s−1,s−1), II(s−1,s−1), III(s−1,s−1) and II(s,s), all bound for
	// distinct processors of IV.
	srcs := []int{iv, at(s-1, 2*s), at(s-1, s-1), at(2*s, s-1), at(s, s)}
	for k, p := range srcs {
		dest[p] = int32(at(s+1+k, s+1))
	}
	dest[iv] = int32(iv)
	r, err := RunOddMapped(VariantOdd2)(n, 0, 6, Lists(dest), Actual, nil)
	if err != nil || r.Stages[0].Phases[0].MaxBuffer != 5 {
		t.Fatalf("second mapping: %v, first move held %v", err, r)
	}
	// (five at IV(s−1,s−1): own + the three ordinary + II(s,s); the sixth
	// source is III(s−1, s), which the third table maps there too.)
	dest[at(2*s, s)] = int32(at(s+1, s+2))
	r, err = RunOddMapped(VariantOdd2)(n, 0, 6, Lists(dest), Actual, nil)
	if err != nil || r.Stages[0].Phases[0].MaxBuffer != 6 {
		t.Fatalf("second mapping, six sources: %v, %+v", err, r)
	}
	var ref *Refusal
	if _, err := RunOddMapped(VariantOdd2)(n, 0, 5, Lists(dest), Actual, nil); !errors.As(err, &ref) {
		t.Errorf("second mapping on 5 buffers: %v, want a refused step", err)
	}
	for _, m := range []int{11, 21, 33, 63} {
		p, _ := Permutation("rot180", m, 1)
		r, err := RunOddMapped(VariantOdd3)(m, 0, 5, Lists(p), Actual, nil)
		if err != nil || r.Stages[0].Phases[0].MaxBuffer > 5 {
			t.Errorf("third mapping n=%d: %v", m, err)
		}
	}
}

// The mappings' worst loads, counted from the tables: the second leaves
// at most 6 in a processor on odd squares s ≥ 3, the third at most 5 for
// s ≥ 5 (and 6 or more at s = 3, 4, where its exceptions collide).
func TestOddMapLoads(t *testing.T) {
	for s := 3; s <= 40; s++ {
		n := 2*s + 1
		if w := newOddMap(n, n, VariantOdd2).worst; w > 6 {
			t.Errorf("second mapping, s=%d: %d", s, w)
		}
		w := newOddMap(n, n, VariantOdd3).worst
		if s >= 5 && w > 5 || s < 5 && w <= 5 {
			t.Errorf("third mapping, s=%d: worst load %d", s, w)
		}
	}
	for _, c := range [][2]int{{6, 5}, {5, 6}, {16, 15}, {15, 16}, {32, 31}} {
		if w := newOddMap(c[0], c[1], VariantOdd3).worst; w > 5 {
			t.Errorf("third mapping on %d×%d: %d", c[0], c[1], w)
		}
	}
}
