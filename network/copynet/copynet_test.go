package copynet

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/flitsim/flitsim/network/topology"
)

// baseline16 is the 16×16 baseline MIN of 2×2 switches of Chiang's example.
func baseline16(t *testing.T) *topology.Topology {
	t.Helper()
	topo, err := topology.Build(topology.Spec{Kind: "baseline", K: 2, N: 4})
	if err != nil {
		t.Fatal(err)
	}
	return topo
}

// §8.1: header (B, 5, 37) in a 16×16 copy network. s_33 reaches 8 ports
// per link, at least 5, so it forwards (up); s_21 reaches 4 per link, fewer
// than 5, so it splits 5 into 2 up and 3 down (c = 37 odd); and so on until
// exactly 5 distinct output ports have a copy.
func TestTurnerExample(t *testing.T) {
	topo := baseline16(t)
	// Source 3 enters s_33 (the baseline's input shuffle: 0011 → 0110).
	s, outs, err := Turner(topo, 3, 5, 37, func(int) int { return 0 })
	if err != nil {
		t.Fatal(err)
	}
	if len(s) < 2 || s[0].String() != "s3,3: 5 → 5/0" || s[1].String() != "s2,1: 5 → 2/3" {
		t.Fatalf("splits %v, want s3,3: 5 → 5/0 then s2,1: 5 → 2/3", s)
	}
	if len(outs) != 5 || len(slices.Compact(slices.Sorted(slices.Values(outs)))) != 5 {
		t.Errorf("output ports %v, want 5 distinct", outs)
	}
	// With c even the larger half goes up: 5 → 3/2.
	if s, _, _ := Turner(topo, 3, 5, 36, func(int) int { return 0 }); s[1].String() != "s2,1: 5 → 3/2" {
		t.Errorf("c = 36: %v, want s2,1: 5 → 3/2", s[1])
	}
}

// Every copy count from every source, whatever the forwarding choices,
// reaches exactly m distinct output ports; every switch's copies add up,
// and a switch splits only when one link reaches fewer than m ports.
func TestTurnerCopies(t *testing.T) {
	topo := baseline16(t)
	rng := rand.New(rand.NewPCG(1, 2))
	for m := 1; m <= 16; m++ {
		for src := range 16 {
			for _, c := range []int{36, 37} {
				s, outs, err := Turner(topo, src, m, c, func(int) int { return rng.IntN(2) })
				if err != nil {
					t.Fatal(err)
				}
				if len(outs) != m || len(slices.Compact(slices.Sorted(slices.Values(outs)))) != m {
					t.Fatalf("m %d from %d: output ports %v", m, src, outs)
				}
				for _, x := range s {
					// A stage-i switch reaches 2^i ports per link.
					var i, r int
					fmt.Sscanf(x.Switch, "s%d,%d", &i, &r)
					split := x.Up > 0 && x.Down > 0
					larger := x.Up >= x.Down
					if c%2 == 1 {
						larger = x.Down >= x.Up
					}
					if x.Up+x.Down != x.M || split != (1<<i < x.M) || split && !larger {
						t.Fatalf("m %d from %d, c %d: %v", m, src, c, x)
					}
				}
			}
		}
	}
	if _, _, err := Turner(topo, 0, 17, 0, func(int) int { return 0 }); err == nil {
		t.Error("17 copies in a 16-port network: no error")
	}
}

// §8.1: sources 4, 7 and 10 multicast to {5, 8}, {0, 2, 3, 6} and
// {1, 11, 13, 14}; the running adder gives them (0,1), (2,5) and (6,9) (the
// thesis's "6 to 10" is a typo). A multicast past the last port blocks,
// and every later one with it.
func TestLeeIntervals(t *testing.T) {
	got := Lee([]int{2, 4, 4}, 16)
	want := []Interval{{0, 1, false}, {2, 5, false}, {6, 9, false}}
	if !slices.Equal(got, want) {
		t.Errorf("Lee: %v, want %v", got, want)
	}
	got = Lee([]int{2, 4, 4, 7, 1}, 16)
	if !got[3].Blocked || !got[4].Blocked || got[2].Blocked || got[3] != (Interval{10, 16, true}) {
		t.Errorf("Lee past 16 ports: %v, want the 4th (10,16) and the 5th blocked", got)
	}
}
