package topology

import (
	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/flit"
	xbar "github.com/flitsim/flitsim/switch"
)

// Turn-model routing on the 2-D mesh: minimal adaptive routing that is
// deadlock-free on the physical channels alone, because the turns it
// allows close no cycle of channel dependencies — so it needs no escape
// VC and runs with any buffers.vcs. Each is an AdaptiveRouter with no
// escape VCs: Route gives the ports the model allows, the iq router asks
// for every VC of each (EscapeVCs 0: all VCs adaptive) and prefers the one
// with the most credits downstream, as it does for routing: adaptive.
// Escape is one allowed port (the lowest), which is itself a complete
// turn-model route: the path Trace follows.
//
// Ports: 0 west (x−), 1 east (x+), 2 south (y−), 3 north (y+), 4 local;
// x is dimension 0, the column.

func init() {
	RegisterRouting("mesh", Routing{Name: "west-first", New: newWestFirst,
		Desc: "Glass & Ni's west-first turn model: west first, then any port nearer among east, north, south (deadlock-free on any VCs; 2-D, router.model: iq)"})
	RegisterRouting("mesh", Routing{Name: "odd-even", New: newOddEven,
		Desc: "Chiu's odd-even turn model: minimal adaptive, no east→north/south turn in even columns, no north/south→west in odd ones (deadlock-free on any VCs; 2-D, router.model: iq)"})
}

// newWestFirst is Glass & Ni's west-first turn model (ISCA 1992): the two
// turns into the west (north→west, south→west) are forbidden, so a packet
// whose destination lies west goes west first, all the way; otherwise it
// takes any productive port among east, north and south.
func newWestFirst(t *Topology, s Spec) (Router, error) {
	d, err := newTurnBase(t, s, "west-first")
	if err != nil {
		return nil, err
	}
	return &westFirst{d}, nil
}

// newOddEven is Chiu's odd-even turn model (IEEE TPDS 2000): in an even
// column no east→north or east→south turn, in an odd column no north→west
// or south→west turn. Its ROUTE function (minimal) is Route below; unlike
// west-first it leaves some adaptivity to westbound packets.
func newOddEven(t *Topology, s Spec) (Router, error) {
	d, err := newTurnBase(t, s, "odd-even")
	if err != nil {
		return nil, err
	}
	return &oddEven{d}, nil
}

// newTurnBase is the mesh's DOR router (for its coordinates) renamed; a
// turn model is defined on two dimensions.
func newTurnBase(t *Topology, s Spec, name string) (*dorRouter, error) {
	r, err := newDOR(t, s)
	if err != nil {
		return nil, err
	}
	d := r.(*dorRouter)
	if d.n != 2 {
		return nil, inputerr.New("topology.n", d.n, "2 with routing: %s (a turn model of the 2-D mesh)", name)
	}
	d.name = name
	return d, nil
}

// xy gives the column and row offsets from switch sw to the packet's
// destination, and whether sw is its destination.
func (r *dorRouter) xy(sw int, w *flit.Worm) (cx, dx, dy int32, home bool) {
	dst := int(w.Dst)
	cx = r.coord[2*sw]
	dx, dy = r.coord[2*dst]-cx, r.coord[2*dst+1]-r.coord[2*sw+1]
	return cx, dx, dy, sw == dst
}

// yPort is the port toward a row offset dy ≠ 0.
func yPort(dy int32) xbar.PortSet { return xbar.Port(2 + b2i(dy > 0)) }

type westFirst struct{ *dorRouter }

func (r *westFirst) EscapeVCs() int { return 0 }

func (r *westFirst) Escape(sw, in int, w *flit.Worm) int { return r.Route(sw, in, w).First() }

func (r *westFirst) Route(sw, in int, w *flit.Worm) xbar.PortSet {
	_, dx, dy, home := r.xy(sw, w)
	switch {
	case home:
		return xbar.Port(4)
	case dx < 0:
		return xbar.Port(0)
	}
	var ps xbar.PortSet
	if dx > 0 {
		ps |= xbar.Port(1)
	}
	if dy != 0 {
		ps |= yPort(dy)
	}
	return ps
}

type oddEven struct{ *dorRouter }

func (r *oddEven) EscapeVCs() int { return 0 }

func (r *oddEven) Escape(sw, in int, w *flit.Worm) int { return r.Route(sw, in, w).First() }

// Route is Chiu's ROUTE: eastbound, a turn north or south only in an odd
// column or the source's (no turn there: the packet starts), and east
// only while the packet can still turn where it must (not into an even
// destination column from its neighbour); westbound, west always and
// north or south only in an even column (a later turn west from them is
// then not in an odd one).
func (r *oddEven) Route(sw, in int, w *flit.Worm) xbar.PortSet {
	cx, dx, dy, home := r.xy(sw, w)
	if home {
		return xbar.Port(4)
	}
	if dx == 0 {
		return yPort(dy)
	}
	var ps xbar.PortSet
	if dx > 0 {
		if dy == 0 {
			return xbar.Port(1)
		}
		if cx%2 == 1 || cx == r.coord[2*int(w.Src)] {
			ps |= yPort(dy)
		}
		if (cx+dx)%2 == 1 || dx != 1 {
			ps |= xbar.Port(1)
		}
		return ps
	}
	ps = xbar.Port(0)
	if dy != 0 && cx%2 == 0 {
		ps |= yPort(dy)
	}
	return ps
}
