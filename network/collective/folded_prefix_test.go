package collective

import (
	"fmt"
	"math/bits"
	"slices"
	"testing"

	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network/topology"
)

// The t_p prefix channel adds exactly 4d·t_p slots to the folded cube's
// PMNB and PMNA (two prefixes of 2d hops), the run meets the formula with
// its t_p term, delivers, and stays within the paper's bounds (runKind).
func TestFoldedPMNBPrefixCost(t *testing.T) {
	for _, c := range []struct{ d, m, tp int }{{2, 3, 1}, {3, 5, 1}, {4, 9, 2}, {5, 20, 3}, {6, 40, 1}, {7, 100, 2}} {
		p := map[string]string{"task.m": fmt.Sprint(c.m)}
		for _, task := range []string{"pmnb", "pmna"} {
			r0 := runKind(t, "folded-cube", c.d, task, p, 3)
			r := runKind(t, "folded-cube", c.d, task, map[string]string{"task.m": fmt.Sprint(c.m), "task.tp": fmt.Sprint(c.tp)}, 3)
			if add := r.Slots - r0.Slots; add != float64(4*c.d*c.tp) || r.Slots != *r.Formula {
				t.Errorf("%s d=%d M=%d t_p=%d: %g slots (t_p = 0: %g), formula %g; want %d added", task, c.d, c.m, c.tp, r.Slots, r0.Slots, *r.Formula, 4*c.d*c.tp)
			}
			if r.Deliveries != r0.Deliveries {
				t.Errorf("%s d=%d M=%d t_p=%d: %d deliveries, %d with t_p = 0", task, c.d, c.m, c.tp, r.Deliveries, r0.Deliveries)
			}
		}
	}
}

// The classes and targets the nodes take from their prefix messages are
// those of the ranks known in advance (node-id rank mod (d+1), rank in
// F_c order), for many active sets; a wrong rank is caught by the check.
func TestFoldedPrefixRanks(t *testing.T) {
	for _, c := range []struct{ d, m int }{{3, 1}, {3, 8}, {4, 7}, {5, 31}, {6, 64}} {
		for seed := uint64(1); seed <= 3; seed++ {
			var s, s0 *foldedPMNB
			_, err := runNet(topology.Spec{Kind: "folded-cube", D: c.d}, "pmnb", seed, nil, func(k *kernel.Kernel, g *Net, px *proxy, r *Result) (*checker, error) {
				d := bits.TrailingZeros(uint(g.N))
				x, err := newDims(g, d, d+1, func(v, j int) int { return v ^ foldGen(d, j) })
				if err != nil {
					return nil, err
				}
				act := randomActive(g.N, c.m, seed)
				s0 = newFoldedPMNB(x, slices.Clone(act), newChecker(g.N))
				ck := newChecker(g.N)
				s = newFoldedPMNB(x, act, ck)
				s.withPrefix(int(seed))
				s.load(k)
				px.SlotScheduler, px.limit = s, s.p0+s.start[d+1]+1
				return ck, nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if err := s.checkRanks(); err != nil {
				t.Fatalf("d=%d M=%d seed %d: %v", c.d, c.m, seed, err)
			}
			if !slices.Equal(s.cls, s0.cls) || !slices.Equal(s.tgt, s0.tgt) || !slices.Equal(s.start, s0.start) {
				t.Fatalf("d=%d M=%d seed %d: classes %v targets %v subphases %v by the prefix, %v %v %v known", c.d, c.m, seed, s.cls, s.tgt, s.start, s0.cls, s0.tgt, s0.start)
			}
			for v, a := range s.act { // (the first active node's class rank, corrupted)
				if a {
					s.pre.rank[1][int(s.cls[v])*(1<<c.d)+v] ^= 1
					break
				}
			}
			if s.checkRanks() == nil {
				t.Fatalf("d=%d M=%d seed %d: a corrupted class rank passed the check", c.d, c.m, seed)
			}
		}
	}
}
