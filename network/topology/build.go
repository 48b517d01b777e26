package topology

import (
	"strconv"
	"strings"

	"github.com/flitsim/flitsim/inputerr"
)

// Size limits enforced by Build.
const (
	// MaxTerminals is the largest number of terminals Build accepts.
	MaxTerminals = 1 << 20
	// MaxSwitches is the largest number of switches Build accepts.
	MaxSwitches = 1 << 24
	// MaxStages is the largest number of ESMIN stages Build accepts.
	MaxStages = 64
)

// Spec describes the network to build. Fields a kind does not use are
// ignored (so one config can switch kinds without clearing the others).
type Spec struct {
	Kind      string // hypercube | mesh | torus | omega | baseline | butterfly | cube | esmin
	D         int    // hypercube dimension
	K         int    // nodes per dimension (mesh, torus) or switch size k×k (MINs)
	N         int    // dimensions (mesh, torus) or stages (MINs)
	Dims      []int  // ESMIN stage dimensions c_{h−1},…,c_0, leftmost stage first
	Order     []int  // dimension order for dor / ecube; empty means 0,1,2,…
	Path      string // ESMIN path chooser: first | latest | random | given
	PathIndex int    // ESMIN path for Path = given, 0 ≤ PathIndex < 2^m
	Routing   string // routing function; empty means DefaultRouting(Kind)
}

func itoa(i int) string { return strconv.Itoa(i) }

func joinInts(v []int) string {
	if len(v) == 0 {
		return "[]"
	}
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = itoa(x)
	}
	return strings.Join(s, ",")
}

// KindInfo describes a topology kind for `flitsim list`.
type KindInfo struct {
	Name     string
	Params   []string // config keys under topology. the kind uses
	Routings []string // accepted routing names, default first
	Desc     string
}

var kinds = []KindInfo{
	{"hypercube", []string{"d", "order"}, []string{"ecube", "ecube-random"},
		"binary d-cube, 2^d routers each with one terminal; ecube corrects differing bits in `order` (alias dor); ecube-random starts at a random dimension per packet and goes in descending cyclic order (alias ecube-random-start)"},
	{"mesh", []string{"k", "n", "order"}, []string{"dor"},
		"k-ary n-mesh, k^n routers each with one terminal; dimension-order routing in `order`"},
	{"torus", []string{"k", "n", "order"}, []string{"dor"},
		"k-ary n-cube with wraparound links; dimension-order routing the shorter way round (ties go +)"},
	{"omega", []string{"k", "n"}, []string{"destination-tag"},
		"Lawrie's omega MIN: n stages of k×k switches, k^n terminals, shuffle connections (aliases dest-tag, tag)"},
	{"baseline", []string{"k", "n"}, []string{"destination-tag"},
		"Wu & Feng baseline MIN: n stages of k×k switches, k^n terminals"},
	{"butterfly", []string{"k", "n"}, []string{"destination-tag"},
		"butterfly MIN: n stages of k×k switches, k^n terminals, β_i connections"},
	{"cube", []string{"k", "n"}, []string{"destination-tag"},
		"multistage cube (Siegel): n stages of k×k switches, k^n terminals"},
	{"esmin", []string{"dims", "path", "path_index"}, []string{"destination-tag"},
		"extra-stage cube MIN (CU-ESMIN) of 2×2 switches, stage dimensions `dims` (e.g. 1,2,1,2,0), 2^m paths per pair chosen by `path`: first | latest | random | given"},
}

// Kinds lists the topology kinds Build accepts.
func Kinds() []KindInfo {
	out := make([]KindInfo, len(kinds))
	copy(out, kinds)
	return out
}

func kindNames() string {
	s := make([]string, len(kinds))
	for i, k := range kinds {
		s[i] = k.Name
	}
	return strings.Join(s, ", ")
}

// DefaultRouting is the routing used when Spec.Routing is empty, or "" for
// an unknown kind.
func DefaultRouting(kind string) string {
	kind = norm(kind)
	for _, k := range kinds {
		if k.Name == kind {
			return k.Routings[0]
		}
	}
	return ""
}

func norm(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// Build constructs the topology and its router, or returns an *Error naming
// the offending config key.
func Build(s Spec) (*Topology, error) {
	kind := norm(s.Kind)
	var t *Topology
	var err error
	switch kind {
	case "hypercube":
		t, err = buildHypercube(s)
	case "mesh", "torus":
		t, err = buildMeshTorus(s, kind == "torus")
	case "omega", "baseline", "butterfly", "cube":
		t, err = buildMIN(s, kind)
	case "esmin":
		t, err = buildESMIN(s)
	default:
		return nil, inputerr.New("topology.kind", s.Kind, "%s", kindNames())
	}
	if err != nil {
		return nil, err
	}
	t.Kind = kind
	return t, nil
}

// routingName resolves the routing name and its aliases for a kind.
func routingName(s Spec, kind string, aliases map[string]string) (string, error) {
	r := norm(s.Routing)
	if r == "" {
		return DefaultRouting(kind), nil
	}
	if c, ok := aliases[r]; ok {
		return c, nil
	}
	names := make([]string, 0, len(aliases))
	for _, k := range kinds {
		if k.Name == kind {
			names = append(names, k.Routings...)
		}
	}
	for a, c := range aliases {
		if a != c {
			names = append(names, a+" (= "+c+")")
		}
	}
	// Stable, readable order: canonical names first, then sorted aliases.
	sortStrings(names[len(kindRoutings(kind)):])
	return "", inputerr.New("routing", s.Routing, "for %s: %s", kind, strings.Join(names, ", "))
}

func kindRoutings(kind string) []string {
	for _, k := range kinds {
		if k.Name == kind {
			return k.Routings
		}
	}
	return nil
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// checkOrder validates a dimension order over 0..n−1 and returns it (the
// identity when empty).
func checkOrder(order []int, n int) ([]int, error) {
	if len(order) == 0 {
		o := make([]int, n)
		for i := range o {
			o[i] = i
		}
		return o, nil
	}
	seen := make([]bool, n)
	ok := len(order) == n
	if ok {
		for _, x := range order {
			if x < 0 || x >= n || seen[x] {
				ok = false
				break
			}
			seen[x] = true
		}
	}
	if !ok {
		return nil, inputerr.New("topology.order", joinInts(order), "a permutation of the dimensions 0..%d, e.g. %s, or empty for ascending order", n-1, joinInts(identity(n)))
	}
	return append([]int(nil), order...), nil
}

func identity(n int) []int {
	o := make([]int, n)
	for i := range o {
		o[i] = i
	}
	return o
}

// newSwitches allocates n switches of the given number of ports, sharing one
// backing array of Ends.
func newSwitches(n, ports int) []Switch {
	sw := make([]Switch, n)
	ends := make([]End, n*ports)
	for i := range sw {
		sw[i].Out = ends[i*ports : (i+1)*ports : (i+1)*ports]
	}
	return sw
}
