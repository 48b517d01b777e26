package topology

import (
	"fmt"
	"strings"
)

// Rectangular meshes and tori: topology.k may be a list, one side per
// dimension (dimension 0 first). Design: Spec.K stays the side of the
// common square case, so every existing scalar run is untouched; a list
// whose sides differ is kept in Spec.Sides with K = 0 — a consumer that
// still reads K alone then sees an invalid k and refuses, instead of
// silently building a square. A list of equal sides as long as n is the
// square case and is stored as K (Canonical), so `k: [8, 8]` is `k: 8`.
// Every mesh/torus consumer reads sides through Side.

// Side is the number of nodes along dimension dim of a mesh or torus.
func (s Spec) Side(dim int) int {
	if len(s.Sides) == 0 {
		return s.K
	}
	if dim < 0 || dim >= len(s.Sides) {
		return 0
	}
	return s.Sides[dim]
}

// Rectangular reports whether topology.k was given as a per-dimension
// list that Canonical could not fold into K.
func (s Spec) Rectangular() bool { return len(s.Sides) > 0 }

// SetSides stores a list written for topology.k (see Canonical).
func (s *Spec) SetSides(l IntList) {
	s.K, s.Sides = 0, append(IntList(nil), l...)
}

// AcceptsSides reports whether kind's topology.k may be a list of sides.
func AcceptsSides(kind string) bool {
	k, ok := lookup(norm(kind))
	if !ok {
		return false
	}
	p, ok := k.Param("k")
	return ok && p.Sides
}

// Canonical fills an omitted n from a list of sides and folds a list of
// equal sides as long as n into the scalar K, for a kind that accepts a
// list (another kind keeps the list, and Build refuses it).
func (s Spec) Canonical() Spec {
	if len(s.Sides) == 0 || !AcceptsSides(s.Kind) {
		return s
	}
	if s.N == 0 {
		s.N = len(s.Sides)
	}
	if len(s.Sides) != s.N {
		return s
	}
	for _, v := range s.Sides {
		if v != s.Sides[0] {
			return s
		}
	}
	s.K, s.Sides = s.Sides[0], nil
	return s
}

// kValue is topology.k as an error message shows it: the integer, or the
// list of sides.
func (s Spec) kValue() string {
	if len(s.Sides) > 0 {
		return joinInts(s.Sides)
	}
	return itoa(s.K)
}

// isList reports whether value (a --set or file scalar) writes topology.k
// as a list: it has a comma or brackets.
func isList(value string) bool { return strings.ContainsAny(value, ",[]") }

// sidesProduct is the number of routers of the mesh or torus s, or -1 when
// it exceeds MaxTerminals.
func sidesProduct(s Spec) int {
	p := 1
	for i := 0; i < s.N; i++ {
		if p *= s.Side(i); p > MaxTerminals || p <= 0 {
			return -1
		}
	}
	return p
}

// checkSides is the check of topology.k written as a list: n sides, each
// at least 2, with at most MaxTerminals routers in all.
func checkSides(s Spec) string {
	if len(s.Sides) > maxMeshDims {
		return fmt.Sprintf("a list of at most %d sides (one per dimension)", maxMeshDims)
	}
	if len(s.Sides) != s.N {
		return fmt.Sprintf("a list of n = %d sides, one per dimension (or omit topology.n: it is then the list's length)", s.N)
	}
	for _, v := range s.Sides {
		if v < 2 {
			return "sides of at least 2 (nodes per dimension)"
		}
	}
	if sidesProduct(s) < 0 {
		return fmt.Sprintf("sides whose product (the number of routers) is at most %d", MaxTerminals)
	}
	return ""
}

// refuseSides is Build's error for a list of sides on a kind whose k is
// one number (or that has no k).
func refuseSides(k *KindSpec, s Spec) string {
	if len(s.Sides) == 0 {
		return ""
	}
	if p, ok := k.Param("k"); ok && p.Sides {
		return ""
	}
	if _, ok := k.Param("k"); ok {
		return "a single integer for " + k.Name + " (a list of sides, one per dimension, is for mesh and torus)"
	}
	return "no value for " + k.Name + " (it has no parameter k; a list of sides is for mesh and torus)"
}

// meshSides lists the nodes along each dimension of the mesh or torus s.
func meshSides(s Spec) []int {
	out := make([]int, s.N)
	for i := range out {
		out[i] = s.Side(i)
	}
	return out
}

// meshStrides is the place value of each coordinate (Π_{j<i} side_j) and,
// last, the number of routers.
func meshStrides(s Spec) []int {
	pow := make([]int, s.N+1)
	pow[0] = 1
	for i := 0; i < s.N; i++ {
		pow[i+1] = pow[i] * s.Side(i)
	}
	return pow
}

// anyEvenSide reports whether some ring of the torus s has an even side,
// where a route can meet a tie at exactly half the ring.
func anyEvenSide(s Spec) bool {
	for i := 0; i < s.N; i++ {
		if s.Side(i)%2 == 0 {
			return true
		}
	}
	return false
}
