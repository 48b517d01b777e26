package configs

import (
	"fmt"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/network"
)

// topology.k as a list: a rectangular mesh or torus, from a file or --set.
func TestRectangularK(t *testing.T) {
	for _, c := range []struct {
		file  string
		sets  []string
		sides network.IntList
		k, n  int
	}{
		{"topology:\n  kind: mesh\n  k: [4, 8]\n", nil, network.IntList{4, 8}, 0, 2},
		{"topology:\n  kind: torus\n  k: 4,8\n", nil, network.IntList{4, 8}, 0, 2},
		{"topology:\n  kind: mesh\n  k: [3, 4, 5]\n  n: 3\n", nil, network.IntList{3, 4, 5}, 0, 3},
		{"", []string{"topology.k=4,8"}, network.IntList{4, 8}, 0, 2},
		// The default's n: 2 is not the user's: n follows the list.
		{"", []string{"topology.k=3,4,5"}, network.IntList{3, 4, 5}, 0, 3},
		{"", []string{"topology.kind=torus", "topology.k=[3,5]"}, network.IntList{3, 5}, 0, 2},
		// Equal sides are the square grid; a scalar after a list replaces it.
		{"", []string{"topology.k=6,6"}, nil, 6, 2},
		{"topology:\n  kind: mesh\n  k: [4, 8]\n  n: 2\n", []string{"topology.k=5"}, nil, 5, 2},
	} {
		var cfg network.Config
		var err error
		if c.file == "" {
			cfg, err = Load("", c.sets)
		} else {
			cfg, err = Load(writeFile(t, c.file), c.sets)
		}
		if err != nil {
			t.Fatalf("%q %v: %v", c.file, c.sets, err)
		}
		tc := cfg.Topology
		if fmt.Sprint(tc.Sides) != fmt.Sprint(c.sides) || tc.K != c.k || tc.N != c.n {
			t.Errorf("%q %v: k=%d sides=%v n=%d, want k=%d sides=%v n=%d", c.file, c.sets, tc.K, tc.Sides, tc.N, c.k, c.sides, c.n)
		}
		if _, err := network.Build(cfg); err != nil {
			t.Errorf("%q %v: build: %v", c.file, c.sets, err)
		}
	}
}

// Bad lists: one line with where, key, value and what is allowed.
func TestRectangularKErrors(t *testing.T) {
	_, err := Load(writeFile(t, "topology:\n  kind: mesh\n  k: [4, 6]\n  n: 3\n"), nil)
	wantErr(t, err, "exp.yaml:3: topology.k: 4,6 is not allowed (allowed: a list of n = 3 sides")
	_, err = Load(writeFile(t, "topology:\n  kind: torus\n  k: [4, x]\n"), nil)
	wantErr(t, err, "exp.yaml:3: topology.k:", "is not allowed (allowed: a list of integers")
	_, err = Load(writeFile(t, "topology:\n  kind: hypercube\n  d: 3\n  k: 2,2\n"), nil)
	wantErr(t, err, "exp.yaml:4: topology.k: 2,2 is not allowed (allowed: no value for hypercube")
	_, err = Load("", []string{"topology.kind=omega", "topology.k=2,2", "topology.n=2"})
	wantErr(t, err, "--set topology.k: 2,2 is not allowed (allowed: a single integer for omega")
	_, err = Load("", []string{"topology.k=4,1"})
	wantErr(t, err, "--set topology.k: 4,1 is not allowed (allowed: sides of at least 2")
	// Equal sides fold into k = 2 with n = 21 from the list: the n error is
	// placed at the --set that gave the list, not at the default file.
	_, err = Load("", []string{"topology.k=" + strings.Repeat("2,", 20) + "2"})
	wantErr(t, err, "--set topology.n: 21 is not allowed")
	_, err = Load("", []string{"topology.k=4,6", "topology.n=3"})
	wantErr(t, err, "--set topology.k: 4,6 is not allowed (allowed: a list of n = 3 sides")
}
