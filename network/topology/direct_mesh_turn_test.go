package topology

import (
	"testing"

	"github.com/flitsim/flitsim/flit"
)

// TurnForbidden is turnForbidden for the package's external tests.
var TurnForbidden = turnForbidden

// turnForbidden reports whether routing (west-first or odd-even) forbids
// a packet moving in direction from (an output port: 0 west, 1 east, 2
// south, 3 north) to leave on port to in column x; a reversal is
// forbidden by both. The rules as Glass & Ni and Chiu state them, written
// apart from Route, which must obey them.
func turnForbidden(routing string, x, from, to int) bool {
	if to == from^1 {
		return true
	}
	vertical := func(d int) bool { return d == 2 || d == 3 }
	switch routing {
	case "west-first":
		return vertical(from) && to == 0
	case "odd-even":
		return x%2 == 0 && from == 1 && vertical(to) || x%2 == 1 && vertical(from) && to == 0
	}
	panic("turnForbidden: " + routing)
}

// Every port a turn model offers, on every path it allows between every
// pair of nodes, brings the packet one hop nearer and takes no forbidden
// turn, and some port is always offered until the packet is home: the
// search walks each (switch, direction of arrival) state the routing can
// reach from the source.
func TestTurnModelRoutes(t *testing.T) {
	for _, routing := range []string{"west-first", "odd-even"} {
		for _, k := range []string{"8", "5,6"} {
			s, _ := Kind("mesh")
			spec, _ := s.Defaults()
			if err := spec.Set("k", k); err != nil {
				t.Fatal(err)
			}
			spec.Routing = routing
			checkTurnRoutes(t, mustBuild(t, spec), routing)
		}
	}
}

func checkTurnRoutes(t *testing.T, topo *Topology, routing string) {
	t.Helper()
	r := topo.Router.(AdaptiveRouter)
	n := topo.Terminals()
	var c []int32
	switch v := r.(type) {
	case *westFirst:
		c = v.coord
	case *oddEven:
		c = v.coord
	}
	dist := func(a, b int) int { return int(abs32(c[2*a]-c[2*b]) + abs32(c[2*a+1]-c[2*b+1])) }
	type state struct{ sw, in int }
	for src := range n {
		for dst := range n {
			w := &flit.Worm{Src: int32(src), Dst: int32(dst)}
			seen := map[state]bool{}
			todo := []state{{src, 4}}
			for len(todo) > 0 {
				st := todo[len(todo)-1]
				todo = todo[:len(todo)-1]
				if seen[st] {
					continue
				}
				seen[st] = true
				ps := r.Route(st.sw, st.in, w)
				if st.sw == dst {
					if ps.Count() != 1 || ps.First() != 4 {
						t.Fatalf("%s %d→%d: at the destination ports %b", routing, src, dst, uint64(ps))
					}
					continue
				}
				if ps == 0 || ps.Count() > 2 || !ps.Has(r.Escape(st.sw, st.in, w)) {
					t.Fatalf("%s %d→%d at %d: ports %b, escape %d", routing, src, dst, st.sw, uint64(ps), r.Escape(st.sw, st.in, w))
				}
				x := c[2*st.sw]
				for m := ps; m != 0; {
					out := m.Next()
					e := topo.Switches[st.sw].Out[out]
					if !e.Connected() || e.ToTerminal() || dist(int(e.Switch), dst) != dist(st.sw, dst)-1 {
						t.Fatalf("%s %d→%d at %d: port %d is not productive", routing, src, dst, st.sw, out)
					}
					if st.in < 4 && turnForbidden(routing, int(x), st.in^1, out) {
						t.Fatalf("%s %d→%d at %d (column %d): forbidden turn %d→%d", routing, src, dst, st.sw, x, st.in^1, out)
					}
					todo = append(todo, state{int(e.Switch), int(e.Port)})
				}
			}
		}
	}
}

func abs32(v int32) int32 {
	if v < 0 {
		return -v
	}
	return v
}
