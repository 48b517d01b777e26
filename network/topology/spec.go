package topology

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Spec describes the network to build. It is also the topology block of a
// configuration (network.TopologyConfig is this type): its yaml tags are the
// keys under topology., so a kind's parameter needs a field here and a Param
// in the kind's file, nowhere else. Fields a kind does not declare are
// ignored (so one config can switch kinds without clearing the others).
type Spec struct {
	Kind string `yaml:"kind" json:"kind"` // a registered kind: Kinds()
	D    int    `yaml:"d" json:"d"`       // hypercube dimension
	// K is the radix: nodes per dimension (mesh, torus) or switch size k×k
	// (MINs); 0 when Sides is set.
	K int `yaml:"k" json:"k" allowed:"an integer, or for mesh and torus a list of sides, one per dimension, like 4,8"`
	N int `yaml:"n" json:"n"` // dimensions (mesh, torus) or stages (MINs)
	// Sides is topology.k written as a list whose sides differ (a
	// rectangular mesh or torus, dimension 0 first); nil otherwise. Read
	// sides with Side (sides.go).
	Sides IntList `yaml:"-" json:"sides,omitempty"`
	// Dims lists the butterfly dimension of each ESMIN stage, leftmost stage
	// first, e.g. 1,2,1,2,0 (the last must be 0).
	Dims IntList `yaml:"dims" json:"dims,omitempty"`
	// Order is the order in which dimension-order and e-cube routing correct
	// dimensions, e.g. 1,0 routes y before x. Empty means 0,1,2,...
	Order IntList `yaml:"order" json:"order,omitempty"`
	// Path chooses among an ESMIN's 2^m paths: first | latest | random | given.
	Path string `yaml:"path" json:"path,omitempty"`
	// PathIndex is the path taken when Path is given (0 ≤ index < 2^m).
	PathIndex int `yaml:"path_index" json:"path_index,omitempty"`
	// Tree is the ESMIN multicast tree algorithm (the multicast.tree key:
	// lb, fb, rb, rm; empty: topology.path decides). Set by the caller.
	Tree string `yaml:"-" json:"-"`
	// Tie is the direction a torus route takes at exactly half a ring:
	// plus (the + way) or random (drawn once per packet and dimension).
	Tie string `yaml:"tie" json:"tie,omitempty"`
	// Symmetric asks for a symmetric member of a random class (a
	// permutation cube whose every link s→t has its reverse t→s).
	Symmetric bool `yaml:"symmetric" json:"symmetric,omitempty"`
	// File is the topology file of kind file (docs/configuration.md, "Topology files").
	// In a config file a relative path is relative to that file's folder;
	// the loader resolves it, so File is then relative to the working
	// directory (or absolute).
	File string `yaml:"file" json:"file,omitempty"`
	// Routing is the routing function (the config's top-level routing key);
	// empty means the kind's default.
	Routing string `yaml:"-" json:"-"`
	// Seed is the run's seed (run.seed): kinds whose members are drawn at
	// random (a pseudocube's links) draw them from it, so one seed is one
	// network. Like Routing it is set by the caller, not a topology key.
	Seed uint64 `yaml:"-" json:"-"`
}

// Value is the value of the parameter key (a yaml key of Spec, e.g. "k") as
// an error message shows it: an integer, a list "1,2,0" ("[]" when empty) or
// the string itself. ok is false for a key Spec does not have.
func (s Spec) Value(key string) (v string, ok bool) {
	f, ok := specField(key)
	if !ok {
		return "", false
	}
	if key == "k" && len(s.Sides) > 0 {
		return s.kValue(), true
	}
	switch x := reflect.ValueOf(s).FieldByIndex(f.Index).Interface().(type) {
	case int:
		return strconv.Itoa(x), true
	case IntList:
		return joinInts(x), true
	case string:
		return x, true
	case bool:
		return strconv.FormatBool(x), true
	}
	return "", false
}

// IsSet reports whether parameter key holds a value other than its zero.
func (s Spec) IsSet(key string) bool {
	f, ok := specField(key)
	if key == "k" && len(s.Sides) > 0 {
		return true
	}
	return ok && !reflect.ValueOf(s).FieldByIndex(f.Index).IsZero()
}

// ParamKeys lists the keys of Spec's parameters (every yaml key but kind).
func ParamKeys() []string {
	var keys []string
	t := reflect.TypeFor[Spec]()
	for i := 0; i < t.NumField(); i++ {
		if k := yamlKey(t.Field(i)); k != "" && k != "kind" {
			keys = append(keys, k)
		}
	}
	return keys
}

func specField(key string) (reflect.StructField, bool) {
	t := reflect.TypeFor[Spec]()
	for i := 0; i < t.NumField(); i++ {
		if yamlKey(t.Field(i)) == key {
			return t.Field(i), true
		}
	}
	return reflect.StructField{}, false
}

func yamlKey(f reflect.StructField) string {
	k, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	if k == "-" {
		return ""
	}
	return k
}

// IntList is a list of integers written either as a YAML sequence or as a
// comma-separated string ("1,2,1,2,0").
type IntList []int

// UnmarshalYAML accepts a sequence of integers or a comma-separated string.
func (l *IntList) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.SequenceNode:
		var v []int
		if err := n.Decode(&v); err != nil {
			return err
		}
		*l = v
		return nil
	case yaml.ScalarNode:
		v, err := ParseIntList(n.Value)
		if err != nil {
			return fmt.Errorf("line %d: %v", n.Line, err)
		}
		*l = v
		return nil
	}
	return fmt.Errorf("line %d: want a list of integers", n.Line)
}

// String writes the list comma-separated.
func (l IntList) String() string {
	s := make([]string, len(l))
	for i, v := range l {
		s[i] = strconv.Itoa(v)
	}
	return strings.Join(s, ",")
}

// ParseIntList reads "1,2,1,2,0" (spaces and brackets allowed).
func ParseIntList(s string) (IntList, error) {
	s = strings.Trim(strings.TrimSpace(s), "[]")
	if s == "" {
		return nil, nil
	}
	var out IntList
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("%q is not a comma-separated list of integers", s)
		}
		out = append(out, v)
	}
	return out, nil
}
