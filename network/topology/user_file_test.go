package topology

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/flit"
)

func parseTestFile(t *testing.T, name string) *Topology {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	topo, err := ParseFile(data, name)
	if err != nil {
		t.Fatal(err)
	}
	return topo
}

// sameRoutes checks that a and b route every pair through the same
// switches and ports (labels aside).
func sameRoutes(t *testing.T, a, b *Topology) {
	t.Helper()
	if a.Terminals() != b.Terminals() {
		t.Fatalf("%d and %d terminals", a.Terminals(), b.Terminals())
	}
	strip := func(hs []Hop) []Hop {
		for i := range hs {
			hs[i].Label = ""
		}
		return hs
	}
	for src := range a.Terminals() {
		for dst := range a.Terminals() {
			w := &flit.Worm{Src: int32(src), Dst: int32(dst)}
			ha, err := Trace(a, w)
			if err != nil {
				t.Fatal(err)
			}
			hb, err := Trace(b, w)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(strip(ha), strip(hb)) {
				t.Errorf("%d→%d: %v, want %v", src, dst, ha, hb)
			}
		}
	}
}

// TestFileMeshIsTheBuiltinMesh: the hand-written 2×2 mesh has the built-in
// mesh's structure (switches, labels, wiring, terminals, shape, port names)
// and its shortest-path rule routes every pair as dimension-order routing.
func TestFileMeshIsTheBuiltinMesh(t *testing.T) {
	file := parseTestFile(t, "testdata/mesh2x2.topo")
	mesh := mustBuild(t, Spec{Kind: "mesh", K: 2, N: 2})
	if !reflect.DeepEqual(file.Switches, mesh.Switches) || !reflect.DeepEqual(file.InSwitch, mesh.InSwitch) ||
		!reflect.DeepEqual(file.InPort, mesh.InPort) || file.Radix != mesh.Radix || file.Digits != mesh.Digits ||
		!reflect.DeepEqual(file.PortNames, mesh.PortNames) {
		t.Errorf("file\n%+v\nbuilt-in\n%+v", *file, *mesh)
	}
	sameRoutes(t, file, mesh)
	if file.Router.Name() != "shortest" {
		t.Errorf("router %q", file.Router.Name())
	}
}

// TestFileTableRouting: a routing table (with ranges, lists and *) that
// routes y first gives the routes of the built-in mesh with order 1,0.
func TestFileTableRouting(t *testing.T) {
	file := parseTestFile(t, "testdata/mesh2x2_yx.topo")
	sameRoutes(t, file, mustBuild(t, Spec{Kind: "mesh", K: 2, N: 2, Order: IntList{1, 0}}))
	if file.Router.Name() != "table" {
		t.Errorf("router %q", file.Router.Name())
	}
}

// TestFileRing: a 5-node ring file routes as the torus k=5 n=1 (shortest
// paths, no ties on an odd ring), with no routing line (shortest is the
// default without route lines) and no shape (patterns then need none).
func TestFileRing(t *testing.T) {
	file := parseTestFile(t, "testdata/ring5.topo")
	sameRoutes(t, file, mustBuild(t, Spec{Kind: "torus", K: 5, N: 1}))
	if file.Radix != 0 || file.Digits != 0 || file.PortNames != nil {
		t.Errorf("shape %d^%d, ports %v", file.Radix, file.Digits, file.PortNames)
	}
}

// TestFileKind builds the shipped example through the registry, with the
// file's routing (a route line overrides one entry) and with routing
// shortest (which ignores route lines); a missing file names topology.file.
func TestFileKind(t *testing.T) {
	s := Spec{Kind: "file", File: "../../configs/topologies/ring6.topo"}
	file := mustBuild(t, s)
	s.Routing = "shortest"
	short := mustBuild(t, s)
	// 0→3 is 3 hops either way: the rule takes port 0 (ccw), the file's
	// route line port 1 (cw).
	for _, c := range []struct {
		topo *Topology
		out  int
	}{{file, 1}, {short, 0}} {
		hops, err := Trace(c.topo, &flit.Worm{Src: 0, Dst: 3})
		if err != nil || len(hops) != 4 || hops[0].Out != c.out {
			t.Errorf("%s: 0→3 %v %v, want 4 hops leaving on port %d", c.topo.Router.Name(), hops, err, c.out)
		}
	}
	for file, want := range map[string]string{"testdata/no-such.topo": "no such file", "testdata": "not a regular file"} {
		_, err := Build(Spec{Kind: "file", File: file})
		if e, ok := inputerr.As(err); !ok || e.Key != "topology.file" || !strings.Contains(e.Error(), want) {
			t.Errorf("%s: %v, want …%s…", file, err, want)
		}
	}
}

// TestFileDirected: a port whose output is linked but whose input is not
// (in- and out-degrees differ) makes the network Directed, and it routes.
// Here a and b each have one link out and one in, on different ports.
func TestFileDirected(t *testing.T) {
	topo, err := ParseFile([]byte("switch a 3\nswitch b 3\nlink a.0 b.1\nlink b.0 a.1\nterminal 0 a.2\nterminal 1 b.2\n"), "d.topo")
	if err != nil {
		t.Fatal(err)
	}
	if !topo.Directed {
		t.Error("not Directed")
	}
	for _, c := range [][2]int32{{0, 1}, {1, 0}} {
		if hops, err := Trace(topo, &flit.Worm{Src: c[0], Dst: c[1]}); err != nil || len(hops) != 2 {
			t.Errorf("%d→%d: %v %v", c[0], c[1], hops, err)
		}
	}
	if parseTestFile(t, "testdata/mesh2x2.topo").Directed {
		t.Error("the mesh is Directed")
	}
}

// A valid 4-node line a–b–c–d (one terminal each) that the error cases edit.
const lineHead = `switch a 3
switch b 3
switch c 3
switch d 3
duplex a.1 b.0
duplex b.1 c.0
duplex c.1 d.0
terminal 0 a.2
terminal 1 b.2
terminal 2 c.2
terminal 3 d.2
`

// TestFileErrors: every kind of bad file is one error line naming the file,
// the line and the statement at fault.
func TestFileErrors(t *testing.T) {
	cases := []struct {
		name, body string
		line       int // 0: no line (the file as a whole)
		want       string
	}{
		{"unknown statement", lineHead + "node e\n", 12, "node: unknown statement"},
		{"word count", "switch a\n", 1, "switch: 1 words (allowed the form switch NAME PORTS)"},
		{"ports not a number", "switch a x\n", 1, `switch: "x" ports (allowed 1 to 64 ports)`},
		{"too many ports", "switch a 65\n", 1, `"65" ports`},
		{"switch twice", "switch a 2\nswitch a 3\n", 2, "a declared twice (first on line 1)"},
		{"dot in name", "switch a.b 2\n", 1, `name "a.b" contains`},
		{"unknown switch", lineHead + "link a.0 e.0\n", 12, `link: unknown switch "e" (allowed switches declared with a switch line: a, b, c, d)`},
		{"no such port", lineHead + "link a.0 b.7\n", 12, `switch b has no port "7" (allowed ports 0..2 (line 2))`},
		{"not a port", lineHead + "link a b.0\n", 12, `"a" is not a port`},
		{"output used twice", lineHead + "link a.1 c.2\n", 12, "output port a.1 used twice (first on line 5)"},
		{"input used twice", lineHead + "link d.1 b.0\n", 12, "input port b.0 used twice (first on line 5)"},
		{"terminal twice", lineHead + "terminal 2 a.0\n", 12, "terminal 2 attached twice (first on line 10)"},
		{"terminal port used", "switch a 2\nterminal 0 a.0\nterminal 1 a.0\n", 3, "terminal: input port a.0 used twice (first on line 2)"},
		{"terminal not attached", strings.Replace(lineHead, "terminal 2 c.2", "# none", 1) + "switch e 1\n", 11, "terminal 2 is not attached (allowed terminals numbered 0..3 without gaps"},
		{"bad terminal number", "switch a 1\nterminal x a.0\n", 2, `"x" is not a terminal number`},
		{"no switch", "# nothing\n", 0, "switch: the file declares no switch"},
		{"no terminal", "switch a 2\n", 0, "terminal: the file attaches no terminal"},
		{"ports too few", lineHead + "ports x y\n", 12, "ports: 2 names (allowed a name for each port number 0..2"},
		{"shape", lineHead + "shape 3 2\n", 12, "shape: 3 2 (allowed RADIX DIGITS with RADIX^DIGITS = 4"},
		{"unknown rule", lineHead + "routing xy\n", 12, `routing: unknown rule "xy"`},
		{"second rule", lineHead + "routing table\nrouting shortest\n", 13, "a second routing line (first on line 12)"},
		{"route unknown switch", lineHead + "route e 1 0\n", 12, `route: unknown switch "e"`},
		{"route to a missing port", lineHead + "route a 1 5\n", 12, `route: switch a has no port "5" (allowed ports 0..2 (line 1))`},
		{"route to an unwired port", lineHead + "route a 1 0\n", 12, "route: output port a.0 leads nowhere"},
		{"route to another terminal", lineHead + "route a 1 2\n", 12, "output port a.2 reaches terminal 0, not 1"},
		{"route to a missing terminal", lineHead + "route a 7 1\n", 12, `route: destinations "7" (allowed terminals 0..3`},
		{"route twice", lineHead + "route a 1-3 1\nroute a 2 1\n", 13, "a second entry at a for terminal 2 (first on line 12)"},
		{"star twice", lineHead + "route a * 1\nroute a * 1\n", 13, "a second * entry at a (first on line 12)"},
		{"table without an entry", lineHead + "routing table\nroute a 1-3 1\nroute a 0 2\n", 9, "terminal: terminal 1 → 0: no route at b for terminal 0"},
		{"table loop", lineHead + "routing shortest\nroute b 3 0\n", 13, "route: terminal 0 → 3 comes back to a"},
		{"star ejects elsewhere", lineHead + "routing shortest\nroute b * 2\n", 13, "route: terminal 1 → 0 ejects at terminal 1 (b.2)"},
		{"unreachable", "switch a 2\nswitch b 2\nlink a.1 b.1\nlink b.1 a.1\nterminal 0 a.0\nterminal 1 b.0\nswitch c 2\nlink c.1 c.1\nterminal 2 c.0\n", 9, "terminal: terminal 2 cannot reach terminal 0: no path of links from c"},
	}
	for _, c := range cases {
		_, err := ParseFile([]byte(c.body), "net.topo")
		e, ok := inputerr.As(err)
		if !ok {
			t.Errorf("%s: %T %v is not an *inputerr.Error", c.name, err, err)
			continue
		}
		pos := "net.topo"
		if c.line > 0 {
			pos = fmt.Sprintf("net.topo:%d", c.line)
		}
		if msg := e.Error(); e.Pos != pos || !strings.Contains(msg, c.want) || strings.ContainsAny(msg, "\r\n") {
			t.Errorf("%s:\n got %q\nwant %s: …%s…", c.name, msg, pos, c.want)
		}
	}
}
