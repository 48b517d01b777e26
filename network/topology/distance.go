package topology

import (
	"fmt"
	"math/bits"
	"math/rand/v2"

	"github.com/flitsim/flitsim/flit"
)

// Distances counts, over ordered pairs of terminals, the links crossed
// between switches: on the built graph (BFS, shortest paths) or on the
// routes the routing function takes (Trace, hop by hop). A pair of
// terminals on one switch is at distance 0.
type Distances struct {
	Terminals int
	Hist      []int64 // Hist[h]: ordered pairs (self-pairs included) at distance h
	Sum       int64   // Σ distance over all ordered pairs
	SelfSum   int64   // Σ distance over the pairs source = destination (a MIN's routes cross it)
}

// Diameter is the largest distance.
func (d Distances) Diameter() int { return len(d.Hist) - 1 }

// MeanAll is the mean over all N² ordered pairs, self-pairs included (the
// folded-cube paper's MID).
func (d Distances) MeanAll() float64 {
	n := float64(d.Terminals)
	return float64(d.Sum) / (n * n)
}

// MeanDistinct is the mean over the N(N−1) pairs with source ≠ destination.
func (d Distances) MeanDistinct() float64 {
	n := float64(d.Terminals)
	return float64(d.Sum-d.SelfSum) / (n * (n - 1))
}

func (d *Distances) add(h int, count int64) {
	for len(d.Hist) <= h {
		d.Hist = append(d.Hist, 0)
	}
	d.Hist[h] += count
	d.Sum += int64(h) * count
}

// GraphDistances is the shortest-path distance distribution of t's switch
// graph (links between switches, each one hop, in their direction) between
// the switches its terminals attach to — for direct networks, where a
// terminal injects into and ejects from one switch. It fails if some
// terminal cannot reach another. It runs the BFS from 64 sources at once, one bit per
// source in a word per switch, so a level costs one pass over the links.
func GraphDistances(t *Topology) (Distances, error) {
	ns := len(t.Switches)
	terms := make([]int64, ns) // terminals per switch
	for _, s := range t.InSwitch {
		terms[s]++
	}
	var srcs []int32
	off := make([]int32, ns+1) // out-neighbours of u: adj[off[u]:off[u+1]]
	var adj []int32
	for u, sw := range t.Switches {
		if terms[u] > 0 {
			srcs = append(srcs, int32(u))
		}
		for _, e := range sw.Out {
			if e.Switch >= 0 {
				adj = append(adj, e.Switch)
			}
		}
		off[u+1] = int32(len(adj))
	}
	d := Distances{Terminals: t.Terminals()}
	seen := make([]uint64, ns)
	front := make([]uint64, ns)
	next := make([]uint64, ns)
	for b := 0; b < len(srcs); b += 64 {
		batch := srcs[b:min(b+64, len(srcs))]
		clear(seen)
		clear(front)
		for i, s := range batch {
			front[s] |= 1 << i
			seen[s] |= 1 << i
		}
		for level := 0; ; level++ {
			more := false
			for v, f := range front {
				if f != 0 && terms[v] > 0 {
					d.add(level, terms[v]*batchWeight(f, batch, terms))
				}
			}
			clear(next)
			for u, f := range front {
				if f == 0 {
					continue
				}
				for _, v := range adj[off[u]:off[u+1]] {
					next[v] |= f
				}
			}
			for v := range next {
				next[v] &^= seen[v]
				seen[v] |= next[v]
				more = more || next[v] != 0
			}
			if !more {
				break
			}
			front, next = next, front
		}
		full := uint64(1)<<len(batch) - 1
		if len(batch) == 64 {
			full = ^uint64(0)
		}
		for v := range ns {
			if terms[v] > 0 && seen[v] != full {
				miss := batch[bits.TrailingZeros64(full&^seen[v])]
				return d, fmt.Errorf("switch %s cannot reach switch %s", t.Switches[miss].Label, t.Switches[v].Label)
			}
		}
	}
	return d, nil
}

// batchWeight is the number of terminals on the sources whose bits are
// set in f.
func batchWeight(f uint64, batch []int32, terms []int64) int64 {
	var w int64
	for ; f != 0; f &= f - 1 {
		w += terms[batch[bits.TrailingZeros64(f)]]
	}
	return w
}

// RouteDistances traces t's routing function (Trace) from every terminal
// to every terminal, self included, and counts the links each route
// crosses between switches. Router.Init runs per packet with rng first (a
// fixed stream when rng is nil).
func RouteDistances(t *Topology, rng *rand.Rand) (Distances, error) {
	if rng == nil {
		rng = rand.New(rand.NewPCG(1, 2))
	}
	n := t.Terminals()
	d := Distances{Terminals: n}
	for src := range n {
		for dst := range n {
			w := &flit.Worm{Src: int32(src), Dst: int32(dst)}
			t.Router.Init(w, rng)
			hops, err := Trace(t, w)
			if err != nil {
				return d, err
			}
			d.add(len(hops)-1, 1)
			if src == dst {
				d.SelfSum += int64(len(hops) - 1)
			}
		}
	}
	return d, nil
}
