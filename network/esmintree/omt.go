package esmintree

import (
	"errors"
	"slices"
)

// Optimal multicast trees (OMT, §6.3.4): the trees with the fewest channels.
//
// After position i, destinations that differ in a bit whose latest stage is
// at or before i sit on different channels (that stage wrote the bit into
// the address and no later stage changes it), so every tree uses at least
// as many channels there as there are classes of destinations by those
// bits. LB uses exactly that many (Theorem 6), so a tree is optimal iff its
// branches are exactly these classes at every stage: no branch splits
// except at the latest stage of a dimension, where the destinations' bit
// splits it. What remains free is the port each branch takes at every other
// stage; the search tries both and drops choices where two branches need one
// output. Tests compare it with the brute force over every path assignment.

// ErrTooMany is returned by Optimal when there are more than max trees.
var ErrTooMany = errors.New("more optimal multicast trees than the limit")

// class is a branch of every optimal tree at one stage.
type class struct {
	parent int   // class index at the previous stage (−1 at the first)
	bit    int8  // forced port (the destinations' bit at a latest stage), or −1
	dests  []int // its destinations, ascending
}

// Optimal enumerates the optimal trees from src to dests (distinct) and
// returns them, each with its Paths in dests' order. It stops with
// ErrTooMany once more than max are found.
func (t *Net) Optimal(src int, dests []int, max int) ([]Tree, error) {
	h := t.Stages()
	cls := make([][]class, h)
	prev := []class{{parent: -1, bit: -1, dests: slices.Sorted(slices.Values(dests))}}
	for i := 0; i < h; i++ {
		c := t.Dim(i)
		for b, p := range prev {
			if !t.latest[i] {
				cls[i] = append(cls[i], class{parent: b, bit: -1, dests: p.dests})
				continue
			}
			for bit := range 2 {
				var ds []int
				for _, d := range p.dests {
					if d>>c&1 == bit {
						ds = append(ds, d)
					}
				}
				if len(ds) > 0 {
					cls[i] = append(cls[i], class{parent: b, bit: int8(bit), dests: ds})
				}
			}
		}
		prev = cls[i]
	}
	s := omtSearch{t: t, cls: cls, src: src, dests: dests, max: max,
		x: make([][]int, h), port: make([][]int8, h), used: make([][]uint64, h)}
	for i := range cls {
		s.x[i], s.port[i], s.used[i] = make([]int, len(cls[i])), make([]int8, len(cls[i])), make([]uint64, (1<<t.n+63)/64)
	}
	// Count first: building trees that would be refused costs the most.
	s.count = true
	s.rec(0, 0)
	if s.over {
		return nil, ErrTooMany
	}
	s.count, s.found = false, 0
	s.rec(0, 0)
	return s.trees, nil
}

type omtSearch struct {
	t     *Net
	cls   [][]class
	src   int
	dests []int
	max   int
	x     [][]int    // input address of each class
	port  [][]int8   // port it takes
	used  [][]uint64 // per stage: a bit per output address in use
	trees []Tree
	found int  // leaves reached
	count bool // only count leaves
	over  bool
}

// rec chooses the port of class b at position i and goes on.
func (s *omtSearch) rec(i, b int) {
	if s.over {
		return
	}
	if i == len(s.cls) {
		s.leaf()
		return
	}
	if b == len(s.cls[i]) {
		s.rec(i+1, 0)
		return
	}
	c := s.cls[i][b]
	x := s.src
	if i > 0 {
		x = s.t.Next(i-1, s.x[i-1][c.parent], int(s.port[i-1][c.parent]))
	}
	s.x[i][b] = x
	for p := range 2 {
		if c.bit >= 0 && int(c.bit) != p {
			continue
		}
		o := out(x, p)
		w, bit := &s.used[i][o>>6], uint64(1)<<(o&63)
		if *w&bit != 0 {
			continue // two branches would need one output
		}
		*w |= bit
		s.port[i][b] = int8(p)
		s.rec(i, b+1)
		*w &^= bit
	}
}

// leaf records the tree just completed, rebuilt from its paths by
// BuildPaths (which counts its channels and checks it does not block).
func (s *omtSearch) leaf() {
	if s.found++; s.found > s.max {
		s.over = true
		return
	}
	if s.count {
		return
	}
	h := len(s.cls)
	q := make([]uint64, len(s.dests))
	path := make([]byte, h)
	for k, d := range s.dests {
		b := slices.IndexFunc(s.cls[h-1], func(c class) bool { return c.dests[0] == d })
		for i := h - 1; i >= 0; i-- {
			path[i] = byte('0' + s.port[i][b])
			b = s.cls[i][b].parent
		}
		q[k] = s.t.PathIndex(string(path))
	}
	s.trees = append(s.trees, s.t.BuildPaths(q, s.src, s.dests))
}
