package topology

import (
	"math/rand/v2"
	"testing"

	"github.com/flitsim/flitsim/flit"
)

// TestDShuffleDigits: digits by the reciprocal equal the digits by
// division, for every address of d-shuffles from the smallest to the
// largest degree and digit counts (d^n up to MaxTerminals).
func TestDShuffleDigits(t *testing.T) {
	for _, s := range []Spec{{D: 2, N: 20}, {D: 3, N: 12}, {D: 7, N: 7}, {D: 10, N: 6}, {D: 31, N: 4}, {D: 63, N: 3}} {
		rt, err := newDShuffleRouter(false)(nil, s) // (not Build: no need to wire 2^20 routers)
		if err != nil {
			t.Fatal(err)
		}
		r := rt.(*dshuffleRouter)
		buf := make([]uint8, r.n)
		for x := range r.pow[r.n] {
			r.digits(uint64(x), buf)
			for i, y := r.n-1, x; i >= 0; i, y = i-1, y/r.d {
				if int(buf[i]) != y%r.d {
					t.Fatalf("d=%d n=%d x=%d: digit %d is %d, want %d", r.d, r.n, x, i, buf[i], y%r.d)
				}
			}
		}
	}
}

// TestDShuffleOverlap: overlap by reciprocals equals overlap by
// division, for every pair of addresses of small d-shuffles and random
// pairs (and x = y) of large ones.
func TestDShuffleOverlap(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, s := range []Spec{{D: 2, N: 1}, {D: 2, N: 7}, {D: 3, N: 4}, {D: 5, N: 3}, {D: 2, N: 20}, {D: 63, N: 3}, {D: 10, N: 6}} {
		rt, err := newDShuffleRouter(true)(nil, s)
		if err != nil {
			t.Fatal(err)
		}
		r := rt.(*dshuffleRouter)
		want := func(x, y int) int {
			for k := r.n; k > 0; k-- {
				if x%r.pow[k] == y/r.pow[r.n-k] {
					return k
				}
			}
			return 0
		}
		nodes := r.pow[r.n]
		check := func(x, y int) {
			if got, w := r.overlap(x, y), want(x, y); got != w {
				t.Fatalf("d=%d n=%d overlap(%d, %d) = %d, want %d", r.d, r.n, x, y, got, w)
			}
		}
		if nodes <= 1<<7 {
			for x := range nodes {
				for y := range nodes {
					check(x, y)
				}
			}
			continue
		}
		for range 20000 {
			x, y := rng.IntN(nodes), rng.IntN(nodes)
			check(x, y)
			check(x, x)
			check(x, x*r.d%nodes+rng.IntN(r.d)) // (a link: overlap ≥ n−1)
			check(nodes-1, y)
		}
	}
}

// TestPathHeadFromEveryState: PathHead from a route already k hops in
// (any k the route can reach), at any switch, equals the rest of
// RouteHead's trace and leaves the same state.
func TestPathHeadFromEveryState(t *testing.T) {
	for _, c := range []struct {
		spec Spec
		maxK int
	}{
		{Spec{Kind: "dshuffle", D: 3, N: 5, Routing: "standard"}, 6},
		{Spec{Kind: "dshuffle", D: 2, N: 6, Routing: "shortest"}, 3},
		{Spec{Kind: "shuffle-exchange", N: 5, Routing: "standard"}, 5},
		{Spec{Kind: "ccc-plus", N: 4, Routing: "upfal"}, 12},
	} {
		topo, err := Build(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		r := topo.Router.(StatefulPathRouter)
		rng := rand.New(rand.NewPCG(9, 10))
		for range 300 {
			w := flit.Worm{Dst: int32(rng.IntN(topo.Terminals()))}
			r.Init(&w, rng)
			start := rng.IntN(len(topo.Switches))
			for k := 0; k <= c.maxK; k++ {
				var trace []uint8
				st := flit.RouteState{Count: uint16(k)}
				for sw, in := start, 0; len(trace) < 100; {
					o := r.RouteHead(sw, in, &w, &st).First()
					trace = append(trace, uint8(o))
					e := topo.Switches[sw].Out[o]
					if e.Switch < 0 {
						break
					}
					sw, in = int(e.Switch), int(e.Port)
				}
				st2 := flit.RouteState{Count: uint16(k)}
				got, ok := r.PathHead(start, 0, &w, &st2, []uint8{99})
				if !ok || string(got[1:]) != string(trace) || got[0] != 99 || st2 != st {
					t.Fatalf("%+v: %d→%d from k=%d: PathHead %v (state %+v), RouteHead trace %v (state %+v)", c.spec, start, w.Dst, k, got, st2, trace, st)
				}
			}
		}
	}
}
