package topology

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"

	"github.com/flitsim/flitsim/flit"
	xbar "github.com/flitsim/flitsim/switch"
)

// The d-shuffle (de Bruijn graph of degree d, Brebner 1983 §1.4): d^n
// routers, each with one terminal. Router x = x_{n−1}…x_0 (digits base d,
// x_{n−1} most significant) has an out-link per digit β to (x·d mod d^n)+β:
// drop the leftmost digit, shift β in on the right. The graph is directed
// (the link x→y has no partner y→x in general) and the constant strings β^n
// have a self-loop.

func init() {
	Register(KindSpec{
		Name: "dshuffle",
		Desc: "d-shuffle (de Bruijn graph), d^n routers each with one terminal; directed links, self-loops at the constant addresses",
		Params: []Param{
			{Key: "d", Default: "2", Allowed: "an integer from 2 to 63",
				Desc: "degree: digits are base d, each router has d out-links and d in-links",
				Check: func(s Spec) string {
					if s.D < 2 || s.D >= xbar.MaxPorts {
						return fmt.Sprintf("an integer from 2 to %d (the degree; router radix d+1 ≤ %d)", xbar.MaxPorts-1, xbar.MaxPorts)
					}
					return ""
				}},
			{Key: "n", Default: "4", Allowed: fmt.Sprintf("an integer from 1 up to d^n ≤ %d terminals", MaxTerminals),
				Desc: "digits: d^n routers, diameter n",
				Check: func(s Spec) string {
					if m := maxDigits(s.D); s.N < 1 || s.N > m {
						return fmt.Sprintf("an integer from 1 to %d for d = %d (d^n ≤ %d terminals)", m, s.D, MaxTerminals)
					}
					return ""
				}},
		},
		Routings: []Routing{
			{Name: "standard", Aliases: []string{"digit-shift"}, New: newDShuffleRouter(false),
				Desc: "exactly n hops, shifting in the destination digits most significant first (Brebner §1.4; uses self-loops)"},
			{Name: "shortest", Aliases: []string{"optimised", "optimized"}, New: newDShuffleRouter(true),
				Desc: "the unique shortest path: skip the longest suffix of the source that is a prefix of the destination (Brebner §3.7.2)"},
		},
		Build: buildDShuffle,
		Size:  func(s Spec) Size { return uniform(int64(ipow(s.D, s.N)), s.D+1) },
	})
}

// maxDigits is the largest n with d^n ≤ MaxTerminals.
func maxDigits(d int) int {
	if d < 2 {
		return 0
	}
	n := 0
	for p := d; p <= MaxTerminals; p *= d {
		n++
	}
	return n
}

// buildDShuffle wires the d-shuffle. Output port β (0 ≤ β < d) of router
// x = αγ leads to router γβ, arriving on its input port α (the digit the
// shift dropped): the d in-links of a router come from the d routers αγ,
// one per α, so every input port is fed exactly once. A self-loop (x = β^n,
// port β) leaves and re-enters the same router on port β. Port d is local.
func buildDShuffle(s Spec) (*Topology, error) {
	d, n := s.D, s.N
	nodes := ipow(d, n)
	top := nodes / d // weight of the leftmost digit
	t := &Topology{
		Switches: newSwitches(nodes, d+1),
		InSwitch: make([]int32, nodes),
		InPort:   make([]int32, nodes),
		Radix:    d,
		Digits:   n,
	}
	for x := range t.Switches {
		sw := &t.Switches[x]
		sw.Label = "n" + digitString(x, d, n)
		alpha := x / top
		for b := 0; b < d; b++ {
			sw.Out[b] = End{Switch: int32(x%top*d + b), Port: int32(alpha), Terminal: -1}
		}
		sw.Out[d] = End{Switch: -1, Terminal: int32(x)}
		t.InSwitch[x] = int32(x)
		t.InPort[x] = int32(d)
	}
	t.PortNames = make([]string, d+1)
	for b := 0; b < d; b++ {
		t.PortNames[b] = "shift" + itoa(b)
	}
	t.PortNames[d] = "local"
	return t, nil
}

// digitString writes x as n base-d digits, most significant first
// (comma-separated when d > 10).
func digitString(x, d, n int) string {
	ds := make([]string, n)
	for i := n - 1; i >= 0; i-- {
		ds[i] = itoa(x % d)
		x /= d
	}
	if d > 10 {
		return strings.Join(ds, ",")
	}
	return strings.Join(ds, "")
}

func ipow(b, e int) int {
	p := 1
	for range e {
		p *= b
	}
	return p
}

func newDShuffleRouter(shortest bool) func(*Topology, Spec) (Router, error) {
	return func(_ *Topology, s Spec) (Router, error) {
		r := &dshuffleRouter{d: s.D, n: s.N, shortest: shortest}
		r.pow = make([]int, s.N+1)
		r.rpow = make([]uint64, s.N+1)
		for i := range r.pow {
			r.pow[i] = ipow(s.D, i)
			if i > 0 {
				r.rpow[i] = ^uint64(0)/uint64(r.pow[i]) + 1
			}
		}
		return r, nil
	}
}

// dshuffleRouter routes on the d-shuffle. The standard route needs the hop
// count (a route may cross a router, even a link, more than once: 0^n→0^n
// goes n times round the self-loop), so it is a StatefulRouter counting
// hops in RouteState.Count. The shortest route is a pure function of the
// router and the destination: for each length L there is only one path of
// length L between two routers (its last L shifts must spell the
// destination's last L digits), so hop-by-hop shortest routing takes the
// path a source would compute.
type dshuffleRouter struct {
	d, n     int
	shortest bool
	pow      []int    // pow[i] = d^i
	rpow     []uint64 // rpow[i] = ⌈2^64/d^i⌉ (i ≥ 1): div, digits
}

func (r *dshuffleRouter) Name() string {
	if r.shortest {
		return "shortest"
	}
	return "standard"
}

func (r *dshuffleRouter) Init(*flit.Worm, *rand.Rand) {}

// Route is the stateless view, which multicast worms take (a tree cannot
// cross a router twice): the shortest route, for both routings.
func (r *dshuffleRouter) Route(sw, _ int, w *flit.Worm) xbar.PortSet {
	dst := int(w.Dst)
	k := r.overlap(sw, dst)
	if k == r.n {
		return xbar.Port(r.d)
	}
	return xbar.Port(dst / r.pow[r.n-k-1] % r.d)
}

func (r *dshuffleRouter) RouteHead(sw, in int, w *flit.Worm, st *flit.RouteState) xbar.PortSet {
	if r.shortest {
		return r.Route(sw, in, w)
	}
	dst := int(w.Dst)
	k := int(st.Count)
	if k >= r.n {
		return xbar.Port(r.d)
	}
	st.Count++
	return xbar.Port(dst / r.pow[r.n-k-1] % r.d)
}

// overlap is the length of the longest suffix of x that is a prefix of y
// (n when x = y): that many of y's leading digits are already in place.
// (x mod d^k and y div d^(n−k) by multiplying by reciprocals of the powers:
// two divisions per k were most of the shortest route's time.)
func (r *dshuffleRouter) overlap(x, y int) int {
	for k := r.n; k > 0; k-- {
		if x-r.div(x, k)*r.pow[k] == r.div(y, r.n-k) {
			return k
		}
	}
	return 0
}

// div is x / d^j for 0 ≤ x < d^n: the high word of x·⌈2^64/d^j⌉, exact
// for x < 2^64/d^j (see cubeRecip).
func (r *dshuffleRouter) div(x, j int) int {
	if j == 0 {
		return x
	}
	q, _ := bits.Mul64(uint64(x), r.rpow[j])
	return int(q)
}
