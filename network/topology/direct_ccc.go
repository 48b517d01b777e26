package topology

import (
	"fmt"
	"math/rand/v2"

	"github.com/flitsim/flitsim/flit"
	xbar "github.com/flitsim/flitsim/switch"
)

// Cube-connected cycles (Preparata–Vuillemin; Brebner 1983 §3.4): s·2^s
// routers (c, p), c an s-bit cycle address and 0 ≤ p < s the position on
// the cycle, id = c·s + p, each with one terminal. Out-links: the cube edge
// (c ⊕ 2^p, p), forward (c, p+1 mod s) and backward (c, p−1 mod s).

func init() {
	Register(KindSpec{
		Name: "ccc",
		Desc: "cube-connected cycles, s·2^s routers (s = topology.n) each with one terminal; ports cube, forward, backward",
		Params: []Param{
			cccSizeParam,
			func() Param {
				p := tieParam
				p.Desc = "cycle direction at exactly half a cycle (even s): plus (forward) or random"
				return p
			}(),
		},
		Routings: []Routing{{Name: "standard", Aliases: []string{"brebner"}, New: newCCCRouter,
			Desc: "to the destination cycle going forward and taking each differing cube edge at its position, then the shorter way round the cycle (Brebner §3.4)"}},
		Build: func(s Spec) (*Topology, error) { return buildCCC(s.N, false), nil },
		Size:  func(s Spec) Size { return uniform(int64(s.N)<<s.N, 4) },
	})
}

var cccSizeParam = Param{Key: "n", Default: "3", Allowed: "an integer from 2 to 16 (s·2^s routers)",
	Desc: "s: cycle length and cube dimension, s·2^s routers",
	Check: func(s Spec) string {
		if s.N < 2 || s.N > 16 {
			return fmt.Sprintf("an integer from 2 to 16 (s·2^s ≤ %d routers)", MaxTerminals)
		}
		return ""
	}}

// buildCCC wires the CCC or (plus) Upfal's CCC⁺. CCC ports: 0 cube (arrives
// on the partner's port 0), 1 forward (arrives on port 2, the port whose
// link goes back), 2 backward (arrives on port 1), 3 local. For s = 2 the
// forward and backward links join the same two routers and stay two links.
// CCC⁺ ports: 0 straight to (c, p+1), 1 flip to (c ⊕ 2^p, p+1), each
// arriving on the same-numbered port; 2 local.
func buildCCC(s int, plus bool) *Topology {
	nodes := s << s
	ports := 4
	if plus {
		ports = 3
	}
	t := &Topology{
		Switches: newSwitches(nodes, ports),
		InSwitch: make([]int32, nodes),
		InPort:   make([]int32, nodes),
	}
	id := func(c, p int) int32 { return int32(c*s + (p+s)%s) }
	for v := range t.Switches {
		c, p := v/s, v%s
		sw := &t.Switches[v]
		sw.Label = fmt.Sprintf("c%s,p%d", digitString(c, 2, s), p)
		if plus {
			sw.Out[0] = End{Switch: id(c, p+1), Port: 0, Terminal: -1}
			sw.Out[1] = End{Switch: id(c^1<<p, p+1), Port: 1, Terminal: -1}
		} else {
			sw.Out[0] = End{Switch: id(c^1<<p, p), Port: 0, Terminal: -1}
			sw.Out[1] = End{Switch: id(c, p+1), Port: 2, Terminal: -1}
			sw.Out[2] = End{Switch: id(c, p-1), Port: 1, Terminal: -1}
		}
		sw.Out[ports-1] = End{Switch: -1, Terminal: int32(v)}
		t.InSwitch[v] = int32(v)
		t.InPort[v] = int32(ports - 1)
	}
	if plus {
		t.PortNames = []string{"straight", "flip", "local"}
	} else {
		t.PortNames = []string{"cube", "fwd", "back", "local"}
	}
	return t
}

func newCCCRouter(_ *Topology, s Spec) (Router, error) {
	return &cccRouter{s: s.N, tieRandom: s.N%2 == 0 && tieRandom(s)}, nil
}

// cccRouter is Brebner's CCC route, a pure function of the router and the
// destination: while the cycle address differs, take the cube edge if bit p
// differs, else go forward; then go the shorter way round the cycle (at a
// tie forward, or with tie random the way bit 0 of w.Aux says: one step
// breaks the tie, so one bit per packet is enough).
type cccRouter struct {
	s         int
	tieRandom bool
}

func (r *cccRouter) Name() string {
	if r.tieRandom {
		return "standard tie=random"
	}
	return "standard"
}

func (r *cccRouter) Init(w *flit.Worm, rng *rand.Rand) {
	if r.tieRandom {
		w.Aux = rng.Uint64()
	}
}

func (r *cccRouter) Route(sw, _ int, w *flit.Worm) xbar.PortSet {
	s := r.s
	c, p := sw/s, sw%s
	c2, p2 := int(w.Dst)/s, int(w.Dst)%s
	if diff := c ^ c2; diff != 0 {
		if diff>>p&1 != 0 {
			return xbar.Port(0)
		}
		return xbar.Port(1)
	}
	f := (p2 - p + s) % s
	switch {
	case f == 0:
		return xbar.Port(3)
	case 2*f < s || 2*f == s && (!r.tieRandom || w.Aux&1 != 0):
		return xbar.Port(1)
	}
	return xbar.Port(2)
}

func init() {
	Register(KindSpec{
		Name:   "ccc-plus",
		Desc:   "Upfal's CCC⁺, s·2^s routers (s = topology.n) each with one terminal; unidirectional: every link advances the cycle position, optionally flipping its bit",
		Params: []Param{cccSizeParam},
		Routings: []Routing{{Name: "upfal", Aliases: []string{"standard"}, New: newUpfalRouter,
			Desc: "three passes: s steps flipping each bit at random, on to the destination position flipping at random, s steps fixing the bits (Brebner §3.4)"}},
		Build: func(s Spec) (*Topology, error) { return buildCCC(s.N, true), nil },
		Size:  func(s Spec) Size { return uniform(int64(s.N)<<s.N, 3) },
	})
}

func newUpfalRouter(_ *Topology, s Spec) (Router, error) { return &upfalRouter{s: s.N}, nil }

// upfalRouter is Upfal's three-pass route on the CCC⁺. A route of
// 2s + ((p_dst − p_src) mod s) hops crosses routers more than once, so it
// counts hops in RouteState.Count. Hop h of the two random passes flips the
// bit at its position when bit h of w.Aux (drawn once per packet) is set.
type upfalRouter struct{ s int }

func (r *upfalRouter) Name() string { return "upfal" }

func (r *upfalRouter) Init(w *flit.Worm, rng *rand.Rand) { w.Aux = rng.Uint64() }

// Route is the stateless view, which multicast worms take (a tree cannot
// cross a router twice): straight on round the cycle, flipping each
// position's bit where it differs, until the router is the destination.
// The differing bits only ever clear, and a whole turn clears them all, so
// no router is crossed twice.
func (r *upfalRouter) Route(sw, _ int, w *flit.Worm) xbar.PortSet {
	s := r.s
	c, p := sw/s, sw%s
	c2, p2 := int(w.Dst)/s, int(w.Dst)%s
	switch {
	case c == c2 && p == p2:
		return xbar.Port(2)
	case (c^c2)>>p&1 != 0:
		return xbar.Port(1)
	}
	return xbar.Port(0)
}

func (r *upfalRouter) RouteHead(sw, _ int, w *flit.Worm, st *flit.RouteState) xbar.PortSet {
	u := r.leg(sw, w, int(st.Count))
	if int(st.Count) >= u.hops {
		return xbar.Port(2)
	}
	st.Count++
	if u.flip(int(st.Count)-1, w.Aux) {
		return xbar.Port(1)
	}
	return xbar.Port(0)
}

// upfalLeg is a packet's three-pass route seen from a router: its cycle
// c and position p there, the destination's cycle, and the route's length
// in hops (two random passes and one to the destination: 2s + delta).
type upfalLeg struct {
	s, c, p, c2, hops, random int
}

// leg is packet w's route at router sw after h hops.
func (r *upfalRouter) leg(sw int, w *flit.Worm, h int) upfalLeg {
	s := r.s
	c, p := sw/s, sw%s
	c2, p2 := int(w.Dst)/s, int(w.Dst)%s
	p0 := ((p-h)%s + s) % s // the source's position
	delta := (p2 - p0 + s) % s
	return upfalLeg{s: s, c: c, p: p, c2: c2, hops: 2*s + delta, random: s + delta}
}

// flip is whether hop h (made at position u.p of cycle u.c) flips the
// position's bit: by the packet's draw aux in the random passes, by the
// destination in the last.
func (u upfalLeg) flip(h int, aux uint64) bool {
	if h < u.random {
		return aux>>uint(h)&1 != 0
	}
	return (u.c^u.c2)>>u.p&1 != 0
}
