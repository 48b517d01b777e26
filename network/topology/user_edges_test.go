package topology

import (
	"strings"
	"testing"

	"github.com/flitsim/flitsim/flit"
)

// ring4 is a unidirectional 4-switch ring: port 0 to the next switch,
// port 1 the terminal.
func ring4(route func(sw, dst int) int) Edges {
	e := Edges{Switches: 4, Ports: 2, Route: route}
	for s := range 4 {
		e.Links = append(e.Links, Link{From: s, FromPort: 0, To: (s + 1) % 4, ToPort: 0})
		e.Terms = append(e.Terms, Attach{Switch: s, Port: 1})
	}
	return e
}

func TestFromEdgesRoutesByTheFunction(t *testing.T) {
	topo, err := FromEdges(ring4(func(sw, dst int) int {
		if sw == dst {
			return 1
		}
		return 0
	}))
	if err != nil {
		t.Fatal(err)
	}
	hops, err := Trace(topo, &flit.Worm{Src: 3, Dst: 2})
	if err != nil || len(hops) != 4 || hops[3].Label != "s2" || hops[3].Out != 1 {
		t.Fatalf("3→2: %+v, %v; want 4 switches ending at s2 port 1", hops, err)
	}
	if topo.Terminals() != 4 || topo.Router.Name() != "table" {
		t.Fatalf("terminals %d router %s", topo.Terminals(), topo.Router.Name())
	}
}

func TestFromEdgesShortestWithoutRoute(t *testing.T) {
	topo, err := FromEdges(ring4(nil))
	if err != nil {
		t.Fatal(err)
	}
	if hops, err := Trace(topo, &flit.Worm{Src: 0, Dst: 1}); err != nil || len(hops) != 2 {
		t.Fatalf("0→1: %+v, %v", hops, err)
	}
}

func TestFromEdgesErrors(t *testing.T) {
	loop := ring4(func(sw, dst int) int { return 0 }) // never ejects
	if _, err := FromEdges(loop); err == nil || !strings.Contains(err.Error(), "comes back") {
		t.Fatalf("a looping route: %v", err)
	}
	bad := ring4(nil)
	bad.Links[2].To = 9
	if _, err := FromEdges(bad); err == nil || !strings.Contains(err.Error(), "edges:7") {
		t.Fatalf("link 2 to an unknown switch: %v, want it placed at edges:7", err)
	}
}
