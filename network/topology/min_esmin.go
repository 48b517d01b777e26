package topology

import (
	"fmt"
	"math/rand/v2"

	"github.com/flitsim/flitsim/flit"
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

// newESMINRouter builds destination-tag routing on the path s.Path.
func newESMINRouter(_ *Topology, s Spec) (Router, error) {
	dims := s.Dims
	h, n := len(dims), esminDims(dims)
	path := esminPath(s.Path)
	r := &esminRouter{h: h, half: 1 << (n - 1), path: path,
		dim: make([]int8, h), mode: make([]int8, h)}
	// Stage g = h−1−i has dimension dims[i].
	firstSeen := make([]bool, n)
	for i, c := range dims {
		r.dim[h-1-i] = int8(c)
		if !firstSeen[c] {
			firstSeen[c] = true
			r.mode[h-1-i] |= modeFirst
		}
	}
	lastSeen := make([]bool, n)
	for i := h - 1; i >= 0; i-- {
		if c := dims[i]; !lastSeen[c] {
			lastSeen[c] = true
			r.mode[h-1-i] |= modeLast
		}
	}
	// Free stages (not the last of their dimension), numbered from the
	// leftmost: free stage f takes bit f of the path index.
	r.free = make([]int8, h)
	m := 0
	for g := h - 1; g >= 0; g-- {
		if r.mode[g]&modeLast == 0 {
			r.free[g] = int8(m)
			m++
		}
	}
	r.m = m
	r.name = "destination-tag path=" + pathNames[path]
	if path == pathGiven {
		r.q = uint64(s.PathIndex)
		r.name += fmt.Sprintf(" path_index=%d", s.PathIndex)
	}
	return r, nil
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

const (
	modeFirst = 1 << iota // first (leftmost) stage of its dimension
	modeLast              // last (rightmost) stage of its dimension
)

// esminRouter is destination-tag routing in a CU-ESMIN. Destination bit j is
// set by the port taken at the last stage whose dimension is j (or, for the
// first path, at the first such stage); "straight" at a stage of dimension c
// means port = bit c of the input address, which keeps the bit.
type esminRouter struct {
	h, half, m int
	path       int
	q          uint64
	dim        []int8 // per stage g
	mode       []int8 // modeFirst | modeLast, per stage g
	free       []int8 // path-index bit of a free stage g
	name       string
}

func (r *esminRouter) Name() string { return r.name }

func (r *esminRouter) Init(w *flit.Worm, rng *rand.Rand) {
	if r.path == pathRandom {
		w.Aux = rng.Uint64() & (uint64(1)<<r.m - 1)
	}
}

func (r *esminRouter) Route(sw, in int, w *flit.Worm) xbar.PortSet {
	g := r.h - 1 - sw/r.half
	c := int(r.dim[g])
	mode := r.mode[g]
	x := 2*(sw%r.half) + in
	dst := int(w.Dst)
	var p int
	switch r.path {
	case pathFirst:
		if mode&modeFirst != 0 {
			p = dst >> c & 1
		} else {
			p = x >> c & 1
		}
	case pathLatest:
		if mode&modeLast != 0 {
			p = dst >> c & 1
		} else {
			p = x >> c & 1
		}
	default:
		if mode&modeLast != 0 {
			p = dst >> c & 1
		} else {
			q := r.q
			if r.path == pathRandom {
				q = w.Aux
			}
			p = int(q >> uint(r.free[g]) & 1)
		}
	}
	return xbar.Port(p)
}

// sizeESMIN is an ESMIN's size: len(dims) stages of N/2 2×2 switches.
func sizeESMIN(s Spec) Size {
	n := int64(1) << esminDims(s.Dims)
	h := int64(len(s.Dims))
	return Size{Switches: h * n / 2, Ports: h * n, Terminals: n}
}
