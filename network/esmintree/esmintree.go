// Package esmintree holds the multicast tree algorithms of extra-stage cube
// MINs (CU-ESMIN, Chiang 1995 Ch. 6; digest notes/seeds/001 §2.6, §4.5):
// Latest Branch (LB), First Branch (FB), Random Branch (RB) and Random
// Mapping (RM), and the enumeration of every optimal multicast tree (OMT).
// It is the one home of these rules: the esmin router of network/topology
// asks Port at every hop, and `flitsim multicast-tree` builds whole trees
// with Build and Optimal.
//
// Stages are numbered by position i = 0 … h−1 from the left (G_{h−1} is
// position 0). A packet at input address x of a stage of dimension c that
// takes port p leaves on output address (x with bit 0 replaced by p), and the
// next stage sees that address with bits 0 and c swapped (C = β_c). Bit j of
// the delivered address is the port taken at the latest stage of dimension
// j; "straight" (p = bit c of x) keeps the row.
package esmintree

import (
	"fmt"
	"strings"
)

// Alg is a tree algorithm.
type Alg uint8

const (
	LB Alg = iota // latest branch: each bit decided at the last stage of its dimension, straight elsewhere
	FB            // first branch: decided at the first stage of its dimension
	RB            // random branch: last stage decides, elsewhere a random port per destination and stage
	RM            // random mapping: one random stage per dimension (per multicast) decides
)

var algNames = []string{"lb", "fb", "rb", "rm"}

func (a Alg) String() string { return algNames[a] }

// AlgNames lists the algorithms' names.
func AlgNames() []string { return algNames }

// ParseAlg reads an algorithm name; the topology.path spellings first,
// latest and random are accepted as FB, LB and RB.
func ParseAlg(s string) (Alg, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "lb", "latest", "latest-branch":
		return LB, true
	case "fb", "first", "first-branch":
		return FB, true
	case "rb", "random", "random-branch":
		return RB, true
	case "rm", "random-mapping":
		return RM, true
	}
	return 0, false
}

// Net is a CU-ESMIN(N: c_{h−1}, …, c_0) as the algorithms see it.
type Net struct {
	dim    []int8  // dimension of the stage at position i
	latest []bool  // position i is the last (rightmost) stage of its dimension
	first  []bool  // position i is the first (leftmost) stage of its dimension
	free   []int8  // bit of a path index a non-latest stage takes (−1 at latest stages)
	stages [][]int // positions of each dimension's stages, left to right
	n, m   int     // address bits; extra stages
}

// New reads stage dimensions dims (leftmost first). They must use every
// dimension 0 … n−1 with 0 only at the last position.
func New(dims []int) (*Net, error) {
	h, n := len(dims), 0
	for _, c := range dims {
		n = max(n, c+1)
	}
	t := &Net{dim: make([]int8, h), latest: make([]bool, h), first: make([]bool, h), free: make([]int8, h),
		stages: make([][]int, n), n: n}
	for i, c := range dims {
		if c < 0 || c > 30 || (c == 0) != (i == h-1) {
			return nil, fmt.Errorf("esmin dims %v: dimension 0 must be the last stage and only there", dims)
		}
		t.dim[i] = int8(c)
		t.first[i] = len(t.stages[c]) == 0
		t.stages[c] = append(t.stages[c], i)
	}
	for c, st := range t.stages {
		if len(st) == 0 {
			return nil, fmt.Errorf("esmin dims %v: no stage of dimension %d", dims, c)
		}
		t.latest[st[len(st)-1]] = true
	}
	for i := range dims {
		t.free[i] = -1
		if !t.latest[i] {
			t.free[i] = int8(t.m)
			t.m++
		}
	}
	return t, nil
}

// Stages is the number of stages h; Bits the address bits n (N = 2^n);
// Extra the extra stages m = h − n (2^m paths per pair, Lemma 14).
func (t *Net) Stages() int { return len(t.dim) }
func (t *Net) Bits() int   { return t.n }
func (t *Net) Extra() int  { return t.m }

// Dim is the dimension of the stage at position i.
func (t *Net) Dim(i int) int { return int(t.dim[i]) }

// Latest reports whether position i is the last stage of its dimension
// (where every algorithm but FB and RM decides the bit); Null stages are the
// others, which LB crosses straight (Fig 6.6's marking).
func (t *Net) Latest(i int) bool { return t.latest[i] }

// Port is the output port (0 up, 1 down) that alg takes at position i for a
// copy at input address x bound to destination d. aux is the multicast's
// random draw (RB, RM); the same aux gives the same tree.
func (t *Net) Port(alg Alg, aux uint64, i, x, d int) int {
	c := int(t.dim[i])
	var decide bool
	switch alg {
	case FB:
		decide = t.first[i]
	case RM:
		st := t.stages[c]
		decide = st[mix(aux, uint64(c), 0)%uint64(len(st))] == i
	case RB:
		if !t.latest[i] {
			// The switch sends each destination's tag up or down at
			// random, independently per destination (§6.3.2).
			return int(mix(aux, uint64(d)+1, uint64(i)+1) & 1)
		}
		decide = true
	default:
		decide = t.latest[i]
	}
	if decide {
		return d >> c & 1
	}
	return x >> c & 1 // straight
}

// PathPort is the port at position i on path q of a pair (Lemma 14): the
// latest stage of each dimension takes the destination's bit, and the f-th
// other stage from the left takes bit f of q.
func (t *Net) PathPort(q uint64, i, d int) int {
	if f := t.free[i]; f >= 0 {
		return int(q >> uint(f) & 1)
	}
	return d >> t.dim[i] & 1
}

// Next is the input address at position i+1 (or the terminal after the
// last stage) of a copy that leaves position i's switch for input x on port p.
func (t *Net) Next(i, x, p int) int { return swap(out(x, p), int(t.dim[i])) }

// out is the output address a copy at input x leaves on through port p.
func out(x, p int) int { return x&^1 | p }

// swap is β_c: bits 0 and c exchanged.
func swap(a, c int) int {
	b0, bc := a&1, a>>c&1
	return a&^(1|1<<c) | bc | b0<<c
}

// mix is SplitMix64's finaliser over three words: a fixed, well-spread
// function, so a multicast's random choices are a function of its draw.
func mix(a, b, c uint64) uint64 {
	z := a ^ b*0x9e3779b97f4a7c15 ^ c*0xbf58476d1ce4e5b9
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
