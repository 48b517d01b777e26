package topology

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"
)

// KindSpec declares one topology kind. Each kind's file registers its own
// KindSpec from an init function; nothing else lists the kinds. Config
// validation, `flitsim list`, Build and the error messages all read it.
type KindSpec struct {
	Name string // topology.kind, lower case
	Desc string // one line for `flitsim list`
	// Params are the keys under topology. the kind uses (each a yaml key of
	// Spec), in the order Build checks them. A key set in a config but not
	// declared here is ignored for this kind (configs warns about it).
	Params []Param
	// Routings are the routing functions the kind accepts, its default
	// first. More can be added from other files with RegisterRouting.
	Routings []Routing
	// Build wires the switches once every Param has passed its Check; it
	// sets neither Topology.Kind nor Topology.Router (Build does).
	Build func(s Spec) (*Topology, error)
	// Size is the network's size from its parameters, without building it
	// (SizeOf); nil: SizeOf builds it.
	Size func(s Spec) Size
}

// Param is one parameter of a kind: a key under topology.
type Param struct {
	Key     string // a yaml key of Spec, e.g. "k"
	Default string // a typical value: `flitsim list` shows it and the registry tests build with it
	Allowed string // what is accepted, in words (`flitsim list`)
	Desc    string // what it means
	// Check returns "" when s's value is acceptable, or else the "allowed"
	// text of the error (it may name bounds that depend on the params
	// before it, which have passed). Nil accepts any value.
	Check func(s Spec) string
	// Sides (on k only) accepts a list, one side per dimension (Spec.Sides):
	// Check then sees it. Other kinds refuse a list for k.
	Sides bool
}

// Routing is one routing function of a kind.
type Routing struct {
	Name    string   // the routing key's canonical value
	Aliases []string // other accepted spellings
	Desc    string   // one line for `flitsim list` (may be empty when the kind's Desc says it)
	// New builds the router for a topology Build has wired (t.Kind is set).
	New func(t *Topology, s Spec) (Router, error)
}

var (
	kinds []*KindSpec
	extra = map[string][]Routing{} // RegisterRouting's, by kind (the kind may register later)
)

// Register adds a topology kind. It panics on a malformed declaration (a
// programming error, found when the program starts).
func Register(k KindSpec) {
	if k.Name == "" || k.Name != norm(k.Name) || k.Build == nil || len(k.Routings) == 0 {
		panic(fmt.Sprintf("topology.Register(%q): want a lower-case name, a Build function and a routing", k.Name))
	}
	if _, dup := lookup(k.Name); dup {
		panic("topology.Register: kind " + k.Name + " registered twice")
	}
	for _, p := range k.Params {
		if _, ok := specField(p.Key); !ok || p.Key == "kind" {
			panic(fmt.Sprintf("topology.Register(%q): parameter %q is not a field of topology.Spec", k.Name, p.Key))
		}
	}
	for _, r := range k.Routings {
		checkRouting(k.Name, r)
	}
	k.Params = slices.Clone(k.Params)
	k.Routings = slices.Clone(k.Routings)
	kinds = append(kinds, &k)
}

// RegisterRouting adds a routing function to kind (registered before or
// after this call), after the kind's own: a routing function can live in a
// file of its own.
func RegisterRouting(kind string, r Routing) {
	checkRouting(kind, r)
	extra[kind] = append(extra[kind], r)
}

func checkRouting(kind string, r Routing) {
	if r.Name == "" || r.New == nil {
		panic(fmt.Sprintf("topology: a routing of %q needs a name and a New function", kind))
	}
}

func lookup(kind string) (*KindSpec, bool) {
	for _, k := range kinds {
		if k.Name == kind {
			return k, true
		}
	}
	return nil, false
}

// Kinds lists the registered kinds in registration order (Go initialises a
// package's files in file-name order: direct_*.go, then min_*.go), each with
// all its routing functions.
func Kinds() []KindSpec {
	out := make([]KindSpec, len(kinds))
	for i, k := range kinds {
		out[i] = *k
		out[i].Routings = k.routings()
	}
	return out
}

// Kind is the registered kind named name (case-insensitive).
func Kind(name string) (KindSpec, bool) {
	k, ok := lookup(norm(name))
	if !ok {
		return KindSpec{}, false
	}
	c := *k
	c.Routings = k.routings()
	return c, true
}

// routings is the kind's own routings and then RegisterRouting's. A copy
// from Kinds or Kind already holds both: those are not added twice.
func (k *KindSpec) routings() []Routing {
	rs := slices.Clone(k.Routings)
	for _, r := range extra[k.Name] {
		if !slices.ContainsFunc(rs, func(x Routing) bool { return x.Name == r.Name }) {
			rs = append(rs, r)
		}
	}
	return rs
}

// Param is the kind's declaration of key, if it has one.
func (k KindSpec) Param(key string) (Param, bool) {
	for _, p := range k.Params {
		if p.Key == key {
			return p, true
		}
	}
	return Param{}, false
}

// ParamNames lists the kind's parameter keys.
func (k KindSpec) ParamNames() []string {
	s := make([]string, len(k.Params))
	for i, p := range k.Params {
		s[i] = p.Key
	}
	return s
}

// RoutingNames lists the kind's canonical routing names, default first.
func (k KindSpec) RoutingNames() []string {
	rs := k.routings()
	s := make([]string, len(rs))
	for i, r := range rs {
		s[i] = r.Name
	}
	return s
}

// Defaults is the Spec a kind builds with when every parameter takes its
// declared Default.
func (k KindSpec) Defaults() (Spec, error) {
	s := Spec{Kind: k.Name}
	for _, p := range k.Params {
		if err := s.Set(p.Key, p.Default); err != nil {
			return s, fmt.Errorf("%s: default of %s: %v", k.Name, p.Key, err)
		}
	}
	return s, nil
}

// Set stores value (as a config would write it) in parameter key.
func (s *Spec) Set(key, value string) error {
	f, ok := specField(key)
	if !ok {
		return fmt.Errorf("no parameter %q", key)
	}
	v := reflect.ValueOf(s).Elem().FieldByIndex(f.Index)
	switch v.Interface().(type) {
	case int:
		if key == "k" && isList(value) {
			l, err := ParseIntList(value)
			if err != nil {
				return err
			}
			s.SetSides(l)
			return nil
		}
		if key == "k" {
			s.Sides = nil
		}
		var n int
		if value != "" {
			var err error
			if n, err = strconv.Atoi(strings.TrimSpace(value)); err != nil {
				return fmt.Errorf("%q is not an integer", value)
			}
		}
		v.SetInt(int64(n))
	case IntList:
		l, err := ParseIntList(value)
		if err != nil {
			return err
		}
		v.Set(reflect.ValueOf(l))
	case string:
		v.SetString(value)
	case bool:
		b := false
		if value != "" {
			var err error
			if b, err = strconv.ParseBool(strings.TrimSpace(value)); err != nil {
				return fmt.Errorf("%q is not true or false", value)
			}
		}
		v.SetBool(b)
	}
	return nil
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
	if k, ok := lookup(norm(kind)); ok {
		return k.Routings[0].Name
	}
	return ""
}

func norm(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// Build checks s against its kind's declaration and constructs the
// topology and its router, or returns an *inputerr.Error naming the
// offending config key.
func Build(s Spec) (*Topology, error) {
	k, s, err := checkSpec(s)
	if err != nil {
		return nil, err
	}
	r, err := k.routing(s.Routing)
	if err != nil {
		return nil, err
	}
	t, err := k.Build(s)
	if err != nil {
		return nil, err
	}
	t.Kind = k.Name
	if t.Router, err = r.New(t, s); err != nil {
		return nil, err
	}
	return t, nil
}

// checkSpec checks s against its kind's declaration and returns the kind
// and s in canonical form.
func checkSpec(s Spec) (*KindSpec, Spec, error) {
	k, ok := lookup(norm(s.Kind))
	if !ok {
		return nil, s, inputerr.New("topology.kind", s.Kind, "%s", kindNames())
	}
	if allowed := refuseSides(k, s); allowed != "" {
		return nil, s, inputerr.New("topology.k", s.kValue(), "%s", allowed)
	}
	s = s.Canonical()
	for _, p := range k.Params {
		if p.Check == nil {
			continue
		}
		if allowed := p.Check(s); allowed != "" {
			v, _ := s.Value(p.Key)
			return nil, s, inputerr.New("topology."+p.Key, v, "%s", allowed)
		}
	}
	return k, s, nil
}

// routing resolves a routing name or alias ("" is the default).
func (k *KindSpec) routing(name string) (Routing, error) {
	rs := k.routings()
	n := norm(name)
	if n == "" {
		return rs[0], nil
	}
	var canon, aliases []string
	for _, r := range rs {
		if n == r.Name || slices.Contains(r.Aliases, n) {
			return r, nil
		}
		canon = append(canon, r.Name)
		for _, a := range r.Aliases {
			aliases = append(aliases, a+" (= "+r.Name+")")
		}
	}
	// Canonical names first, then the aliases sorted.
	slices.Sort(aliases)
	return Routing{}, inputerr.New("routing", name, "for %s: %s", k.Name, strings.Join(append(canon, aliases...), ", "))
}
