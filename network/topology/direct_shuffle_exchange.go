package topology

import (
	"fmt"
	"math/rand/v2"

	"github.com/flitsim/flitsim/flit"
	xbar "github.com/flitsim/flitsim/switch"
)

// The shuffle-exchange graph (Brebner 1983 §3.5): 2^n routers v_{n−1}…v_0,
// each with one terminal. Out-links: shuffle, the cyclic left rotation
// v_{n−2}…v_0 v_{n−1} (a directed link; self-loops at 0^n and 1^n), and
// exchange, v with bit 0 flipped.

func init() {
	Register(KindSpec{
		Name: "shuffle-exchange",
		Desc: "shuffle-exchange graph, 2^n routers each with one terminal; directed shuffle links (self-loops at 0…0 and 1…1) and exchange links",
		Params: []Param{
			{Key: "n", Default: "4", Allowed: "an integer from 1 to 20 (2^n routers)",
				Desc: "address bits: 2^n routers",
				Check: func(s Spec) string {
					if s.N < 1 || s.N > 20 {
						return fmt.Sprintf("an integer from 1 to 20 (2^n ≤ %d routers)", MaxTerminals)
					}
					return ""
				}},
		},
		Routings: []Routing{{Name: "standard", Aliases: []string{"brebner"}, New: newSERouter,
			Desc: "n shuffles, each followed (and the first preceded by none) by an exchange where the destination bit differs: n + Hamming hops (Brebner §3.5)"}},
		Build: buildShuffleExchange,
		Size:  func(s Spec) Size { return uniform(1<<s.N, 3) },
	})
}

// buildShuffleExchange wires the graph. Port 0 (shuffle) of v leads to
// rotl(v), arriving on its port 0 (rotation is a permutation, so each
// router has one shuffle in-link); port 1 (exchange) leads to v ⊕ 1,
// arriving on its port 1; port 2 is local.
func buildShuffleExchange(s Spec) (*Topology, error) {
	n := s.N
	nodes := 1 << n
	t := &Topology{
		Switches: newSwitches(nodes, 3),
		InSwitch: make([]int32, nodes),
		InPort:   make([]int32, nodes),
		Radix:    2,
		Digits:   n,
	}
	for v := range t.Switches {
		sw := &t.Switches[v]
		sw.Label = "n" + digitString(v, 2, n)
		sw.Out[0] = End{Switch: int32(rotl(v, n)), Port: 0, Terminal: -1}
		sw.Out[1] = End{Switch: int32(v ^ 1), Port: 1, Terminal: -1}
		sw.Out[2] = End{Switch: -1, Terminal: int32(v)}
		t.InSwitch[v] = int32(v)
		t.InPort[v] = 2
	}
	t.PortNames = []string{"shuffle", "exchange", "local"}
	return t, nil
}

// rotl rotates the n-bit v left by one.
func rotl(v, n int) int { return (v<<1)&(1<<n-1) | v>>(n-1) }

func newSERouter(_ *Topology, s Spec) (Router, error) { return &seRouter{n: s.N}, nil }

// seRouter is Brebner's shuffle-exchange route: first a shuffle; then at
// stage i = n−1 … 0 an exchange if destination bit i differs from the
// router's bit 0, and a shuffle unless i = 0. The route crosses routers
// more than once (0^n shuffles onto itself), so RouteState.Count holds the
// shuffles taken (stage i = n − Count).
type seRouter struct{ n int }

func (r *seRouter) Name() string { return "standard" }

func (r *seRouter) Init(*flit.Worm, *rand.Rand) {}

// Route is the stateless view, which multicast worms take (a tree cannot
// cross a router twice). It emulates the 2-shuffle's shortest route: with L
// the longest suffix of the router's address that is a prefix of the
// destination's, exchange if that lengthens L, else shuffle. A shuffle
// followed by the exchange it may call for lengthens L by at least one, and
// an exchange never follows an exchange, so the route ends (L = n) within
// n shuffles and crosses no router twice.
func (r *seRouter) Route(sw, _ int, w *flit.Worm) xbar.PortSet {
	dst := int(w.Dst)
	l := r.overlap(sw, dst)
	switch {
	case l == r.n:
		return xbar.Port(2)
	case r.overlap(sw^1, dst) > l:
		return xbar.Port(1)
	}
	return xbar.Port(0)
}

// overlap is the length of the longest suffix of x that is a prefix of y
// (n when x = y).
func (r *seRouter) overlap(x, y int) int {
	for k := r.n; k > 0; k-- {
		if x&(1<<k-1) == y>>(r.n-k) {
			return k
		}
	}
	return 0
}

func (r *seRouter) RouteHead(sw, _ int, w *flit.Worm, st *flit.RouteState) xbar.PortSet {
	if st.Count == 0 {
		st.Count = 1
		return xbar.Port(0)
	}
	i := r.n - int(st.Count)
	switch {
	case int(w.Dst)>>uint(i)&1 != sw&1:
		return xbar.Port(1)
	case i == 0:
		return xbar.Port(2)
	}
	st.Count++
	return xbar.Port(0)
}
