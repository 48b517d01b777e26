package topology

import (
	"fmt"
	"math/rand/v2"

	"github.com/flitsim/flitsim/flit"
	xbar "github.com/flitsim/flitsim/switch"
)

// The folded butterfly (Varvarigos 1992 §5.5, Fig. 5.8; digest 000b §2.2):
// a d-stage butterfly whose last stage is identified with its first, so
// that the stages form a ring. Node (i, r), stage i and row r (d bits), is
// switch i·2^d + r with one terminal. Its two links go to the next stage,
// i−1 mod d (the stages are taken in descending order, as the hypercube's
// descending-dimensions node takes its dimensions): the straight link to
// (i−1, r) on port 0 and the cross link to (i−1, r ⊕ 2^i) on port 1, each
// arriving on the same-numbered input port; port 2 is local. So the cross
// links of stage i fix bit i of the row, and greedy routing fixes the bits
// of the destination row in descending cyclic order from the stage a
// packet starts at: the slotted router's rule (switching: slotted,
// internal/kernel/slotted.go), where a straight link is an internal link
// and a cross link a forward link.

func init() {
	Register(KindSpec{
		Name: "folded-butterfly",
		Desc: "d-stage butterfly with its last stage identified with its first (d·2^d nodes (stage, row), each with a straight and a cross link to the next stage and one terminal); greedy routing fixes the row bits stage by stage",
		Params: []Param{
			{Key: "d", Default: "3", Allowed: "an integer from 2 to 16 (d·2^d nodes)",
				Desc: "stages: d stages of 2^d rows",
				Check: func(s Spec) string {
					if s.D < 2 || s.D > 16 {
						return "an integer from 2 to 16 (d·2^d nodes)"
					}
					return ""
				}},
		},
		Routings: []Routing{
			{Name: "greedy", New: newFBflyGreedy,
				Desc: "at stage i take the cross link when bit i of the row differs from the destination's, else the straight link; then straight on to the destination's stage (at most 2d − 1 hops)"},
		},
		Build: buildFoldedButterfly,
		Size:  func(s Spec) Size { return uniform(int64(s.D)<<s.D, 3) },
	})
}

// FBflyPorts name the folded butterfly's ports.
var FBflyPorts = []string{"straight", "cross", "local"}

// buildFoldedButterfly wires the d-stage folded butterfly.
func buildFoldedButterfly(s Spec) (*Topology, error) {
	d := s.D
	rows := 1 << d
	n := d * rows
	t := &Topology{
		Switches:  newSwitches(n, 3),
		InSwitch:  make([]int32, n),
		InPort:    make([]int32, n),
		PortNames: FBflyPorts,
	}
	for v := range t.Switches {
		i, r := v/rows, v%rows
		next := ((i+d-1)%d)*rows + r
		sw := &t.Switches[v]
		sw.Label = fmt.Sprintf("s%d,%s", i, digitString(r, 2, d))
		sw.Out[0] = End{Switch: int32(next), Port: 0, Terminal: -1}
		sw.Out[1] = End{Switch: int32(next ^ 1<<i), Port: 1, Terminal: -1}
		sw.Out[2] = End{Switch: -1, Terminal: int32(v)}
		t.InSwitch[v], t.InPort[v] = int32(v), 2
	}
	return t, nil
}

func newFBflyGreedy(_ *Topology, s Spec) (Router, error) {
	return fbflyRouter{d: s.D, rows: 1 << s.D}, nil
}

// fbflyRouter is greedy routing on the folded butterfly, a pure function
// of the switch and the destination: the bits of the destination's row are
// fixed by the first pass through their stages (no later stage changes
// them), then the packet goes straight on round the ring to its stage.
type fbflyRouter struct{ d, rows int }

func (r fbflyRouter) Name() string                { return "greedy" }
func (r fbflyRouter) Init(*flit.Worm, *rand.Rand) {}

func (r fbflyRouter) Route(sw, _ int, w *flit.Worm) xbar.PortSet {
	dst := int(w.Dst)
	if sw == dst {
		return xbar.Port(2)
	}
	i := sw / r.rows
	if (sw^dst)%r.rows>>i&1 != 0 {
		return xbar.Port(1)
	}
	return xbar.Port(0)
}
