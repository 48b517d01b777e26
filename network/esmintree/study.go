package esmintree

import (
	"math"
	"math/rand/v2"
	"slices"
)

// Chiang §6.5 measures each algorithm over random destination sets: source
// node 0 of a CU-ESMIN(64:10), 2 to 64 destinations, 500 random sets of
// each size. T is the mean number of channels carrying a copy; B (RB only)
// is 1 − successes / trials, the fraction of trees that block.

// Point is the study of one destination count.
type Point struct {
	Dests    int     `json:"destinations"`
	Sets     int     `json:"sets"`
	Channels float64 `json:"mean_channels"` // T over the trees that do not block
	CI95     float64 `json:"channels_ci95"` // half-width of T's 95 % interval (normal, 0 below 2 trees)
	Blocked  int     `json:"blocked"`
	Blocking float64 `json:"blocking"` // B = blocked / sets
}

// RandomDests draws k distinct nodes of n uniformly, ascending (the source
// may be among them, as in a broadcast to all 64).
func RandomDests(rng *rand.Rand, n, k int) []int {
	d := rng.Perm(n)[:k]
	slices.Sort(d)
	return d
}

// Study builds alg's tree from src to sets random sets of k destinations
// (one random draw per tree) and summarises them.
func (t *Net) Study(alg Alg, src, k, sets int, rng *rand.Rand) Point {
	p := Point{Dests: k, Sets: sets}
	var sum, sq float64
	ok := 0
	for range sets {
		tr := t.Build(alg, rng.Uint64(), src, RandomDests(rng, 1<<t.n, k))
		if tr.Blocked {
			p.Blocked++
			continue
		}
		ok++
		c := float64(tr.Channels)
		sum, sq = sum+c, sq+c*c
	}
	p.Blocking = float64(p.Blocked) / float64(sets)
	if ok > 0 {
		p.Channels = sum / float64(ok)
	}
	if ok > 1 {
		v := (sq - sum*sum/float64(ok)) / float64(ok-1)
		p.CI95 = 1.96 * math.Sqrt(max(v, 0)/float64(ok))
	}
	return p
}
