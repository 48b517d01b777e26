package topology

import (
	"bufio"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestReferenceRouteTable compares the built networks' routes with a table
// the reference model itself wrote (testdata/brebner_routes.py, run once:
// CI needs no Python), a check of the ported oracles of
// brebner_oracle_test.go as much as of the routers. Mesh and torus ids are
// the model's i·n+j, and its strict order (i first) is dor order 1,0.
func TestReferenceRouteTable(t *testing.T) {
	f, err := os.Open("testdata/brebner_routes.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	built := map[string]*Topology{}
	lines := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		topo, ok := built[fs[0]]
		if !ok {
			topo = mustBuild(t, specOf(t, fs[0]))
			built[fs[0]] = topo
		}
		var v []int
		for _, x := range fs[1:] {
			n, err := strconv.Atoi(x)
			if err != nil {
				t.Fatalf("%q: %v", sc.Text(), err)
			}
			v = append(v, n)
		}
		if got := walk(t, topo, v[0], v[1], 0); !slices.Equal(got, v[2:]) {
			t.Fatalf("%s %d→%d: got %v, model %v", fs[0], v[0], v[1], got, v[2:])
		}
		lines++
	}
	if lines < 2000 || len(built) != 9 {
		t.Fatalf("%d routes of %d networks", lines, len(built))
	}
}

// specOf reads "kind:key=value:...:routing".
func specOf(t *testing.T, name string) Spec {
	parts := strings.Split(name, ":")
	s := Spec{Kind: parts[0], Routing: parts[len(parts)-1]}
	for _, kv := range parts[1 : len(parts)-1] {
		k, v, _ := strings.Cut(kv, "=")
		if err := s.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	if s.Kind == "mesh" || s.Kind == "torus" {
		s.Order = IntList{1, 0}
	}
	return s
}
