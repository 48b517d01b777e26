package topology

import (
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/flit"
	xbar "github.com/flitsim/flitsim/switch"
)

func mustBuild(t *testing.T, s Spec) *Topology {
	t.Helper()
	topo, err := Build(s)
	if err != nil {
		t.Fatalf("Build(%+v): %v", s, err)
	}
	if err := topo.Validate(); err != nil {
		t.Fatalf("Validate(%+v): %v", s, err)
	}
	return topo
}

func trace(t *testing.T, topo *Topology, src, dst int, aux uint64) []Hop {
	t.Helper()
	w := &flit.Worm{Src: int32(src), Dst: int32(dst), Aux: aux}
	hops, err := Trace(topo, w)
	if err != nil {
		t.Fatalf("%s: %v", topo.Kind, err)
	}
	return hops
}

// allPairs checks that every (s, d) pair is delivered and returns the hop
// counts (switches crossed) per pair.
func allPairs(t *testing.T, topo *Topology, aux func(s, d int) uint64) [][]int {
	t.Helper()
	n := topo.Terminals()
	h := make([][]int, n)
	for s := 0; s < n; s++ {
		h[s] = make([]int, n)
		for d := 0; d < n; d++ {
			var a uint64
			if aux != nil {
				a = aux(s, d)
			}
			h[s][d] = len(trace(t, topo, s, d, a))
		}
	}
	return h
}

func TestAllPairsDelivered(t *testing.T) {
	var specs []Spec
	for d := 1; d <= 6; d++ {
		specs = append(specs, Spec{Kind: "hypercube", D: d}, Spec{Kind: "hypercube", D: d, Routing: "ecube-random"})
	}
	for _, kind := range []string{"mesh", "torus"} {
		for _, kn := range [][2]int{{2, 1}, {5, 1}, {2, 2}, {3, 2}, {4, 2}, {5, 2}, {2, 3}, {3, 3}, {4, 3}} {
			specs = append(specs, Spec{Kind: kind, K: kn[0], N: kn[1]})
		}
		specs = append(specs, Spec{Kind: kind, K: 4, N: 3, Order: []int{2, 0, 1}})
	}
	for _, kind := range []string{"omega", "baseline", "butterfly", "cube"} {
		for _, kn := range [][2]int{{2, 1}, {2, 2}, {2, 3}, {2, 4}, {2, 6}, {4, 1}, {4, 2}, {4, 3}, {8, 1}, {8, 2}, {3, 3}} {
			specs = append(specs, Spec{Kind: kind, K: kn[0], N: kn[1]})
		}
	}
	for _, path := range []string{"first", "latest", "random"} {
		for _, dims := range [][]int{{0}, {1, 0}, {2, 1, 0}, {1, 2, 1, 2, 0}, {2, 2, 2, 1, 0}, {1, 1, 2, 2, 0}, {1, 3, 2, 1, 0}, {1, 2, 3, 3, 1, 1, 0}} {
			specs = append(specs, Spec{Kind: "esmin", Dims: dims, Path: path})
		}
	}
	for _, s := range specs {
		name := fmt.Sprintf("%s/d=%d,k=%d,n=%d,dims=%v,%s%s", s.Kind, s.D, s.K, s.N, s.Dims, s.Routing, s.Path)
		t.Run(name, func(t *testing.T) {
			topo := mustBuild(t, s)
			rng := rand.New(rand.NewPCG(1, 2))
			allPairs(t, topo, func(src, dst int) uint64 {
				w := &flit.Worm{Src: int32(src), Dst: int32(dst)}
				topo.Router.Init(w, rng)
				return w.Aux
			})
		})
	}
}

// minRoute renders a MIN route as "label:outaddr" items, output address =
// row·k + port.
func minRoute(topo *Topology, hops []Hop) []string {
	out := make([]string, len(hops))
	for i, h := range hops {
		var g, row int
		fmt.Sscanf(h.Label, "s%d,%d", &g, &row)
		out[i] = fmt.Sprintf("%s:%d", h.Label, row*topo.Radix+h.Out)
	}
	return out
}

// checkRoute compares want (possibly a partial route, "label:out" or
// "label/in:out") with the traced route, aligned at want's first label.
func checkRoute(t *testing.T, topo *Topology, src, dst int, want string) {
	t.Helper()
	hops := trace(t, topo, src, dst, 0)
	got := minRoute(topo, hops)
	w := strings.Fields(want)
	start := -1
	first := strings.FieldsFunc(w[0], func(r rune) bool { return r == ':' || r == '/' })[0]
	for i, h := range hops {
		if h.Label == first {
			start = i
			break
		}
	}
	if start < 0 || start+len(w) > len(got) {
		t.Errorf("%s %d→%d: got %v, want %s", topo.Kind, src, dst, got, want)
		return
	}
	for i, item := range w {
		g := got[start+i]
		h := hops[start+i]
		label, out, _ := strings.Cut(item, ":")
		if l, in, ok := strings.Cut(label, "/"); ok {
			label = l
			if fmt.Sprint(h.In) != in {
				t.Errorf("%s %d→%d at %s: input %d, want %s (route %v)", topo.Kind, src, dst, label, h.In, in, got)
			}
		}
		gl, gout, _ := strings.Cut(g, ":")
		if gl != label || (out != "" && gout != out) {
			t.Errorf("%s %d→%d: got %v, want %s", topo.Kind, src, dst, got, want)
			return
		}
	}
}

// Chiang digest §6.2: 8-node cube MIN from source 0 (full routes).
func TestCube8RoutesFromZero(t *testing.T) {
	topo := mustBuild(t, Spec{Kind: "cube", K: 2, N: 3})
	want := map[int]string{
		1: "s2,0:0 s1,0:0 s0,0:1",
		2: "s2,0:0 s1,0:1 s0,1:2",
		3: "s2,0:0 s1,0:1 s0,1:3",
		4: "s2,0:1 s1,2:4 s0,2:4",
		5: "s2,0:1 s1,2:4 s0,2:5",
		6: "s2,0:1 s1,2:5 s0,3:6",
		7: "s2,0:1 s1,2:5 s0,3:7",
	}
	for d, w := range want {
		got := strings.Join(minRoute(topo, trace(t, topo, 0, d, 0)), " ")
		if got != w {
			t.Errorf("0→%d: got %s, want %s", d, got, w)
		}
	}
	// Fig 4.2: source 2 toward 3, and unicast 7→5, with input ports.
	checkRoute(t, topo, 2, 3, "s2,2/0:4 s1,0/1:1 s0,1/0:3")
	checkRoute(t, topo, 2, 4, "s2,2/0:5 s1,2/1:4 s0,2")
	checkRoute(t, topo, 7, 5, "s2,3/1:7 s1,3/1:6 s0,2/1:5")
}

// Digest §6.3 (Figs 4.1, 4.4) on the 16-node cube MIN.
func TestCube16Routes(t *testing.T) {
	topo := mustBuild(t, Spec{Kind: "cube", K: 2, N: 4})
	for _, c := range []struct {
		s, d int
		want string
	}{
		{0, 4, "s3,0:0 s2,0:1 s1,2:4 s0,2:4"},
		{4, 8, "s3,4:9 s2,4:8 s1,4:8 s0,4:8"},
		{8, 9, "s3,0:1 s2,4:8 s1,4:8 s0,4:9"},
		{4, 1, "s3,4:8 s2,0:0 s1,0:0 s0,0:1"},
		{0, 2, "s3,0:0 s2,0:0 s1,0:1 s0,1"},
		{0, 4, "s3,0:0 s2,0:1 s1,2:4"},
		{0, 6, "s3,0:0 s2,0:1 s1,2:5"},
		{0, 8, "s3,0:1 s2,4:8 s1,4:8"},
		{0, 10, "s3,0:1 s2,4:8 s1,4:9"},
		{0, 12, "s3,0:1 s2,4:9 s1,6:12"},
		{0, 14, "s3,0:1 s2,4:9 s1,6:13"},
		{6, 5, "s3,6:12 s2,2:5 s1,2:4"},
		{6, 7, "s3,6:12 s2,2:5 s1,2:5"},
		{6, 13, "s3,6:13 s2,6:13 s1,6:12"},
		{6, 15, "s3,6:13 s2,6:13 s1,6:13"},
	} {
		checkRoute(t, topo, c.s, c.d, c.want)
	}
}

// Digest §6.4 (Fig 4.7) on the 32-node cube MIN.
func TestCube32Routes(t *testing.T) {
	topo := mustBuild(t, Spec{Kind: "cube", K: 2, N: 5})
	for _, c := range []struct {
		s, d int
		want string
	}{
		{6, 2, "s4,6:12 s3,6:12 s2,2:4 s1,0:1 s0,1"},
		{6, 5, "s2,2:5 s1,2:4 s0,2"},
		{6, 21, "s4,6:13 s3,14:28 s2,10:21 s1,10:20 s0,10"},
		{12, 4, "s4,12:24 s3,4:8 s2,0:1 s1,2:4"},
		{12, 6, "s4,12:24 s3,4:8 s2,0:1 s1,2:5"},
		{12, 8, "s3,4:9 s2,4:8 s1,4:8 s0,4"},
		{12, 24, "s4,12:25 s3,12:25 s2,12:24 s1,12:24 s0,12"},
		{12, 25, "s4,12:25 s3,12:25 s2,12:24 s1,12:24 s0,12"},
		{30, 9, "s4,14:28 s3,6:13 s2,6:12 s1,4:8"},
		{30, 10, "s4,14:28 s3,6:13 s2,6:12 s1,4:9"},
		{30, 11, "s4,14:28 s3,6:13 s2,6:12 s1,4:9"},
		{30, 16, "s4,14:29 s3,14:28 s2,10:20 s1,8:16 s0,8"},
	} {
		checkRoute(t, topo, c.s, c.d, c.want)
	}
}

// Digest §6.5: 64-node baseline with 4×4 switches.
func TestBaseline64Routes(t *testing.T) {
	topo := mustBuild(t, Spec{Kind: "baseline", K: 4, N: 3})
	checkRoute(t, topo, 0, 1, "s2,0:0 s1,0:0 s0,0:1")
	checkRoute(t, topo, 2, 3, "s2,2:8 s1,0/2:0 s0,0:3")
}

// Digest §2.3: 64-node cube and baseline with 8×8 switches are identical.
func TestCubeEqualsBaseline8x8(t *testing.T) {
	c := mustBuild(t, Spec{Kind: "cube", K: 8, N: 2})
	b := mustBuild(t, Spec{Kind: "baseline", K: 8, N: 2})
	for i := range c.Switches {
		if fmt.Sprint(c.Switches[i]) != fmt.Sprint(b.Switches[i]) {
			t.Fatalf("switch %d differs: %v vs %v", i, c.Switches[i], b.Switches[i])
		}
	}
	if fmt.Sprint(c.InSwitch, c.InPort) != fmt.Sprint(b.InSwitch, b.InPort) {
		t.Fatal("injection differs")
	}
	for s := 0; s < 64; s++ {
		for d := 0; d < 64; d++ {
			if fmt.Sprint(trace(t, c, s, d, 0)) != fmt.Sprint(trace(t, b, s, d, 0)) {
				t.Fatalf("route %d→%d differs", s, d)
			}
		}
	}
	// And they differ from the 2×2 versions (Lemma 10: not equivalent).
	c2 := mustBuild(t, Spec{Kind: "cube", K: 2, N: 4})
	b2 := mustBuild(t, Spec{Kind: "baseline", K: 2, N: 4})
	if fmt.Sprint(c2.Switches) == fmt.Sprint(b2.Switches) {
		t.Error("16-node 2×2 cube and baseline should differ")
	}
}

func TestMINHopsAndPorts(t *testing.T) {
	for _, kind := range []string{"omega", "baseline", "butterfly", "cube"} {
		topo := mustBuild(t, Spec{Kind: kind, K: 4, N: 3})
		for s, row := range allPairs(t, topo, nil) {
			for d, h := range row {
				if h != 3 {
					t.Fatalf("%s %d→%d: %d hops", kind, s, d, h)
				}
			}
		}
		if topo.Radix != 4 || topo.Digits != 3 || len(topo.Switches) != 48 || topo.Switches[0].Label != "s2,0" || topo.Switches[47].Label != "s0,15" {
			t.Errorf("%s: shape %d %d %d %s", kind, topo.Radix, topo.Digits, len(topo.Switches), topo.Switches[0].Label)
		}
	}
}

func TestHypercube(t *testing.T) {
	for d := 1; d <= 6; d++ {
		for _, r := range []string{"ecube", "ecube-random", "dor"} {
			topo := mustBuild(t, Spec{Kind: "hypercube", D: d, Routing: r})
			if topo.Radix != 2 || topo.Digits != d || topo.Switches[5%(1<<d)].Label != fmt.Sprintf("n%d", 5%(1<<d)) {
				t.Fatal("shape")
			}
			n := 1 << d
			for s := 0; s < n; s++ {
				for dst := 0; dst < n; dst++ {
					for start := 0; start < d; start++ {
						hops := trace(t, topo, s, dst, uint64(start))
						if len(hops)-1 != bits.OnesCount(uint(s^dst)) {
							t.Fatalf("d=%d %s %d→%d: %d links", d, r, s, dst, len(hops)-1)
						}
						if last := hops[len(hops)-1]; last.Out != d {
							t.Fatalf("last hop not local: %+v", last)
						}
					}
				}
			}
		}
	}
	// Wiring: port j of i goes to i^(1<<j), port j.
	topo := mustBuild(t, Spec{Kind: "hypercube", D: 3})
	if e := topo.Switches[5].Out[1]; e != (End{Switch: 7, Port: 1, Terminal: -1}) {
		t.Errorf("n5 port 1: %+v", e)
	}
	if topo.InPort[5] != 3 || topo.Switches[5].Out[3] != (End{Switch: -1, Terminal: 5}) {
		t.Error("local port")
	}
}

func hopPorts(hops []Hop) []int {
	p := make([]int, len(hops))
	for i, h := range hops {
		p[i] = h.Out
	}
	return p
}

func TestHypercubeOrders(t *testing.T) {
	cases := []struct {
		spec     Spec
		src, dst int
		aux      uint64
		want     []int
	}{
		{Spec{Kind: "hypercube", D: 4}, 0, 15, 0, []int{0, 1, 2, 3, 4}},
		{Spec{Kind: "hypercube", D: 4, Order: []int{3, 1, 0, 2}}, 0, 15, 0, []int{3, 1, 0, 2, 4}},
		{Spec{Kind: "hypercube", D: 4, Routing: "ecube-random"}, 0, 15, 2, []int{2, 1, 0, 3, 4}},
		{Spec{Kind: "hypercube", D: 4, Routing: "ecube-random-start"}, 0, 15, 0, []int{0, 3, 2, 1, 4}},
		{Spec{Kind: "hypercube", D: 4, Routing: "ecube-random"}, 0, 15, 3, []int{3, 2, 1, 0, 4}},
		{Spec{Kind: "hypercube", D: 4, Routing: "ecube-random"}, 5, 10, 1, []int{1, 0, 3, 2, 4}},
		{Spec{Kind: "hypercube", D: 5, Routing: "ecube-random"}, 0, 0b10101, 3, []int{2, 0, 4, 5}},
		{Spec{Kind: "hypercube", D: 5, Routing: "ecube-random"}, 7, 7, 3, []int{5}},
	}
	for _, c := range cases {
		topo := mustBuild(t, c.spec)
		got := hopPorts(trace(t, topo, c.src, c.dst, c.aux))
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%+v %d→%d aux %d: ports %v, want %v", c.spec, c.src, c.dst, c.aux, got, c.want)
		}
	}
	// Init draws a uniform start dimension.
	topo := mustBuild(t, Spec{Kind: "hypercube", D: 5, Routing: "ecube-random"})
	rng := rand.New(rand.NewPCG(3, 4))
	var count [5]int
	for range 5000 {
		w := &flit.Worm{}
		topo.Router.Init(w, rng)
		count[w.Aux]++
	}
	for s, c := range count {
		if c < 850 || c > 1150 {
			t.Errorf("start %d drawn %d/5000 times", s, c)
		}
	}
}

func TestMeshTorusDistances(t *testing.T) {
	for _, kn := range [][2]int{{2, 1}, {5, 1}, {4, 1}, {2, 2}, {3, 2}, {4, 2}, {5, 2}, {2, 3}, {3, 3}, {4, 3}} {
		k, n := kn[0], kn[1]
		for _, torus := range []bool{false, true} {
			kind := "mesh"
			if torus {
				kind = "torus"
			}
			topo := mustBuild(t, Spec{Kind: kind, K: k, N: n})
			for s, row := range allPairs(t, topo, nil) {
				for d, h := range row {
					dist := 0
					for a, b := s, d; a > 0 || b > 0; a, b = a/k, b/k {
						x := a%k - b%k
						x = max(x, -x)
						if torus {
							x = min(x, k-x)
						}
						dist += x
					}
					if h-1 != dist {
						t.Fatalf("%s k=%d n=%d %d→%d: %d links, want %d", kind, k, n, s, d, h-1, dist)
					}
				}
			}
		}
	}
}

func TestMeshTorusWiring(t *testing.T) {
	m := mustBuild(t, Spec{Kind: "mesh", K: 4, N: 2})
	if m.Switches[6].Label != "r(2,1)" || fmt.Sprint(m.PortNames) != "[x- x+ y- y+ local]" {
		t.Errorf("label %s names %v", m.Switches[6].Label, m.PortNames)
	}
	// r(2,1): x+ → r(3,1) port x-; y- → r(2,0) port y+; x+ of r(3,1) is an edge.
	if e := m.Switches[6].Out[1]; e != (End{Switch: 7, Port: 0, Terminal: -1}) {
		t.Errorf("x+: %+v", e)
	}
	if e := m.Switches[6].Out[2]; e != (End{Switch: 2, Port: 3, Terminal: -1}) {
		t.Errorf("y-: %+v", e)
	}
	if e := m.Switches[7].Out[1]; e.Connected() || e.ToTerminal() || e != (End{Switch: -1, Terminal: -1}) {
		t.Errorf("edge: %+v", e)
	}
	if m.InPort[6] != 4 || m.Switches[6].Out[4] != (End{Switch: -1, Terminal: 6}) {
		t.Error("local")
	}
	tor := mustBuild(t, Spec{Kind: "torus", K: 4, N: 2})
	if e := tor.Switches[7].Out[1]; e != (End{Switch: 4, Port: 0, Terminal: -1}) {
		t.Errorf("torus wrap: %+v", e)
	}
	// k=2 torus: both directions lead to the same node on distinct ports.
	t2 := mustBuild(t, Spec{Kind: "torus", K: 2, N: 1})
	if fmt.Sprint(t2.Switches[0].Out) != "[{1 1 -1} {1 0 -1} {-1 0 0}]" {
		t.Errorf("k=2 torus: %v", t2.Switches[0].Out)
	}
	// Tie at distance k/2 goes +; shorter way otherwise; order respected.
	t4 := mustBuild(t, Spec{Kind: "torus", K: 4, N: 1})
	if p := hopPorts(trace(t, t4, 1, 3, 0)); fmt.Sprint(p) != "[1 1 2]" {
		t.Errorf("tie: %v", p)
	}
	if p := hopPorts(trace(t, t4, 0, 3, 0)); fmt.Sprint(p) != "[0 2]" {
		t.Errorf("wrap: %v", p)
	}
	yx := mustBuild(t, Spec{Kind: "mesh", K: 4, N: 2, Order: []int{1, 0}})
	if p := hopPorts(trace(t, yx, 0, 5, 0)); fmt.Sprint(p) != "[3 1 4]" {
		t.Errorf("yx: %v", p)
	}
	xy := mustBuild(t, Spec{Kind: "mesh", K: 4, N: 2})
	if p := hopPorts(trace(t, xy, 5, 0, 0)); fmt.Sprint(p) != "[0 2 4]" {
		t.Errorf("xy: %v", p)
	}
	m4 := mustBuild(t, Spec{Kind: "mesh", K: 2, N: 4})
	if m4.PortNames[7] != "x3+" || m4.Switches[15].Label != "r(1,1,1,1)" {
		t.Errorf("4-D names %v %s", m4.PortNames, m4.Switches[15].Label)
	}
}

func TestBadSpecs(t *testing.T) {
	cases := []struct {
		spec Spec
		key  string
	}{
		{Spec{Kind: "ring"}, "topology.kind"},
		{Spec{}, "topology.kind"},
		{Spec{Kind: "hypercube", D: 0}, "topology.d"},
		{Spec{Kind: "hypercube", D: 21}, "topology.d"},
		{Spec{Kind: "hypercube", D: 3, Order: []int{0, 1}}, "topology.order"},
		{Spec{Kind: "hypercube", D: 3, Order: []int{0, 1, 1}}, "topology.order"},
		{Spec{Kind: "hypercube", D: 3, Routing: "dest-tag"}, "routing"},
		{Spec{Kind: "mesh", K: 1, N: 2}, "topology.k"},
		{Spec{Kind: "mesh", K: 4, N: 0}, "topology.n"},
		{Spec{Kind: "torus", K: 4, N: 11}, "topology.n"},
		{Spec{Kind: "torus", K: 4, N: 2, Order: []int{2, 0}}, "topology.order"},
		{Spec{Kind: "torus", K: 4, N: 2, Routing: "ecube"}, "routing"},
		{Spec{Kind: "omega", K: 1, N: 2}, "topology.k"},
		{Spec{Kind: "omega", K: 65, N: 1}, "topology.k"},
		{Spec{Kind: "cube", K: 2, N: 0}, "topology.n"},
		{Spec{Kind: "cube", K: 2, N: 21}, "topology.n"},
		{Spec{Kind: "baseline", K: 2, N: 3, Routing: "dor"}, "routing"},
		{Spec{Kind: "esmin"}, "topology.dims"},
		{Spec{Kind: "esmin", Dims: []int{1, 2, 1}}, "topology.dims"},
		{Spec{Kind: "esmin", Dims: []int{2, 0}}, "topology.dims"},
		{Spec{Kind: "esmin", Dims: []int{0, 1, 0}}, "topology.dims"},
		{Spec{Kind: "esmin", Dims: []int{-1, 0}}, "topology.dims"},
		{Spec{Kind: "esmin", Dims: []int{1, 0}, Path: "sideways"}, "topology.path"},
		{Spec{Kind: "esmin", Dims: []int{1, 2, 1, 2, 0}, Path: "given", PathIndex: 4}, "topology.path_index"},
		{Spec{Kind: "esmin", Dims: []int{1, 2, 1, 2, 0}, Path: "given", PathIndex: -1}, "topology.path_index"},
		{Spec{Kind: "esmin", Dims: []int{1, 2, 1, 2, 0}, Path: "latest", PathIndex: 1}, "topology.path_index"},
		{Spec{Kind: "esmin", Dims: []int{1, 0}, Routing: "dor"}, "routing"},
	}
	for _, c := range cases {
		_, err := Build(c.spec)
		var e *inputerr.Error
		if !errors.As(err, &e) {
			t.Errorf("%+v: error %v is not *inputerr.Error", c.spec, err)
			continue
		}
		if e.Key != c.key {
			t.Errorf("%+v: key %q, want %q (%v)", c.spec, e.Key, c.key, e)
		}
		if !strings.HasPrefix(e.Error(), c.key+": ") || !strings.Contains(e.Error(), " is not allowed (allowed: ") {
			t.Errorf("message %q", e.Error())
		}
	}
	_, err := Build(Spec{Kind: "mesh", K: 1, N: 2})
	if got := err.Error(); !strings.Contains(got, "topology.k: 1 is not allowed (allowed: an integer from 2") {
		t.Errorf("message %q", got)
	}
}

func TestKindsAndDefaults(t *testing.T) {
	want := map[string]string{"hypercube": "ecube", "mesh": "dor", "torus": "dor", "omega": "destination-tag",
		"baseline": "destination-tag", "butterfly": "destination-tag", "cube": "destination-tag", "esmin": "destination-tag",
		"modified-baseline": "destination-tag", "modified-butterfly": "destination-tag",
		"dshuffle": "standard", "ccc": "standard", "ccc-plus": "upfal", "shuffle-exchange": "standard",
		"folded-cube": "shortest", "folded-butterfly": "greedy", "pseudocube": "msb", "permutation-cube": "msb", "enhanced-cube": "greedy",
		"file": "file"}
	if len(Kinds()) != len(want) {
		t.Errorf("%d kinds", len(Kinds()))
	}
	for _, k := range Kinds() {
		if DefaultRouting(k.Name) != want[k.Name] || k.Desc == "" || len(k.Params) == 0 {
			t.Errorf("%+v", k)
		}
	}
	if DefaultRouting("ring") != "" {
		t.Error("unknown kind")
	}
	// Aliases build and the kind is canonicalized.
	for _, s := range []Spec{
		{Kind: "Omega", K: 2, N: 3, Routing: "tag"},
		{Kind: "cube", K: 2, N: 3, Routing: "dest-tag"},
		{Kind: "hypercube", D: 3, Routing: "DOR"},
		{Kind: "esmin", Dims: []int{1, 0}, Path: "LB", Routing: "destination-tag"},
	} {
		topo := mustBuild(t, s)
		if topo.Kind != strings.ToLower(s.Kind) {
			t.Errorf("kind %q", topo.Kind)
		}
	}
}

func TestValidateCatchesMiswiring(t *testing.T) {
	topo := mustBuild(t, Spec{Kind: "cube", K: 2, N: 3})
	topo.Switches[0].Out[0] = topo.Switches[0].Out[1]
	if topo.Validate() == nil {
		t.Error("double-fed input not caught")
	}
	topo = mustBuild(t, Spec{Kind: "mesh", K: 3, N: 2})
	topo.Switches[4].Out[4] = End{Switch: -1, Terminal: 3}
	if topo.Validate() == nil {
		t.Error("wrong ejection not caught")
	}
}

func TestTraceErrors(t *testing.T) {
	topo := mustBuild(t, Spec{Kind: "cube", K: 2, N: 3})
	// Swap the two G_0 ejections of s0,0: 0→1 now arrives at terminal 0.
	o := topo.Switches[8].Out
	o[0], o[1] = o[1], o[0]
	if _, err := Trace(topo, &flit.Worm{Src: 0, Dst: 1}); err == nil {
		t.Error("wrong terminal not caught")
	}
	if _, err := Trace(topo, &flit.Worm{Src: 0, Dst: 8}); err == nil {
		t.Error("out-of-range destination not caught")
	}
	m := mustBuild(t, Spec{Kind: "mesh", K: 3, N: 1})
	m.Router = loopRouter{}
	if _, err := Trace(m, &flit.Worm{Src: 0, Dst: 2}); err == nil || !strings.Contains(err.Error(), "loop") {
		t.Errorf("loop not caught: %v", err)
	}
}

type loopRouter struct{}

func (loopRouter) Name() string                { return "loop" }
func (loopRouter) Init(*flit.Worm, *rand.Rand) {}

func (loopRouter) Route(sw, in int, w *flit.Worm) xbar.PortSet {
	if sw == 0 {
		return 1 << 1
	}
	return 1 << 0
}

func TestRouteDoesNotAllocate(t *testing.T) {
	for _, s := range []Spec{
		{Kind: "hypercube", D: 6, Routing: "ecube-random"},
		{Kind: "hypercube", D: 6, Order: []int{5, 4, 3, 2, 1, 0}},
		{Kind: "torus", K: 4, N: 3},
		{Kind: "mesh", K: 4, N: 3},
		{Kind: "butterfly", K: 4, N: 3},
		{Kind: "esmin", Dims: []int{1, 2, 1, 2, 0}, Path: "random"},
		{Kind: "esmin", Dims: []int{1, 2, 1, 2, 0}, Path: "latest"},
		{Kind: "folded-cube", D: 6},
		{Kind: "pseudocube", D: 6},
		{Kind: "permutation-cube", D: 6},
		{Kind: "enhanced-cube", D: 6},
		{Kind: "enhanced-cube", D: 6, Routing: "valiant"},
	} {
		topo := mustBuild(t, s)
		w := &flit.Worm{Src: 1, Dst: int32(topo.Terminals() - 1), Aux: 3}
		allocs := testing.AllocsPerRun(100, func() {
			for sw := range topo.Switches {
				topo.Router.Route(sw, 0, w)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocs", s.Kind, allocs)
		}
	}
}

// A cube's switches are labelled n0, n1, ... in index order
// (numberLabels cuts them from one string).
func TestCubeLabels(t *testing.T) {
	for _, s := range []Spec{{Kind: "hypercube", D: 5, Routing: "ecube"}, {Kind: "hypercube", D: 11, Routing: "ecube"}} {
		topo, err := Build(s)
		if err != nil {
			t.Fatal(err)
		}
		for i, sw := range topo.Switches {
			if want := "n" + strconv.Itoa(i); sw.Label != want {
				t.Fatalf("%d-cube: switch %d labelled %q, want %q", s.D, i, sw.Label, want)
			}
		}
	}
}
