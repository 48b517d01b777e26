package topology

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/flit"
	xbar "github.com/flitsim/flitsim/switch"
)

// TestEveryKindBuildsWithItsDefaults builds every registered kind from its
// declared parameter defaults with every routing function it registers
// (and each alias), and routes every pair.
func TestEveryKindBuildsWithItsDefaults(t *testing.T) {
	if len(Kinds()) == 0 {
		t.Fatal("no kinds registered")
	}
	for _, k := range Kinds() {
		s, err := testDefaults(k)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range k.Routings {
			for _, name := range append([]string{r.Name}, r.Aliases...) {
				s.Routing = name
				topo := mustBuild(t, s)
				if topo.Kind != k.Name {
					t.Errorf("%s: built kind %q", k.Name, topo.Kind)
				}
				rng := rand.New(rand.NewPCG(1, 2))
				for src := range topo.Terminals() {
					for dst := range topo.Terminals() {
						w := &flit.Worm{Src: int32(src), Dst: int32(dst)}
						topo.Router.Init(w, rng)
						if _, err := Trace(topo, w); err != nil {
							t.Fatalf("%s routing %s: %v", k.Name, name, err)
						}
					}
				}
			}
		}
	}
}

// testDefaults is k.Defaults() with a file parameter's default (a path
// from the repository's root, as `flitsim list` shows it) made relative to
// this package's folder, where the tests run.
func testDefaults(k KindSpec) (Spec, error) {
	s, err := k.Defaults()
	if s.File != "" {
		s.File = filepath.Join("..", "..", s.File)
	}
	return s, err
}

// TestDeclarationsDriveErrors checks, for every kind, that the unknown
// routing error lists all its routing functions, and that each parameter
// with a Check rejects a value with an error naming topology.KEY.
func TestDeclarationsDriveErrors(t *testing.T) {
	bad := map[string]string{"d": "0", "k": "0", "n": "0", "dims": "3", "order": "7", "path": "sideways", "path_index": "-1", "tie": "sideways", "file": ""}
	for _, k := range Kinds() {
		s, _ := testDefaults(k)
		s.Routing = "no-such-routing"
		_, err := Build(s)
		e, ok := inputerr.As(err)
		if !ok || e.Key != "routing" {
			t.Fatalf("%s: %v", k.Name, err)
		}
		for _, r := range k.Routings {
			if !strings.Contains(e.Allowed, r.Name) {
				t.Errorf("%s: %q does not list %s", k.Name, e.Allowed, r.Name)
			}
		}
		for _, p := range k.Params {
			if p.Check == nil {
				continue
			}
			v, ok := bad[p.Key]
			if !ok {
				t.Fatalf("%s: no bad value for parameter %s in this test", k.Name, p.Key)
			}
			s, _ := testDefaults(k)
			if err := s.Set(p.Key, v); err != nil {
				t.Fatal(err)
			}
			_, err := Build(s)
			if e, ok := inputerr.As(err); !ok || e.Key != "topology."+p.Key {
				t.Errorf("%s with %s=%s: %v", k.Name, p.Key, v, err)
			}
		}
	}
}

// twoPhase routes a packet first to an intermediate terminal chosen at the
// source (w.Aux), then to its destination, each phase by the kind's default
// routing: Valiant's randomised routing, which needs per-packet state (the
// phase) since a switch may be crossed in both phases.
type twoPhase struct {
	base Router
	t    *Topology
}

func newTwoPhase(t *Topology, s Spec) (Router, error) {
	k, _ := Kind(t.Kind)
	base, err := k.Routings[0].New(t, s)
	return &twoPhase{base: base, t: t}, err
}

func (r *twoPhase) Name() string { return "test-two-phase" }

func (r *twoPhase) Init(w *flit.Worm, rng *rand.Rand) {
	w.Aux = uint64(rng.IntN(r.t.Terminals()))
}

// Route is the stateless view (phase 0 unless at the intermediate node).
func (r *twoPhase) Route(sw, in int, w *flit.Worm) xbar.PortSet {
	var st flit.RouteState
	return r.RouteHead(sw, in, w, &st)
}

func (r *twoPhase) RouteHead(sw, in int, w *flit.Worm, st *flit.RouteState) xbar.PortSet {
	if st.Phase == 0 {
		mid := *w
		mid.Dst = int32(w.Aux)
		ps := r.base.Route(sw, in, &mid)
		if !r.t.Switches[sw].Out[ps.First()].ToTerminal() {
			return ps
		}
		st.Phase = 1 // at the intermediate node: head for the destination
		st.Count++
	}
	return r.base.Route(sw, in, w)
}

// TwoPhasePath is the route twoPhase should take: src→mid by base routing
// up to mid's switch, then mid→dst.
func twoPhasePath(t *testing.T, base *Topology, src, mid, dst int) []Hop {
	first := trace(t, base, src, mid, 0)
	second := trace(t, base, mid, dst, 0)
	turn := first[len(first)-1]
	turn.Out = second[0].Out
	return append(append(first[:len(first)-1], turn), second[1:]...)
}

func init() {
	for _, kind := range []string{"mesh", "hypercube"} {
		RegisterRouting(kind, Routing{Name: "test-two-phase", New: newTwoPhase,
			Desc: "a test routing with per-packet state"})
	}
}

// TestStatefulRouting checks a routing function registered from another
// file (RegisterRouting) that keeps per-packet state: on a 4×4 mesh and a
// 4-cube, every (src, mid, dst) path, hop by hop.
func TestStatefulRouting(t *testing.T) {
	for _, base := range []Spec{{Kind: "mesh", K: 4, N: 2}, {Kind: "hypercube", D: 4}} {
		k, _ := Kind(base.Kind)
		if !slices.Contains(k.RoutingNames(), "test-two-phase") || k.RoutingNames()[0] == "test-two-phase" {
			t.Fatalf("%s routings %v", base.Kind, k.RoutingNames())
		}
		plain := mustBuild(t, base)
		s := base
		s.Routing = "test-two-phase"
		topo := mustBuild(t, s)
		if _, ok := topo.Router.(StatefulRouter); !ok {
			t.Fatal("not a StatefulRouter")
		}
		n := topo.Terminals()
		for src := range n {
			for mid := range n {
				for dst := range n {
					w := &flit.Worm{Src: int32(src), Dst: int32(dst), Aux: uint64(mid)}
					got, err := Trace(topo, w)
					if err != nil {
						t.Fatal(err)
					}
					if want := twoPhasePath(t, plain, src, mid, dst); fmt.Sprint(got) != fmt.Sprint(want) {
						t.Fatalf("%s %d→%d via %d:\n got %v\nwant %v", base.Kind, src, dst, mid, got, want)
					}
				}
			}
		}
	}
}
