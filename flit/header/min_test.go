package header

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/network/topology"
)

func mustMIN(t testing.TB, kind string, k, n int) *MIN {
	t.Helper()
	m, err := NewMIN(kind, k, n)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// visitMap is a multicast tree as switch label → port → header string.
func visitMap(tr *Tree) map[string]map[int]string {
	m := map[string]map[int]string{}
	for _, v := range tr.Visits {
		m[v.Label] = portStrings(v.Out)
	}
	return m
}

// Chiang §3.4 worked examples on the 8-node cube MIN (2×2, 3 stages),
// source 0 (digest §6.2): every switch the header reaches and what each
// enabled port sends. Where the figures are lost the expected headers follow
// the §3.4 rules (digest [derived]); the delivered sets and enable patterns
// are the thesis's.
func TestMINExamples(t *testing.T) {
	m := mustMIN(t, "cube", 2, 3)
	o := Options{Nodes: 8, FlitBits: 3}
	for _, c := range []struct {
		name string
		s    Scheme
		d    []int
		o    Options
		want map[string]map[int]string
	}{
		{"Fig 3.6 all-destination", AllDestination, []int{2, 3, 5}, o, map[string]map[int]string{
			"s2,0": {0: "2 3 5 E", 1: "5 E"}, // 5 is a useless address on port 0
			"s1,0": {1: "2 3 5 E"},
			"s0,1": {0: "2 3 5 E", 1: "3 5 E"},
			"s1,2": {0: "5 E"},
			"s0,2": {1: "5 E"},
		}},
		{"Fig 3.8 buffered bit string", BitStringBuffered, []int{2, 3, 5}, o, map[string]map[int]string{
			"s2,0": {0: "0011", 1: "0100"},
			"s1,0": {1: "11"},
			"s0,1": {0: "1", 1: "1"},
			"s1,2": {0: "01"},
			"s0,2": {1: "1"},
		}},
		{"Fig 3.9 hierarchical bit string", BitStringHier, []int{2, 3, 5}, o, map[string]map[int]string{
			"s2,0": {0: "010011", 1: "100100"},
			"s1,0": {1: "11"},
			"s0,1": {0: "", 1: ""},
			"s1,2": {0: "01"},
			"s0,2": {1: ""},
		}},
		// S20 splits (3:6) into (3:3) and (4:6); port 1 gets counter 1.
		{"Fig 3.11 region broadcast", RegionBroadcast, []int{1, 3, 4, 5, 6}, o, map[string]map[int]string{
			"s2,0": {0: "2; 1:1 3:3", 1: "1; 4:6"},
			"s1,0": {0: "2; 1:1 3:3", 1: "1; 3:3"}, // (3:3) is useless on port 0
			"s0,0": {1: "2; 1:1 3:3"},
			"s0,1": {1: "1; 3:3"},
			"s1,2": {0: "1; 4:5", 1: "1; 6:6"},
			"s0,2": {0: "1; 4:4", 1: "1; 5:5"},
			"s0,3": {0: "1; 6:6"},
		}},
		{"Fig 3.12 region stride", RegionStride, []int{1, 3, 5, 7}, o, map[string]map[int]string{
			"s2,0": {0: "1; 1:3:2", 1: "1; 5:7:2"},
			"s1,0": {0: "1; 1:1:2", 1: "1; 3:3:2"},
			"s1,2": {0: "1; 5:5:2", 1: "1; 7:7:2"},
			"s0,0": {1: "1; 1:1:2"},
			"s0,1": {1: "1; 3:3:2"},
			"s0,2": {1: "1; 5:5:2"},
			"s0,3": {1: "1; 7:7:2"},
		}},
		{"Fig 3.14 region mask", RegionMask, []int{1, 4, 5}, o, map[string]map[int]string{
			"s2,0": {0: "1; 001:001:000", 1: "1; 100:101:001"},
			"s1,0": {0: "1; 001:001:000"},
			"s0,0": {1: "1; 001:001:000"},
			"s1,2": {0: "1; 100:101:001"},
			"s0,2": {0: "1; 100:100:000", 1: "1; 101:101:000"},
		}},
		{"Fig 3.16 region bit string", RegionBitString, []int{2, 3, 5}, Options{Nodes: 8, FlitBits: 4}, map[string]map[int]string{
			"s2,0": {0: "1; 2:3:11", 1: "1; 5:5:1"},
			"s1,0": {1: "1; 2:3:11"},
			"s0,1": {0: "1; 2:2:1", 1: "1; 3:3:1"},
			"s1,2": {0: "1; 5:5:1"},
			"s0,2": {1: "1; 5:5:1"},
		}},
	} {
		h := mustEncode(t, c.s, c.d, c.o)
		tr, err := m.Multicast(0, h)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		got := visitMap(tr)
		if !maps.EqualFunc(got, c.want, maps.Equal) {
			t.Errorf("%s: header %s\n got  %v\n want %v", c.name, h, got, c.want)
		}
		if !slices.Equal(tr.Delivered, c.d) {
			t.Errorf("%s: delivered %v, want %v", c.name, tr.Delivered, c.d)
		}
	}
	// Fig 3.6 timing: S20 enables port 0 on address 2 (flit 0) and port 1
	// on address 5 (flit 2).
	h := mustEncode(t, AllDestination, []int{2, 3, 5}, o)
	out, err := m.Decode(2, 0, h)
	if err != nil || len(out) != 2 || out[0].EnabledAt != 0 || out[1].EnabledAt != 2 || out[0].To != "s1,0" || out[1].To != "s1,2" {
		t.Errorf("Decode(s2,0, %s) = %+v, %v", h, out, err)
	}
}

// Fig 4.2: source 2 to {3,4,5,6,7} in the 8-node cube: the header is in
// s2,2 in cycle 1, in s1,0 (port 1 only) and s1,2 (both ports) in cycle 2,
// in s0,1, s0,2 and s0,3 in cycle 3.
func TestMINFig42Tree(t *testing.T) {
	m := mustMIN(t, "cube", 2, 3)
	h := mustEncode(t, RegionBroadcast, []int{3, 4, 5, 6, 7}, Options{Nodes: 8, FlitBits: 3})
	tr, err := m.Multicast(2, h)
	if err != nil {
		t.Fatal(err)
	}
	byStage := map[int][]string{}
	enabled := map[string][]int{}
	for _, v := range tr.Visits {
		byStage[v.Stage] = append(byStage[v.Stage], v.Label)
		for _, o := range v.Out {
			enabled[v.Label] = append(enabled[v.Label], o.Port)
		}
	}
	want := map[int][]string{2: {"s2,2"}, 1: {"s1,0", "s1,2"}, 0: {"s0,1", "s0,2", "s0,3"}}
	if !maps.EqualFunc(byStage, want, slices.Equal) {
		t.Errorf("switches by stage %v, want %v", byStage, want)
	}
	if !slices.Equal(enabled["s1,0"], []int{1}) || !slices.Equal(enabled["s1,2"], []int{0, 1}) || !slices.Equal(enabled["s2,2"], []int{0, 1}) {
		t.Errorf("enabled ports %v", enabled)
	}
	if !slices.Equal(tr.Delivered, []int{3, 4, 5, 6, 7}) {
		t.Errorf("delivered %v", tr.Delivered)
	}
}

var minShapes = []struct{ k, n int }{{2, 1}, {2, 2}, {2, 3}, {2, 4}, {2, 5}, {4, 1}, {4, 2}, {4, 3}, {8, 1}, {8, 2}}

// The reach sets found from the wiring agree with destination-tag routing:
// every traced route to d leaves each switch by a port whose reach holds d,
// each port of a stage-i switch reaches k^i nodes, and a first-stage
// switch's tree order is the encoders' bit order.
func TestMINReachMatchesRouting(t *testing.T) {
	for _, kind := range MINKinds {
		for _, sh := range minShapes {
			m := mustMIN(t, kind, sh.k, sh.n)
			reach := map[int][][]int{}
			for sw := range m.topo.Switches {
				st, row := m.stageRow(sw)
				r, err := m.Reach(st, row)
				if err != nil {
					t.Fatal(err)
				}
				for _, l := range r {
					if len(l) != pow(sh.k, st) {
						t.Fatalf("%s k=%d n=%d %s: port reaches %d nodes, want k^%d", kind, sh.k, sh.n, m.topo.Switches[sw].Label, len(l), st)
					}
				}
				reach[sw] = r
			}
			for src := range m.Nodes {
				for d := range m.Nodes {
					hops, err := topology.Trace(m.topo, &flit.Worm{Src: int32(src), Dst: int32(d)})
					if err != nil {
						t.Fatal(err)
					}
					for _, hp := range hops {
						if !slices.Contains(reach[hp.Switch][hp.Out], d) {
							t.Fatalf("%s k=%d n=%d: route %d→%d leaves %s by port %d, which does not reach %d", kind, sh.k, sh.n, src, d, hp.Label, hp.Out, d)
						}
					}
				}
			}
			st, row := m.Inject(0)
			r, _ := m.Reach(st, row)
			pos := treeOrder(kind, sh.k, sh.n)
			for i, x := range slices.Concat(r...) {
				if pos(x) != i {
					t.Fatalf("%s k=%d n=%d: node %d is %d-th in the tree order, encoders put it at %d", kind, sh.k, sh.n, x, i, pos(x))
				}
			}
		}
	}
}

// The round trip: for random destination sets, every scheme (both region
// forms), every MIN kind and k ∈ {2, 4, 8}, decoding switch by switch from a
// random source delivers exactly the destination set, and every switch
// passes on only what it can reach.
func TestMINRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	schemes := append([]Scheme{PseudoAllDestination}, Table31Schemes...)
	for _, kind := range MINKinds {
		for _, sh := range minShapes {
			m := mustMIN(t, kind, sh.k, sh.n)
			for _, s := range schemes {
				for trial := range 12 {
					d := randomSet(rng, m.Nodes)
					o := Options{Nodes: m.Nodes, K: sh.k, MIN: kind, FlitBits: addrBits(m.Nodes) + rng.IntN(5),
						EOH: trial%2 == 1, MaskAnyRun: trial%3 == 0}
					h := mustEncode(t, s, d, o)
					src := rng.IntN(m.Nodes)
					tr, err := m.Multicast(src, h)
					if err != nil {
						t.Fatalf("%s k=%d n=%d %s %v: %v", kind, sh.k, sh.n, s, d, err)
					}
					if !slices.Equal(tr.Delivered, d) {
						t.Fatalf("%s k=%d n=%d %s from %d: header %s delivered %v, want %v", kind, sh.k, sh.n, s, src, h, tr.Delivered, d)
					}
					if len(tr.Visits) > sh.n*m.Nodes/sh.k {
						t.Fatalf("%d visits", len(tr.Visits))
					}
				}
			}
		}
	}
}

// Pseudo all-destination: the header a switch receives is the source header
// minus (pos(first destination below the switch) − pos(d_1)) flits, so every
// branch's lag is fixed by its addresses alone (Chiang §4.3, Lemma 5).
func TestPseudoHeaderLag(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, kind := range MINKinds {
		for _, sh := range minShapes {
			m := mustMIN(t, kind, sh.k, sh.n)
			pos := treeOrder(kind, sh.k, sh.n)
			for range 10 {
				d := randomSet(rng, m.Nodes)
				h := mustEncode(t, PseudoAllDestination, d, Options{Nodes: m.Nodes, K: sh.k, MIN: kind, FlitBits: addrBits(m.Nodes)})
				first := slices.MinFunc(d, func(a, b int) int { return pos(a) - pos(b) })
				tr, err := m.Multicast(rng.IntN(m.Nodes), h)
				if err != nil {
					t.Fatal(err)
				}
				for _, v := range tr.Visits {
					r, _ := m.Reach(v.Stage, v.Row)
					below := slices.Concat(r...)
					lo := m.Nodes
					for _, x := range d {
						if slices.Contains(below, x) {
							lo = min(lo, pos(x))
						}
					}
					if lag := h.Len() - v.In.Len(); lag != lo-pos(first) {
						t.Fatalf("%s k=%d n=%d %v: %s receives a header lagging %d, want %d", kind, sh.k, sh.n, d, v.Label, lag, lo-pos(first))
					}
				}
			}
		}
	}
}

func TestMINDecodeErrors(t *testing.T) {
	m := mustMIN(t, "cube", 2, 3)
	bfly := mustEncode(t, BitStringBuffered, []int{1, 2}, Options{Nodes: 8, FlitBits: 3, MIN: "butterfly"})
	if _, err := m.Decode(2, 0, bfly); err == nil {
		t.Error("a butterfly-order bit string decoded in a cube MIN")
	}
	bs := mustEncode(t, BitStringBuffered, []int{1, 2}, Options{Nodes: 8, FlitBits: 3})
	if _, err := m.Decode(1, 0, bs); err == nil {
		t.Error("an 8-bit string accepted at stage 1 (wants 4 bits)")
	}
	if _, err := m.Decode(3, 0, bs); err == nil {
		t.Error("stage 3 accepted in a 3-stage MIN")
	}
	other := mustEncode(t, RegionBroadcast, []int{1, 2}, Options{Nodes: 16, FlitBits: 4})
	if _, err := m.Decode(2, 0, other); err == nil {
		t.Error("a 16-node header decoded in an 8-node MIN")
	}
	broken := mustEncode(t, RegionBroadcast, []int{1, 2, 5}, Options{Nodes: 8, FlitBits: 3})
	broken.Flits = broken.Flits[:len(broken.Flits)-1]
	if _, err := m.Decode(2, 0, broken); err == nil {
		t.Error("a truncated header decoded")
	}
	if _, err := NewMIN("mesh", 2, 3); err == nil {
		t.Error("NewMIN accepted a mesh")
	}
}

func ExampleMIN_Multicast() {
	// Chiang Fig 3.11: source 0 to {1,3,4,5,6} in an 8-node cube MIN.
	m, _ := NewMIN("cube", 2, 3)
	h, _ := Encode(RegionBroadcast, []int{1, 3, 4, 5, 6}, Options{Nodes: 8, FlitBits: 3})
	tr, _ := m.Multicast(0, h)
	for _, v := range tr.Visits {
		for _, o := range v.Out {
			fmt.Printf("%s port %d → %-6s %s\n", v.Label, o.Port, o.To, o.Header)
		}
	}
	fmt.Println("delivered", tr.Delivered)
	// Output:
	// s2,0 port 0 → s1,0   2; 1:1 3:3
	// s2,0 port 1 → s1,2   1; 4:6
	// s1,0 port 0 → s0,0   2; 1:1 3:3
	// s1,0 port 1 → s0,1   1; 3:3
	// s1,2 port 0 → s0,2   1; 4:5
	// s1,2 port 1 → s0,3   1; 6:6
	// s0,0 port 1 → node 1 2; 1:1 3:3
	// s0,1 port 1 → node 3 1; 3:3
	// s0,2 port 0 → node 4 1; 4:4
	// s0,2 port 1 → node 5 1; 5:5
	// s0,3 port 0 → node 6 1; 6:6
	// delivered [1 3 4 5 6]
}
