package topology

import (
	"fmt"
	"math/bits"
	"math/rand/v2"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/flit"
	xbar "github.com/flitsim/flitsim/switch"
)

// Shared by the hypercube-like classes of Varvarigos 1992 ch. 7 (the
// pseudocube, the permutation cube, the enhanced cube): 2^d routers, one
// terminal each, whose links are unidirectional and drawn at random from
// the run's seed.

// cubeDParam is the dimension parameter of a hypercube-like class.
func cubeDParam() Param {
	const allowed = "an integer from 1 to 20 (2^d routers)"
	return Param{Key: "d", Default: "4", Allowed: allowed, Desc: "dimension: 2^d nodes",
		Check: func(s Spec) string {
			if s.D < 1 || s.D > 20 {
				return allowed
			}
			return ""
		}}
}

// classRNG is the random source of a class member: the run's seed, salted
// by the kind so that two kinds drawn from one seed are independent (and
// independent of the kernel's stream, which uses another constant).
func classRNG(s Spec, salt uint64) *rand.Rand {
	return rand.New(rand.NewPCG(s.Seed, salt))
}

// buildDirected wires 2^d routers whose node s has out-links out[s][p] on
// ports p < links (−1: no link) and its terminal on port links. A link
// arrives on input port p of its target when that is free (so a
// dimension-i link of a permutation cube lands on port i, as in a
// hypercube), else on the next port above the terminal's: a router has as
// many ports as it needs for its in-links. names are the link ports' names.
func buildDirected(d, links int, out [][]int32, names []string, seed uint64) (*Topology, error) {
	n := 1 << d
	local := links
	used := make([][]bool, n) // used[t][p]: input port p of t is fed
	inPort := make([][]int32, n)
	for v := range n {
		used[v] = make([]bool, links+1)
		used[v][local] = true
	}
	for s := range n {
		inPort[s] = make([]int32, links)
		for p, t := range out[s] {
			if t < 0 {
				continue
			}
			q := p
			if used[t][q] {
				for q = local + 1; q < len(used[t]) && used[t][q]; q++ {
				}
			}
			if q == len(used[t]) {
				used[t] = append(used[t], false)
			}
			used[t][q] = true
			inPort[s][p] = int32(q)
		}
	}
	t := &Topology{
		Switches: make([]Switch, n),
		InSwitch: make([]int32, n),
		InPort:   make([]int32, n),
		Radix:    2,
		Digits:   d,
		Directed: true,
	}
	numberLabels(t.Switches, "n")
	most := 0
	for s := range n {
		ports := len(used[s])
		if ports > xbar.MaxPorts {
			return nil, inputerr.New("run.seed", fmt.Sprint(seed),
				"a seed whose network gives every router at most %d in-links (router %d has %d); try another", xbar.MaxPorts-1, s, ports-1)
		}
		most = max(most, ports)
		sw := &t.Switches[s]
		sw.Out = make([]End, ports)
		for p := range sw.Out {
			sw.Out[p] = End{Switch: -1, Terminal: -1}
		}
		for p, v := range out[s] {
			if v >= 0 {
				sw.Out[p] = End{Switch: v, Port: inPort[s][p], Terminal: -1}
			}
		}
		sw.Out[local] = End{Switch: -1, Terminal: int32(s)}
		t.InSwitch[s] = int32(s)
		t.InPort[s] = int32(local)
	}
	t.PortNames = append(append([]string(nil), names...), "local")
	for p := len(t.PortNames); p < most; p++ {
		t.PortNames = append(t.PortNames, fmt.Sprintf("in%d", p-local))
	}
	return t, nil
}

// dimNames names ports 0..d−1 "d0".."d{d−1}".
func dimNames(d int) []string {
	s := make([]string, d)
	for j := range s {
		s[j] = fmt.Sprintf("d%d", j)
	}
	return s
}

// msbRouter is the self-routing of pseudocubes and permutation cubes
// (Varvarigos 1992 §7.1): at node s bound for t, take the link of the
// dimension of the most significant bit where s and t differ. The link
// keeps the bits above it, sets that bit to t's and draws the ones below,
// so the agreeing prefix grows: at most d hops, in strictly descending
// dimensions — channel dependencies are acyclic and wormhole routing
// cannot deadlock. It is not a shortest path in general.
type msbRouter struct{ d int }

func newMSB(_ *Topology, s Spec) (Router, error) { return msbRouter{d: s.D}, nil }

func (msbRouter) Name() string                { return "msb" }
func (msbRouter) Init(*flit.Worm, *rand.Rand) {}

func (r msbRouter) Route(sw, _ int, w *flit.Worm) xbar.PortSet {
	diff := uint(sw ^ int(w.Dst))
	if diff == 0 {
		return xbar.Port(r.d)
	}
	return xbar.Port(bits.Len(diff) - 1)
}

// msbRouting declares msbRouter for a kind.
var msbRouting = Routing{Name: "msb", Aliases: []string{"self-routing"}, New: newMSB,
	Desc: "self-routing: the link of the most significant differing bit (≤ d hops, descending dimensions)"}
