package gridlayout

import (
	"sort"

	"github.com/flitsim/flitsim/network/topology"
)

// Pair is an undirected edge {U, V} with U ≤ V.
type Pair struct{ U, V int }

func pairOf(u, v int) Pair {
	if u > v {
		u, v = v, u
	}
	return Pair{u, v}
}

// GraphOf is the undirected multigraph of a topology's switch-to-switch
// links, as the simulator wires them: the pair {u, v} appears as often as
// the larger of the number of links u→v and v→u, so a bidirectional channel
// pair is one wire, and the 2-ary torus's two channel pairs between
// neighbours (one direct, one wraparound) are two. Terminal links and
// self-loops are not laid out. The result is sorted.
func GraphOf(t *topology.Topology) []Pair {
	dir := map[[2]int]int{}
	for u, sw := range t.Switches {
		for _, end := range sw.Out {
			if end.Switch >= 0 && int(end.Switch) != u {
				dir[[2]int{u, int(end.Switch)}]++
			}
		}
	}
	var out []Pair
	for k, c := range dir {
		u, v := k[0], k[1]
		if rev := dir[[2]int{v, u}]; rev > c || (rev == c && u > v) {
			continue // counted from the other direction
		}
		for range c {
			out = append(out, pairOf(u, v))
		}
	}
	sortPairs(out)
	return out
}

func sortPairs(p []Pair) {
	sort.Slice(p, func(i, j int) bool {
		if p[i].U != p[j].U {
			return p[i].U < p[j].U
		}
		return p[i].V < p[j].V
	})
}

// MaxDegree is the largest number of edges at one vertex of the multigraph.
func MaxDegree(nodes int, g []Pair) int {
	deg := make([]int, nodes)
	m := 0
	for _, p := range g {
		deg[p.U]++
		deg[p.V]++
		m = max(m, deg[p.U], deg[p.V])
	}
	return m
}
