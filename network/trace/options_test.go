package trace

import (
	"github.com/flitsim/flitsim/internal/kernel"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/network"
)

func TestParseWindow(t *testing.T) {
	for in, want := range map[string]Window{"10:20": {10, 20}, "5:": {5, 0}, ":7": {0, 7}, " 0 : 1 ": {0, 1}} {
		w, err := ParseWindow(in)
		if err != nil || w != want {
			t.Errorf("%q: %v %v, want %v", in, w, err, want)
		}
	}
	for _, in := range []string{"", "5", "20:10", "3:3", "-1:4", "a:b", "1:2:3"} {
		if _, err := ParseWindow(in); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
	w := Window{From: 3}
	if !w.In(3) || w.In(2) || !w.In(1<<40) {
		t.Error("open window")
	}
}

func TestSanitize(t *testing.T) {
	for in, want := range map[string]string{
		"s2,0": "s2_0", "r(3,4)": "r_3_4", "n12": "n12", "out_x+": "out_xp", "in_x-": "in_xm",
		"out_0": "out_0", "0": "_0", "": "_", "a  b": "a_b", "r(0,1,2)": "r_0_1_2",
	} {
		if got := Sanitize(in); got != want {
			t.Errorf("Sanitize(%q) = %q, want %q", in, got, want)
		}
	}
}

// --trace-only groups comma-separated globs into labels that contain commas.
func TestOnly(t *testing.T) {
	build := func(kind string, k, n int) *kernel.Kernel {
		c := network.Default()
		c.Topology = network.TopologyConfig{Kind: kind, K: k, N: n}
		if kind == "cube" {
			c.Buffers = network.BufferConfig{Output: 1}
		}
		nw, err := network.Build(c)
		if err != nil {
			t.Fatal(err)
		}
		return kernel.Of(nw)
	}
	sel := func(k *kernel.Kernel, pat string) (sws, terms []string) {
		f, err := newFilter(k, Options{Only: pat})
		if err != nil {
			t.Fatalf("%q: %v", pat, err)
		}
		for s, on := range f.sw {
			if on {
				sws = append(sws, k.Topo.Switches[s].Label)
			}
		}
		for term, on := range f.term {
			if on {
				terms = append(terms, "t"+strconv.Itoa(term))
			}
		}
		sort.Strings(sws)
		return
	}
	cube := build("cube", 2, 3) // switches s0,0 … s2,3; terminals 0…7
	for pat, want := range map[string]string{
		"s1,*,s0,3": "s0,3 s1,0 s1,1 s1,2 s1,3 |",
		"s2,1,3":    "s2,1 | t3",
		"3,s0,0":    "s0,0 | t3",
		"t*":        "| t0 t1 t2 t3 t4 t5 t6 t7",
		"s?,0":      "s0,0 s1,0 s2,0 |",
	} {
		sws, terms := sel(cube, pat)
		if got := strings.TrimSpace(strings.Join(sws, " ") + " | " + strings.Join(terms, " ")); got != want {
			t.Errorf("%q selects %q, want %q", pat, got, want)
		}
	}
	mesh := build("mesh", 3, 2)
	if sws, terms := sel(mesh, "r(0,*), t4"); strings.Join(sws, " ") != "r(0,0) r(0,1) r(0,2)" || strings.Join(terms, " ") != "t4" {
		t.Errorf("mesh: %v %v", sws, terms)
	}
	for _, bad := range []string{"x9", "r(0,*),,t1", "r[", "s1"} {
		if _, err := newFilter(mesh, Options{Only: bad}); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
