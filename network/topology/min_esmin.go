package topology

import (
	"fmt"
	"math/rand/v2"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/network/esmintree"
	xbar "github.com/flitsim/flitsim/switch"
)

// ESMIN paths.
const (
	pathFirst  = iota // decide dimension j at its first stage, straight elsewhere (FB)
	pathLatest        // decide dimension j at its last stage, straight elsewhere (LB)
	pathRandom        // a uniformly random one of the 2^m paths per packet (w.Aux)
	pathGiven         // the path numbered PathIndex
)

var pathNames = []string{"first", "latest", "random", "given"}

func init() {
	Register(KindSpec{
		Name: "esmin",
		Desc: "extra-stage cube MIN (CU-ESMIN) of 2×2 switches, stage dimensions `dims` (e.g. 1,2,1,2,0), 2^m paths per pair chosen by `path`: first | latest | random | given",
		Params: []Param{
			{Key: "dims", Default: "1,2,1,2,0", Allowed: "the stage dimensions c_{h−1},…,c_0, leftmost stage first, using every dimension 0..n−1, with 0 only at the last stage",
				Desc: "the butterfly dimension of each stage; 2^n terminals, n = 1 + max", Check: checkDims},
			{Key: "path", Default: "first", Allowed: "first (FB, default), latest (LB), random, given",
				Desc: "which of the 2^m paths (m extra stages) a packet takes", Check: func(s Spec) string {
					if esminPath(s.Path) < 0 {
						return "first (FB, default), latest (LB), random, given"
					}
					return ""
				}},
			{Key: "path_index", Default: "0", Allowed: "an integer from 0 to 2^m − 1 when path is given, else 0",
				Desc: "the path taken when path is given", Check: checkPathIndex},
		},
		Routings: []Routing{destinationTag(newESMINRouter)},
		Build:    buildESMIN,
		Size:     sizeESMIN,
	})
}

// esminDims is the number of address bits n of an ESMIN with stage
// dimensions dims, or 0 if dims is not a valid list.
func esminDims(dims []int) int {
	h := len(dims)
	n := 0
	for _, c := range dims {
		n = max(n, c+1)
	}
	ok := h >= 1 && h <= MaxStages && n <= 20 && dims[h-1] == 0
	seen := make([]bool, max(n, 1))
	for i, c := range dims {
		if c < 0 || (c == 0 && i != h-1) {
			ok = false
			break
		}
		if c < len(seen) {
			seen[c] = true
		}
	}
	for _, v := range seen {
		ok = ok && v
	}
	if !ok || h*(1<<n)/2 > MaxSwitches {
		return 0
	}
	return n
}

func checkDims(s Spec) string {
	if esminDims(s.Dims) == 0 {
		return fmt.Sprintf("the stage dimensions c_{h−1},…,c_0, leftmost stage first, e.g. 1,2,1,2,0: 1 to %d stages using every dimension 0..n−1 "+
			"(n = 1+max ≤ 20, 2^n ≤ %d terminals, at most %d switches), with 0 only at the last stage", MaxStages, MaxTerminals, MaxSwitches)
	}
	return ""
}

// esminPath is the path chooser named p, or -1.
func esminPath(p string) int {
	switch norm(p) {
	case "", "first", "fb", "first-branch":
		return pathFirst
	case "latest", "lb", "latest-branch":
		return pathLatest
	case "random":
		return pathRandom
	case "given":
		return pathGiven
	}
	return -1
}

// checkPathIndex checks path_index against the m = h − n extra stages
// (each dimension's last stage is fixed by the destination, the rest free).
func checkPathIndex(s Spec) string {
	m := len(s.Dims) - esminDims(s.Dims)
	switch {
	case esminPath(s.Path) == pathGiven && (s.PathIndex < 0 || uint64(s.PathIndex) >= uint64(1)<<m):
		return fmt.Sprintf("an integer from 0 to %d (2^m − 1, m = %d extra stages)", (1<<m)-1, m)
	case esminPath(s.Path) != pathGiven && s.PathIndex != 0:
		return "0 unless topology.path is given"
	}
	return ""
}

// newESMINRouter builds destination-tag routing by the multicast tree
// algorithm s.Tree (multicast.tree) or else on the path s.Path.
func newESMINRouter(_ *Topology, s Spec) (Router, error) {
	net, err := esmintree.New(s.Dims)
	if err != nil {
		return nil, err
	}
	r := &esminRouter{net: net, half: 1 << (net.Bits() - 1), path: esminPath(s.Path)}
	if s.Tree != "" {
		alg, _ := esmintree.ParseAlg(s.Tree) // checked by network.Build
		// topology.path first and latest are the older spellings of fb and lb.
		if s.Path != "" && (r.path >= pathRandom || r.path == pathFirst && alg != esmintree.FB || r.path == pathLatest && alg != esmintree.LB) {
			return nil, inputerr.New("multicast.tree", s.Tree, "a tree matching topology.path %s (first = fb, latest = lb), or leave topology.path out", s.Path)
		}
		r.tree, r.alg, r.name = true, alg, "destination-tag tree="+alg.String()
		return r, nil
	}
	r.name = "destination-tag path=" + pathNames[r.path]
	switch r.path {
	case pathFirst:
		r.tree, r.alg = true, esmintree.FB
	case pathLatest:
		r.tree, r.alg = true, esmintree.LB
	case pathGiven:
		r.q = uint64(s.PathIndex)
		r.name += fmt.Sprintf(" path_index=%d", s.PathIndex)
	}
	return r, nil
}

// ESMINTrees is the tree model of an ESMIN spec for the tree algorithms
// (multicast.tree, flitsim multicast-tree). Another kind, or an ESMIN
// without extra stages (one path per pair, nothing to choose), is bad input.
func ESMINTrees(s Spec) (*esmintree.Net, error) {
	if s.Kind != "esmin" {
		return nil, inputerr.New("topology.kind", s.Kind, "esmin (the tree algorithms choose among an extra-stage MIN's paths)")
	}
	if esminDims(s.Dims) == 0 {
		return nil, inputerr.New("topology.dims", joinInts(s.Dims), "%s", checkDims(s))
	}
	net, err := esmintree.New(s.Dims)
	if err == nil && net.Extra() == 0 {
		err = inputerr.New("topology.dims", joinInts(s.Dims), "a list with extra stages (a dimension repeated, e.g. 1,2,1,2,0): "+
			"without them there is one path per pair and no tree to choose")
	}
	return net, err
}

// buildESMIN wires a CU-ESMIN(N: c_{h−1},…,c_0) of 2×2 switches (Chiang
// §6.2): C_h = I, C_g = β_{c_g}, N = 2^n with n = 1 + max c. Stage G_g has
// switch indices (h−1−g)·N/2 + row and labels "s{g},{row}".
func buildESMIN(s Spec) (*Topology, error) {
	h, n := len(s.Dims), esminDims(s.Dims)
	N := 1 << n
	half := N / 2
	t := &Topology{
		Switches: newSwitches(h*half, 2),
		InSwitch: make([]int32, N),
		InPort:   make([]int32, N),
		Radix:    2,
		Digits:   n,
	}
	for g := h - 1; g >= 0; g-- {
		base := (h - 1 - g) * half
		c := s.Dims[h-1-g]
		for row := 0; row < half; row++ {
			sw := &t.Switches[base+row]
			sw.Label = fmt.Sprintf("s%d,%d", g, row)
			for p := 0; p < 2; p++ {
				a := 2*row + p
				if g == 0 {
					sw.Out[p] = End{Switch: -1, Terminal: int32(a)}
					continue
				}
				x := swapBits(a, c)
				sw.Out[p] = End{Switch: int32((h-g)*half + x>>1), Port: int32(x & 1), Terminal: -1}
			}
		}
	}
	for src := 0; src < N; src++ {
		t.InSwitch[src] = int32(src >> 1)
		t.InPort[src] = int32(src & 1)
	}
	return t, nil
}

// swapBits is β_c on binary addresses: swap bit 0 and bit c.
func swapBits(a, c int) int {
	if c == 0 {
		return a
	}
	b0, bc := a&1, a>>c&1
	return a&^(1|1<<c) | bc | b0<<c
}

// esminRouter is destination-tag routing in a CU-ESMIN: a tree algorithm
// of esmintree (the one home of their rules), or a path of Lemma 14 shared
// by every destination (topology.path random or given).
type esminRouter struct {
	net  *esmintree.Net
	half int
	tree bool
	alg  esmintree.Alg
	path int
	q    uint64
	name string
}

func (r *esminRouter) Name() string { return r.name }

func (r *esminRouter) Init(w *flit.Worm, rng *rand.Rand) {
	switch {
	case r.tree && (r.alg == esmintree.RB || r.alg == esmintree.RM):
		w.Aux = rng.Uint64()
	case !r.tree && r.path == pathRandom:
		w.Aux = rng.Uint64() & (uint64(1)<<r.net.Extra() - 1)
	}
}

// Route: the switch at position i (stage G_{h−1−i}) and row sw mod N/2.
func (r *esminRouter) Route(sw, in int, w *flit.Worm) xbar.PortSet {
	i, x, d := sw/r.half, 2*(sw%r.half)+in, int(w.Dst)
	if r.tree {
		return xbar.Port(r.net.Port(r.alg, w.Aux, i, x, d))
	}
	q := r.q
	if r.path == pathRandom {
		q = w.Aux
	}
	return xbar.Port(r.net.PathPort(q, i, d))
}

// sizeESMIN is an ESMIN's size: len(dims) stages of N/2 2×2 switches.
func sizeESMIN(s Spec) Size {
	n := int64(1) << esminDims(s.Dims)
	h := int64(len(s.Dims))
	return Size{Switches: h * n / 2, Ports: h * n, Terminals: n}
}

// TreeBlocks reports whether the multicast tree r would route worm w's
// copies to dests on cannot be built: a Random Branch tree whose branches
// need one switch output twice (Chiang §6.4.3: a switch cannot merge two
// copies, so the multicast is unsuccessful). Every other router and tree
// algorithm builds every tree. Call it after r.Init(w) drew w.Aux.
func TreeBlocks(r Router, w *flit.Worm, dests []int32) bool {
	e, is := r.(*esminRouter)
	if !is || !e.tree || e.alg != esmintree.RB {
		return false
	}
	ds := make([]int, len(dests))
	for i, d := range dests {
		ds[i] = int(d)
	}
	return e.net.Build(e.alg, w.Aux, int(w.Src), ds).Blocked
}
