package esmintree

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// Tree is a multicast tree: the union of one path per destination.
type Tree struct {
	// PerStage is the number of channels (switch outputs) used after each
	// stage, leftmost first; the last entry counts ejection links.
	PerStage []int
	// Channels is the traffic T: the source's injection link plus every
	// used stage output, ejection links included.
	Channels int
	// Blocked is true when two branches that parted need one output port
	// of one switch again: a switch cannot merge two copies (RB, §6.4.3).
	Blocked bool
	// Paths is each destination's port at every stage, leftmost first, as
	// "0"/"1" characters (the routing tag t_i with every choice made).
	Paths []string
}

// Build routes a multicast from src to dests by alg with random draw aux.
func (t *Net) Build(alg Alg, aux uint64, src int, dests []int) Tree {
	return t.walk(src, dests, func(i, x, d, _ int) int { return t.Port(alg, aux, i, x, d) })
}

// BuildPaths routes destination dests[k] on path q[k] (PathPort).
func (t *Net) BuildPaths(q []uint64, src int, dests []int) Tree {
	return t.walk(src, dests, func(i, _, d, k int) int { return t.PathPort(q[k], i, d) })
}

// walk follows each destination's route (port(i, x, d, k) at position i for
// the k-th destination d at input x) and counts the channels. A channel is
// fed by one parent (the previous stage's channel or the injection link); a
// channel with two parents is a merge, which blocks.
func (t *Net) walk(src int, dests []int, port func(i, x, d, k int) int) Tree {
	h := t.Stages()
	tr := Tree{PerStage: make([]int, h), Channels: 1, Paths: make([]string, len(dests))}
	x := make([]int, len(dests))
	prev := make([]int, len(dests))
	buf := make([][]byte, len(dests))
	for k := range dests {
		x[k], prev[k], buf[k] = src, -1, make([]byte, h)
	}
	// A channel's parent is checked with a table over the addresses when
	// the destinations are many, else by sorting (channel, parent) pairs.
	var seen []uint64
	pairs := make([]uint64, len(dests))
	if tableFrom*len(dests) >= 1<<t.n {
		seen = make([]uint64, 1<<t.n)
	}
	for i := 0; i < h; i++ {
		for k, d := range dests {
			p := port(i, x[k], d, k)
			buf[k][i] = byte('0' + p)
			o := out(x[k], p)
			pairs[k] = uint64(o)<<32 | uint64(uint32(prev[k]+1))
			prev[k], x[k] = o, t.Next(i, x[k], p)
		}
		if seen != nil {
			stamp := uint64(i+1) << 32
			for _, v := range pairs {
				switch o, par := v>>32, v&0xffffffff; {
				case seen[o]&^0xffffffff != stamp:
					seen[o] = stamp | par
					tr.PerStage[i]++
				case seen[o]&0xffffffff != par:
					tr.Blocked = true
				}
			}
		} else {
			slices.Sort(pairs)
			for k, v := range pairs {
				if k > 0 && v>>32 == pairs[k-1]>>32 {
					tr.Blocked = tr.Blocked || v != pairs[k-1]
					continue
				}
				tr.PerStage[i]++
			}
		}
		tr.Channels += tr.PerStage[i]
	}
	for k, d := range dests {
		tr.Paths[k] = string(buf[k])
		if x[k] != d { // every path of §6.3.3 delivers: a bug if not
			panic(fmt.Sprintf("esmintree: route %d→%d ended at %d", src, d, x[k]))
		}
	}
	return tr
}

// tableFrom: walk uses the address table when tableFrom × destinations ≥
// N (a variable so that a test can try both ways).
var tableFrom = 16

// Assignments calls fn with every assignment of one of the 2^m paths to each
// destination, (2^m)^k in all (the routing tags RB draws from, and the
// brute-force search space of every tree). It refuses more than limit.
func (t *Net) Assignments(src int, dests []int, limit int, fn func(q []uint64, tr Tree)) error {
	m, k := t.Extra(), len(dests)
	if m*k > 62 || 1<<(m*k) > limit {
		return fmt.Errorf("2^(%d·%d) path assignments, more than %d", m, k, limit)
	}
	q := make([]uint64, k)
	for a := uint64(0); a < 1<<(m*k); a++ {
		for j := range q {
			q[j] = a >> uint(m*j) & (1<<m - 1)
		}
		fn(q, t.BuildPaths(q, src, dests))
	}
	return nil
}

// PathIndex is the path (PathPort's q) whose ports are the string p.
func (t *Net) PathIndex(p string) uint64 {
	var q uint64
	for i := range p {
		if f := t.free[i]; f >= 0 && p[i] == '1' {
			q |= 1 << uint(f)
		}
	}
	return q
}

// RandomCase draws a small multicast for brute-force checks: an 8- or
// 16-node CU-ESMIN with 1–3 extra stages of random nonzero dimensions
// inserted into a MIN, a source and 1–3 distinct destinations (at most 2
// with 3 extra stages, so every path assignment can be tried).
func RandomCase(rng *rand.Rand) (dims []int, src int, dests []int) {
	nb, m := 3+rng.IntN(2), 1+rng.IntN(3)
	for c := nb - 1; c >= 1; c-- {
		dims = append(dims, c)
	}
	for range m {
		dims = slices.Insert(dims, rng.IntN(len(dims)+1), 1+rng.IntN(nb-1))
	}
	dims = append(dims, 0)
	k := 1 + rng.IntN(3)
	if m == 3 {
		k = min(k, 2)
	}
	dests = rng.Perm(1 << nb)[:k]
	slices.Sort(dests)
	return dims, rng.IntN(1 << nb), dests
}
