package topology

import (
	"math/bits"
	"reflect"
	"testing"
)

// The folded butterfly's wiring, checked against its definition (§5.5,
// Fig. 5.8): every link goes to the next stage down the ring, straight
// links keep the row and cross links of stage i flip bit i only; every
// input port is fed by exactly one link.
func TestFoldedButterflyWiring(t *testing.T) {
	for d := 2; d <= 6; d++ {
		topo := mustBuild(t, Spec{Kind: "folded-butterfly", D: d})
		rows := 1 << d
		if len(topo.Switches) != d*rows || topo.Terminals() != d*rows {
			t.Fatalf("d=%d: %d switches, %d terminals, want %d", d, len(topo.Switches), topo.Terminals(), d*rows)
		}
		fed := make(map[[2]int32]int)
		for v, sw := range topo.Switches {
			i, r := v/rows, v%rows
			for p := range 2 {
				e := sw.Out[p]
				ni, nr := int(e.Switch)/rows, int(e.Switch)%rows
				if ni != (i+d-1)%d || int(e.Port) != p {
					t.Fatalf("d=%d: %s port %d reaches stage %d port %d", d, sw.Label, p, ni, e.Port)
				}
				if flip := r ^ nr; p == 0 && flip != 0 || p == 1 && flip != 1<<i {
					t.Fatalf("d=%d: %s port %d flips row bits %b", d, sw.Label, p, flip)
				}
				fed[[2]int32{e.Switch, e.Port}]++
			}
			if e := sw.Out[2]; !e.ToTerminal() || int(e.Terminal) != v {
				t.Fatalf("d=%d: %s local port %+v", d, sw.Label, e)
			}
		}
		if len(fed) != 2*d*rows {
			t.Fatalf("d=%d: %d input ports fed, want %d (each once)", d, len(fed), 2*d*rows)
		}
	}
}

// Greedy routing delivers every pair, in the greedy route's length: from
// stage i to row r', the stages i, i−1, … fix the differing bits, so the
// route reaches the destination's row after the last differing bit's stage
// and then goes straight on to the destination's stage; the cross links
// taken are exactly the differing bits.
func TestFoldedButterflyGreedyRoutes(t *testing.T) {
	for d := 2; d <= 5; d++ {
		topo := mustBuild(t, Spec{Kind: "folded-butterfly", D: d})
		rows := 1 << d
		n := d * rows
		worst := 0
		for src := range n {
			for dst := range n {
				path := walk(t, topo, src, dst, 0)
				hops, cross := len(path)-1, 0
				for h := 1; h < len(path); h++ {
					if path[h]%rows != path[h-1]%rows {
						cross++
					}
				}
				if want := bits.OnesCount(uint(src^dst) % uint(rows)); cross != want {
					t.Fatalf("d=%d %d→%d: %d cross links, want %d", d, src, dst, cross, want)
				}
				if want := greedyLen(d, src, dst); hops != want {
					t.Fatalf("d=%d %d→%d: %d hops, want %d", d, src, dst, hops, want)
				}
				worst = max(worst, hops)
			}
		}
		if worst != 2*d-1 {
			t.Errorf("d=%d: longest greedy route %d hops, want 2d − 1 = %d", d, worst, 2*d-1)
		}
		// The links all lead one stage on, so no path is shorter than the
		// greedy one: the routes' distances are the graph's (BFS).
		g, err := GraphDistances(topo)
		if err != nil {
			t.Fatal(err)
		}
		rt, err := RouteDistances(topo, nil)
		if err != nil || !reflect.DeepEqual(g.Hist, rt.Hist) {
			t.Errorf("d=%d: route distances %v, graph %v (%v)", d, rt.Hist, g.Hist, err)
		}
	}
}

// greedyLen is the greedy route's length from switch src to dst, counted
// stage by stage on the ring (a reference written apart from the router).
func greedyLen(d, src, dst int) int {
	rows := 1 << d
	i, r := src/rows, src%rows
	hops := 0
	for i != dst/rows || r != dst%rows {
		if (r^dst)>>i&1 != 0 {
			r ^= 1 << i
		}
		i = (i + d - 1) % d
		hops++
	}
	return hops
}
