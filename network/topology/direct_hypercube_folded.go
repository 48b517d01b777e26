package topology

import (
	"math/bits"
	"math/rand/v2"

	"github.com/flitsim/flitsim/flit"
	xbar "github.com/flitsim/flitsim/switch"
)

// The folded cube (Adams & Siegel; Varvarigos 1992 Definition 4 and the
// folded-cube paper §2): the binary d-cube plus a complementary link from
// every node s to s ⊕ 1^d. Router i serves terminal i.

func init() {
	Register(KindSpec{
		Name: "folded-cube",
		Desc: "binary d-cube plus a complement link s→s⊕1…1 per node (degree d+1, diameter ⌈d/2⌉); shortest routes take the complement link first when more than half the bits differ",
		Params: []Param{
			{Key: "d", Default: "4", Allowed: "an integer from 2 to 20 (2^d routers)",
				Desc: "dimension: 2^d nodes",
				Check: func(s Spec) string {
					if s.D < 2 || s.D > 20 {
						return "an integer from 2 to 20 (2^d routers)"
					}
					return ""
				}},
			orderParam(func(s Spec) int { return s.D }),
		},
		Routings: []Routing{
			{Name: "shortest", Aliases: []string{"minimal"}, New: newFoldedShortest,
				Desc: "a shortest path: the complement link first when it is shorter (h > (d+1)/2 differing bits), then the differing bits in topology.order"},
		},
		Build: buildFoldedCube,
		Size:  func(s Spec) Size { return uniform(1<<s.D, s.D+2) },
	})
}

// buildFoldedCube wires the d-cube (port j, j < d, along dimension j, as in
// buildHypercube), the complement link on port d (arriving on port d of
// s⊕1^d) and the terminal on port d+1.
func buildFoldedCube(s Spec) (*Topology, error) {
	d := s.D
	all := 1<<d - 1
	t := wireCube(d, []string{"c"})
	for i := range t.Switches {
		t.Switches[i].Out[d] = End{Switch: int32(i ^ all), Port: int32(d), Terminal: -1}
	}
	return t, nil
}

// FoldedDistance is the length of a shortest path between folded-cube
// nodes a and b: min(h, d+1−h) for Hamming distance h (digest 000b §2.7).
func FoldedDistance(d, a, b int) int {
	h := bits.OnesCount(uint(a ^ b))
	return min(h, d+1-h)
}

func newFoldedShortest(_ *Topology, s Spec) (Router, error) {
	r := &foldedRouter{d: s.D, order: orderOf(s.Order, s.D), name: "shortest"}
	if !isIdentity(r.order) {
		r.name += " order=" + joinInts(r.order)
	}
	return r, nil
}

// foldedRouter takes the complement link when more than (d+1)/2 bits
// differ (then d−h < h remain), else corrects the differing bits in order.
// With d odd and h = (d+1)/2 both ways are shortest; it goes direct. The
// complement link is only ever taken first, and the bits in one fixed
// order, so the channel dependencies are acyclic (c, then order[0], …):
// wormhole routing cannot deadlock.
type foldedRouter struct {
	d     int
	order []int
	name  string
}

func (r *foldedRouter) Name() string                { return r.name }
func (r *foldedRouter) Init(*flit.Worm, *rand.Rand) {}

func (r *foldedRouter) Route(sw, _ int, w *flit.Worm) xbar.PortSet {
	diff := sw ^ int(w.Dst)
	if diff == 0 {
		return xbar.Port(r.d + 1)
	}
	if 2*bits.OnesCount(uint(diff)) > r.d+1 {
		return xbar.Port(r.d)
	}
	for _, j := range r.order {
		if diff>>j&1 != 0 {
			return xbar.Port(j)
		}
	}
	return 0
}
