package topology

import (
	"fmt"
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
	return float64(d.Sum) / (n * (n - 1))
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
// the switches its terminals attach to. It fails if some terminal cannot
// reach another. It costs a BFS per switch that has terminals.
func GraphDistances(t *Topology) (Distances, error) {
	ns := len(t.Switches)
	terms := make([]int64, ns) // terminals per switch
	for _, s := range t.InSwitch {
		terms[s]++
	}
	d := Distances{Terminals: t.Terminals()}
	dist := make([]int32, ns)
	queue := make([]int32, 0, ns)
	for src := range ns {
		if terms[src] == 0 {
			continue
		}
		for i := range dist {
			dist[i] = -1
		}
		dist[src] = 0
		queue = append(queue[:0], int32(src))
		for q := 0; q < len(queue); q++ {
			u := queue[q]
			for _, e := range t.Switches[u].Out {
				if e.Switch >= 0 && dist[e.Switch] < 0 {
					dist[e.Switch] = dist[u] + 1
					queue = append(queue, e.Switch)
				}
			}
		}
		for v := range ns {
			if terms[v] == 0 {
				continue
			}
			if dist[v] < 0 {
				return d, fmt.Errorf("switch %s cannot reach switch %s", t.Switches[src].Label, t.Switches[v].Label)
			}
			d.add(int(dist[v]), terms[src]*terms[v])
		}
	}
	return d, nil
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
		}
	}
	return d, nil
}
