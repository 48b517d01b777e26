package topology

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/flitsim/flitsim/flit"
	xbar "github.com/flitsim/flitsim/switch"
)

// Route statistics of Brebner's standard routes (digest 004 §2.9), measured
// on the built networks by walking every (source, destination) pair,
// source = destination included (a uniform random destination may be the
// source), and graph diameters by breadth-first search over the wiring.

// walk follows t's router and wiring from terminal src to dst, as the
// kernel does (RouteHead for a stateful router), and returns the routers
// visited, src's first; it fails the test on a wrong or endless route.
func walk(tb testing.TB, t *Topology, src, dst int, aux uint64) []int {
	return walkInto(tb, t, src, dst, aux, nil)
}

// walkInto is walk appending to nodes[:0] (no allocation once it is big
// enough).
func walkInto(tb testing.TB, t *Topology, src, dst int, aux uint64, nodes []int) []int {
	w := &flit.Worm{Src: int32(src), Dst: int32(dst), Aux: aux}
	sr, stateful := t.Router.(StatefulRouter)
	var st flit.RouteState
	sw, in := int(t.InSwitch[src]), int(t.InPort[src])
	nodes = append(nodes[:0], sw)
	for len(nodes) < 4*len(t.Switches)+16 {
		var ps xbar.PortSet
		if stateful {
			ps = sr.RouteHead(sw, in, w, &st)
		} else {
			ps = t.Router.Route(sw, in, w)
		}
		e := t.Switches[sw].Out[ps.First()]
		if ps.Count() != 1 || !e.Connected() {
			tb.Fatalf("%s %d→%d: bad port set %b at %d", t.Kind, src, dst, uint64(ps), sw)
		}
		if e.ToTerminal() {
			if int(e.Terminal) != dst {
				tb.Fatalf("%s %d→%d: ejected at %d", t.Kind, src, dst, e.Terminal)
			}
			return nodes
		}
		sw, in = int(e.Switch), int(e.Port)
		nodes = append(nodes, sw)
	}
	tb.Fatalf("%s %d→%d: no delivery", t.Kind, src, dst)
	return nil
}

// routeStats is the mean and maximum route length (links between routers)
// over all pairs, and the mean per source (for the d-shuffle's Lemma 3.5).
// Only sources 0..srcs−1 are walked when srcs > 0 (a network whose routes
// look the same from every source needs fewer).
func routeStats(tb testing.TB, t *Topology, srcs int, aux func() uint64) (mean float64, maxLen int, perSrc []float64) {
	n := t.Terminals()
	if srcs <= 0 {
		srcs = n
	}
	total := 0
	perSrc = make([]float64, srcs)
	var buf []int
	for s := range srcs {
		sum := 0
		for d := range n {
			buf = walkInto(tb, t, s, d, aux(), buf)
			l := len(buf) - 1
			sum += l
			maxLen = max(maxLen, l)
		}
		total += sum
		perSrc[s] = float64(sum) / float64(n)
	}
	return float64(total) / float64(srcs*n), maxLen, perSrc
}

// diameter is the largest router-to-router distance over the directed
// links (self-loops count as links but never shorten a path).
func diameter(t *Topology) int {
	n := len(t.Switches)
	dist := make([]int, n)
	queue := make([]int, 0, n)
	best := 0
	for s := range n {
		for i := range dist {
			dist[i] = -1
		}
		dist[s], queue = 0, append(queue[:0], s)
		for h := 0; h < len(queue); h++ {
			v := queue[h]
			for _, e := range t.Switches[v].Out {
				if e.Switch >= 0 && dist[e.Switch] < 0 {
					dist[e.Switch] = dist[v] + 1
					queue = append(queue, int(e.Switch))
				}
			}
		}
		if len(queue) != n {
			return -1 // not strongly connected
		}
		best = max(best, dist[queue[n-1]])
	}
	return best
}

// statCase is one row of digest §2.9 at one size: the published mean (the
// digest's rounded value and its closed form), route maximum and diameter.
type statCase struct {
	spec      Spec
	published float64 // as printed (digits as the digest gives them)
	places    int     // decimal places printed
	exact     float64 // the closed form
	maxLen    int
	diam      int
	srcs      int // walk only sources 0..srcs−1 (0: all)
}

func TestBrebnerRouteStatistics(t *testing.T) {
	var cases []statCase
	for n := 2; n <= 8; n++ { // cube: Binomial(n, ½) for every dimension order
		for _, r := range []string{"ecube", "random-order", "semi-strict"} {
			cases = append(cases, statCase{Spec{Kind: "hypercube", D: n, Routing: r}, float64(n) / 2, 1, float64(n) / 2, n, n, 0})
		}
	}
	for _, dn := range [][2]int{{2, 5}, {2, 8}, {3, 6}, {4, 4}, {2, 9}} { // d-shuffle standard: exactly n
		d, n := dn[0], dn[1]
		cases = append(cases, statCase{Spec{Kind: "dshuffle", D: d, N: n, Routing: "standard"}, float64(n), 0, float64(n), n, n, 0})
	}
	// d-shuffle shortest: the digest's enumerated means (§2.2 table).
	for _, c := range []struct {
		d, n int
		mean float64
	}{{2, 5, 3.5352}, {2, 8, 6.3919}, {2, 9, 7.3773}, {3, 6, 5.3188}, {4, 4, 3.5845}} {
		cases = append(cases, statCase{Spec{Kind: "dshuffle", D: c.d, N: c.n, Routing: "shortest"}, c.mean, 4, math.NaN(), c.n, c.n, 0})
	}
	// CCC, Lemma 3.3 (s = 2..8) and the maximum 2s−1+⌊s/2⌋, diameter by BFS (§2.3).
	cccMean := []float64{2.0000, 3.4167, 5.1250, 6.7625, 8.5312, 10.2299, 12.0078}
	cccDiam := []int{4, 6, 8, 10, 13, 15, 18}
	for s := 2; s <= 8; s++ {
		exact := 7*float64(s)/4 + math.Pow(2, float64(1-s)) - 2
		if s%2 == 1 {
			exact -= 1 / (4 * float64(s))
		}
		c := statCase{Spec{Kind: "ccc", N: s}, cccMean[s-2], 4, exact, 2*s - 1 + s/2, cccDiam[s-2], 0}
		if s == 8 {
			// The route from (c,p) to (c',p') is the route from (0,p) to
			// (c⊕c',p') translated by c: the s sources on cycle 0 see every
			// route length once per destination (the test stays fast).
			c.srcs = s
		}
		cases = append(cases, c)
	}
	for n := 2; n <= 10; n++ { // shuffle-exchange: n + Binomial(n, ½)
		cases = append(cases, statCase{Spec{Kind: "shuffle-exchange", N: n}, 1.5 * float64(n), 1, 1.5 * float64(n), 2 * n, 2*n - 1, 0})
	}
	// Grid, Lemma 3.4 (2/3)(n − 1/n), strict and random; torus n/2 or (n²−1)/(2n).
	gridMean := map[int]float64{5: 3.200, 10: 6.600, 15: 9.956, 20: 13.300, 25: 16.640, 30: 19.978}
	for _, n := range []int{5, 10, 15, 20, 25, 30} {
		for _, r := range []string{"dor", "random-order"}[:1+b2i(n <= 20)] {
			cases = append(cases, statCase{Spec{Kind: "mesh", K: n, N: 2, Order: IntList{1, 0}, Routing: r},
				gridMean[n], 3, 2.0 / 3 * (float64(n) - 1/float64(n)), 2 * (n - 1), 2 * (n - 1), 0})
		}
	}
	torusMean := map[int]float64{5: 2.4, 10: 5, 15: 7.47, 20: 10, 25: 12.48}
	for _, n := range []int{5, 10, 15, 20, 25} {
		exact := float64(n) / 2
		if n%2 == 1 {
			exact = float64(n*n-1) / float64(2*n)
		}
		for _, r := range []string{"dor", "random-order"} {
			cases = append(cases, statCase{Spec{Kind: "torus", K: n, N: 2, Order: IntList{1, 0}, Tie: "random", Routing: r},
				torusMean[n], 2, exact, 2 * (n / 2), 2 * (n / 2), 0})
		}
	}
	rng := rand.New(rand.NewPCG(15, 2))
	for _, c := range cases {
		topo := mustBuild(t, c.spec)
		w := &flit.Worm{}
		mean, maxLen, _ := routeStats(t, topo, c.srcs, func() uint64 { topo.Router.Init(w, rng); return w.Aux })
		name := topo.Kind + " " + topo.Router.Name()
		d := diameter(topo)
		t.Logf("%-36s N=%-5d published mean %-8v measured %.6f  longest %d  diameter %d", fmt.Sprintf("%s %+v", name, sizeOf(c.spec)), topo.Terminals(), c.published, mean, maxLen, d)
		if !math.IsNaN(c.exact) && math.Abs(mean-c.exact) > 1e-9 {
			t.Errorf("%s %+v: mean route %.6f, closed form %.6f", name, c.spec, mean, c.exact)
		}
		// Within half a unit of the last printed place (8.53125 is printed 8.5312).
		if p := math.Pow(10, float64(c.places)); math.Abs(mean-c.published) > 0.5/p+1e-9 {
			t.Errorf("%s %+v: mean route %.6f, published %v", name, c.spec, mean, c.published)
		}
		if maxLen != c.maxLen {
			t.Errorf("%s %+v: longest route %d, want %d", name, c.spec, maxLen, c.maxLen)
		}
		if d != c.diam {
			t.Errorf("%s %+v: diameter %d, want %d", name, c.spec, d, c.diam)
		}
	}
}

// TestDShuffleLemma35 checks the per-source expected shortest route on the
// d-shuffle against Lemma 3.5's bounds, which are reached exactly: the
// maximum at 0^n, the minimum at 0^{n−1}1 (digest §2.2).
func TestDShuffleLemma35(t *testing.T) {
	for _, dn := range [][2]int{{2, 5}, {2, 8}, {3, 6}, {4, 4}} {
		d, n := float64(dn[0]), float64(dn[1])
		topo := mustBuild(t, Spec{Kind: "dshuffle", D: dn[0], N: dn[1], Routing: "shortest"})
		_, _, per := routeStats(t, topo, 0, func() uint64 { return 0 })
		lo := n - d/((d-1)*(d-1)) + (n+d/(d-1))/((d-1)*math.Pow(d, n))
		hi := n - 1/(d-1) + 1/((d-1)*math.Pow(d, n))
		if math.Abs(per[0]-hi) > 1e-9 || math.Abs(per[1]-lo) > 1e-9 {
			t.Errorf("d=%v n=%v: s(0^n) = %.6f (bound %.6f), s(0..01) = %.6f (bound %.6f)", d, n, per[0], hi, per[1], lo)
		}
		for i, s := range per {
			if s < lo-1e-9 || s > hi+1e-9 {
				t.Errorf("d=%v n=%v: s(%d) = %.6f outside [%.6f, %.6f]", d, n, i, s, lo, hi)
			}
		}
	}
}

// TestUpfalRouteLengths: on the CCC⁺ every Upfal route has 2s + (Δp mod s)
// hops whatever the random flips (digest §2.4: between 2s and 3s), so the
// mean over all pairs is 2s + (s−1)/2 and the longest 3s − 1.
func TestUpfalRouteLengths(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for s := 2; s <= 6; s++ {
		topo := mustBuild(t, Spec{Kind: "ccc-plus", N: s})
		w := &flit.Worm{}
		mean, maxLen, _ := routeStats(t, topo, 0, func() uint64 { topo.Router.Init(w, rng); return w.Aux })
		if want := 2*float64(s) + float64(s-1)/2; math.Abs(mean-want) > 1e-9 || maxLen != 3*s-1 {
			t.Errorf("s=%d: mean %.6f (want %.6f), longest %d (want %d)", s, mean, want, maxLen, 3*s-1)
		}
	}
}

// sizeOf is the size parameters of s, for the log.
func sizeOf(s Spec) string {
	out := ""
	for _, k := range []string{"d", "k", "n"} {
		if s.IsSet(k) {
			v, _ := s.Value(k)
			out += " " + k + "=" + v
		}
	}
	return out
}

// TestDShuffleEdgeLoads checks the fact Thm 5.9's bisection bound rests on
// (digest §6.4), on the built network: under the standard route every link,
// self-loops included, is the i-th hop of exactly d^{n−1} of the d^{2n}
// (source, destination) pairs for each i, so it carries n·d^{n−1} routes.
func TestDShuffleEdgeLoads(t *testing.T) {
	for _, dn := range [][2]int{{2, 5}, {3, 3}, {4, 2}} {
		d, n := dn[0], dn[1]
		topo := mustBuild(t, Spec{Kind: "dshuffle", D: d, N: n})
		load := map[[3]int]int{} // (router, output port, hop index)
		for src := range topo.Terminals() {
			for dst := range topo.Terminals() {
				hops, err := Trace(topo, newWorm(src, dst))
				if err != nil {
					t.Fatal(err)
				}
				for i, h := range hops[:len(hops)-1] {
					load[[3]int{h.Switch, h.Out, i}]++
				}
			}
		}
		if want := ipow(d, n) * d * n; len(load) != want {
			t.Fatalf("d=%d n=%d: %d (link, hop) pairs used, want %d", d, n, len(load), want)
		}
		for k, c := range load {
			if c != ipow(d, n-1) {
				t.Fatalf("d=%d n=%d: router %d port %d is hop %d of %d routes, want %d", d, n, k[0], k[1], k[2], c, ipow(d, n-1))
			}
		}
	}
}
