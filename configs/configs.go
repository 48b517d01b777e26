// Package configs loads experiment configurations (network.Config) from YAML
// files and --set overrides. The folder also holds ready experiment files;
// default.yaml is embedded and is what an empty path loads.
//
// # Rules
//
//   - A file starts from network.Default() and only needs the keys it changes.
//   - Exception: if a file has a topology key at all, the topology block
//     starts from zero values (kind "", d, k, n 0, no dims/order/path), so a
//     mesh's k and n never leak into a hypercube or MIN. Likewise a
//     --set topology.kind=K naming a different kind than the file's (or the
//     default's, mesh) discards the file's whole topology block first; the
//     other topology.* keys must then be set too.
//   - Decoding is strict: an unknown key, a duplicate key or a value of the
//     wrong type is an error naming the dotted key (run.seed), the value and
//     what is allowed, prefixed with FILE:LINE: (or "--set ").
//   - --set key=value overrides (dotted keys: traffic.load=0.3,
//     topology.dims=1,2,1,2,0, switch.reuse=false) are applied to the YAML
//     node tree before decoding, in order, creating maps as needed, so they
//     are type-checked exactly like file values. An empty value is the empty
//     string (it resets a string or list, and is an error for a number).
//   - Finally network.Validate checks the meaning (k ≥ 2, 0 ≤ load ≤ 1, ...).
//     An error about a fault of several keys names the one the user wrote
//     (inputerr.Error.Alt), at the line or --set that gave it.
//   - A key the chosen topology kind or traffic pattern does not declare
//     (topology.d on a mesh) is accepted: LoadWarn reports it as a warning.
//
// Every error is a single line.
package configs

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/network"
)

//go:embed default.yaml
var defaultYAML []byte

// DefaultName is the name errors use for the embedded default.
const DefaultName = "default.yaml"

// DefaultYAML returns the embedded default experiment file.
func DefaultYAML() []byte { return bytes.Clone(defaultYAML) }

// Load reads the experiment file at path ("" means the embedded default),
// applies the --set overrides ("key=value", dotted keys) and validates the
// result with network.Validate.
func Load(path string, sets []string) (network.Config, error) {
	cfg, _, err := LoadWarn(path, sets)
	return cfg, err
}

// LoadBytes is Load for YAML already in memory; name is the file name used in
// error messages.
func LoadBytes(data []byte, name string, sets []string) (network.Config, error) {
	cfg, _, err := LoadBytesWarn(data, name, sets)
	return cfg, err
}

// LoadWarn is Load that also returns a warning line for each key the file
// or a --set gave that does nothing for the chosen topology kind or traffic
// pattern ("--set topology.d: ignored (mesh has no parameter d; ...)").
func LoadWarn(path string, sets []string) (network.Config, []string, error) {
	data, name, err := readConfig(path)
	if err != nil {
		return network.Config{}, nil, err
	}
	return LoadBytesWarn(data, name, sets)
}

// readConfig reads the experiment file at path, or the embedded default
// when path is "", and returns it with the name errors should give.
func readConfig(path string) ([]byte, string, error) {
	if path == "" {
		return defaultYAML, DefaultName, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, "", fmt.Errorf("%s: cannot read config file: %v", path, err)
	}
	return data, path, nil
}

// newLoader is the loader for a file read as name.
func newLoader(name string) loader {
	return loader{name: name, embedded: name == DefaultName, where: map[string]string{}, items: map[string][]string{}}
}

// LoadBytesWarn is LoadWarn for YAML already in memory.
func LoadBytesWarn(data []byte, name string, sets []string) (network.Config, []string, error) {
	l := newLoader(name)
	cfg, err := l.load(data, sets)
	if err != nil {
		return network.Config{}, nil, oneLine(err)
	}
	return cfg, l.unused(&cfg), nil
}

type loader struct {
	name     string
	embedded bool // loading the embedded default: its keys are not the user's
	// where maps a dotted key to where it was written (inputerr.Error.Pos):
	// "FILE:LINE" or "--set".
	where map[string]string
	// items maps a list key to where each entry was written.
	items map[string][]string
	// unchecked skips the final validation (LoadUnchecked, LoadDecoded).
	unchecked bool
	// pre runs before the final validation (nil: checkRunMemory).
	pre Precheck
	// keep makes the final validation a build whose network is kept in
	// built (LoadBuilt), after adjust.
	keep   bool
	adjust func(*network.Config)
	built  *network.Network
}

// resolveFile makes a relative topology.file that a config file gave
// relative to that file's folder, as a trace or include would be read;
// one a --set gave stays relative to the working directory.
func (l *loader) resolveFile(cfg *network.Config) {
	f := cfg.Topology.File
	pos, given := l.where["topology.file"]
	if f == "" || !given || pos == inputerr.CommandLine || l.embedded || filepath.IsAbs(f) {
		return
	}
	cfg.Topology.File = filepath.Join(filepath.Dir(l.name), f)
}

// --- the YAML node tree ---

// deref follows aliases (bounded, in case of a cycle).
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 64; i++ {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" && n.Style == 0
}

// lookup finds key in mapping m (the first occurrence).
func lookup(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k := deref(m.Content[i]); k != nil && k.Kind == yaml.ScalarNode && k.Value == key {
			return deref(m.Content[i+1])
		}
	}
	return nil
}

// remove deletes every occurrence of key from mapping m.
func remove(m *yaml.Node, key string) {
	out := m.Content[:0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k := deref(m.Content[i]); k != nil && k.Kind == yaml.ScalarNode && k.Value == key {
			continue
		}
		out = append(out, m.Content[i], m.Content[i+1])
	}
	m.Content = out
}

// apply sets path to a plain scalar value in mapping m, creating or replacing
// mappings on the way. New nodes have Line 0, which marks them as --set's.
func apply(m *yaml.Node, path []string, value string) {
	for i, key := range path {
		var slot **yaml.Node
		for j := 0; j+1 < len(m.Content); j += 2 {
			if k := deref(m.Content[j]); k != nil && k.Kind == yaml.ScalarNode && k.Value == key {
				slot = &m.Content[j+1]
				break
			}
		}
		if slot == nil {
			m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, nil)
			slot = &m.Content[len(m.Content)-1]
		}
		if i == len(path)-1 {
			n := &yaml.Node{Kind: yaml.ScalarNode, Value: value}
			if value == "" {
				n.Style = yaml.DoubleQuotedStyle
			}
			*slot = n
			return
		}
		next := deref(*slot)
		switch {
		case next == nil || next.Kind != yaml.MappingNode:
			next = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		case next != *slot:
			// An alias: copy, so the anchor's other users do not change.
			c := *next
			c.Content = append([]*yaml.Node(nil), next.Content...)
			next = &c
		}
		*slot = next
		m = next
	}
}

// --- the schema (network.Config's yaml tags) ---

var unmarshalerType = reflect.TypeFor[yaml.Unmarshaler]()

// isSection reports whether t is a block of keys (a struct decoded key by
// key) rather than a leaf value.
func isSection(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && !reflect.PointerTo(t).Implements(unmarshalerType)
}

func yamlName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	if name == "-" || !f.IsExported() {
		return ""
	}
	if name == "" {
		name = strings.ToLower(f.Name)
	}
	return name
}

func keysOf(t reflect.Type) []string {
	var keys []string
	for i := 0; i < t.NumField(); i++ {
		if n := yamlName(t.Field(i)); n != "" {
			keys = append(keys, n)
		}
	}
	return keys
}

func field(t reflect.Type, key string) (int, bool) {
	for i := 0; i < t.NumField(); i++ {
		if yamlName(t.Field(i)) == key {
			return i, true
		}
	}
	return 0, false
}

// checkPath checks a dotted --set key against the schema.
func checkPath(t reflect.Type, path []string) *inputerr.Error {
	for i, key := range path {
		if !isSection(t) {
			return &inputerr.Error{Key: strings.Join(path[:i+1], "."),
				Problem: "unknown key (" + strings.Join(path[:i], ".") + " is a single value, not a block of keys)"}
		}
		f, ok := field(t, key)
		if !ok {
			return unknownKey(strings.Join(path[:i+1], "."), keysOf(t))
		}
		t = t.Field(f).Type
	}
	if isSection(t) {
		return &inputerr.Error{Key: strings.Join(path, "."), Value: "a single value",
			Allowed: "one of its keys: " + strings.Join(keysOf(t), ", ")}
	}
	return nil
}

// allowed describes the values a leaf of type t accepts.
func allowed(t reflect.Type) string {
	switch t {
	case reflect.TypeFor[network.IntList]():
		return "a list of integers like 1,2,1,2,0"
	case reflect.TypeFor[network.FlitRange]():
		return "a flit count like 4 or a range like 32-96"
	case reflect.TypeFor[network.ByteSize]():
		return network.ByteSizeAllowed
	}
	switch t.Kind() {
	case reflect.Pointer:
		return allowed(t.Elem())
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a non-negative integer"
	case reflect.Float32, reflect.Float64:
		return "a finite number"
	case reflect.String:
		return "a string"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.String {
			return "a list of strings, or one string"
		}
		return "a list of " + allowed(t.Elem())
	}
	return t.String()
}

// show writes a node's value for an error message.
func show(n *yaml.Node) string {
	s := render(n, 0)
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

func render(n *yaml.Node, depth int) string {
	n = deref(n)
	if n == nil {
		return "null"
	}
	if depth > 3 {
		return "..."
	}
	switch n.Kind {
	case yaml.ScalarNode:
		return strconv.Quote(n.Value)
	case yaml.SequenceNode:
		parts := make([]string, 0, len(n.Content))
		for _, c := range n.Content {
			parts = append(parts, render(c, depth+1))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case yaml.MappingNode:
		parts := make([]string, 0, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			parts = append(parts, render(n.Content[i], depth+1)+": "+render(n.Content[i+1], depth+1))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return "?"
}

// pos is where node n was written: "FILE:LINE", or "--set".
func (l *loader) pos(n *yaml.Node) string {
	if n == nil || n.Line == 0 {
		return inputerr.CommandLine
	}
	return fmt.Sprintf("%s:%d", l.name, n.Line)
}

// decodeStruct decodes mapping n into the struct v key by key: strictly (an
// unknown or repeated key is an error) and naming the dotted key in errors.
func (l *loader) decodeStruct(n *yaml.Node, v reflect.Value, prefix string) error {
	orig := n
	n = deref(n)
	if n == nil || isNull(n) {
		return nil
	}
	t := v.Type()
	if n.Kind != yaml.MappingNode {
		return &inputerr.Error{Key: prefix, Value: show(n),
			Allowed: "a mapping with keys " + strings.Join(keysOf(t), ", "), Pos: l.pos(orig)}
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, vn := deref(n.Content[i]), n.Content[i+1]
		if kn == nil || kn.Kind != yaml.ScalarNode {
			return &inputerr.Error{Key: join(prefix, "(key)"),
				Value: show(kn), Allowed: "keys " + strings.Join(keysOf(t), ", "), Pos: l.pos(n.Content[i])}
		}
		key := join(prefix, kn.Value)
		f, ok := field(t, kn.Value)
		if !ok {
			return unknownKey(key, keysOf(t)).At(l.pos(n.Content[i]))
		}
		if seen[kn.Value] {
			return &inputerr.Error{Key: key, Problem: "key given twice", Pos: l.pos(n.Content[i])}
		}
		seen[kn.Value] = true
		fv := v.Field(f)
		if isSection(fv.Type()) {
			l.where[key] = l.pos(n.Content[i]) // a block: where its key is
			if err := l.decodeStruct(vn, fv, key); err != nil {
				return err
			}
			continue
		}
		l.where[key] = l.pos(vn) // a value: the file's line, or --set
		if done, err := l.decodeSides(vn, v, key); done || err != nil {
			if err != nil {
				return err
			}
			continue
		}
		if err := l.decodeLeaf(vn, fv, key); err != nil {
			return err
		}
	}
	return nil
}

func (l *loader) decodeLeaf(n *yaml.Node, v reflect.Value, key string) error {
	bad := func() error {
		return &inputerr.Error{Key: key, Value: show(n), Allowed: allowed(v.Type()), Pos: l.pos(n)}
	}
	// A list of strings also takes one string (handy with --set).
	if v.Type() == reflect.TypeFor[[]string]() && deref(n).Kind == yaml.ScalarNode && deref(n).ShortTag() == "!!str" {
		v.Set(reflect.ValueOf([]string{deref(n).Value}))
		l.items[key] = []string{l.pos(n)}
		return nil
	}
	if d := deref(n); d.Kind == yaml.SequenceNode {
		l.items[key] = nil
		for _, e := range d.Content {
			l.items[key] = append(l.items[key], l.pos(e))
		}
	}
	// Decode into a fresh value so a failed decode leaves no partial state.
	tmp := reflect.New(v.Type())
	if err := n.Decode(tmp.Interface()); err != nil {
		return bad()
	}
	e := tmp.Elem()
	kind := e.Kind()
	if tmp.Type().Implements(unmarshalerType) {
		kind = reflect.Invalid // (its UnmarshalYAML checked the value)
	}
	switch kind {
	case reflect.String:
		if deref(n).Kind != yaml.ScalarNode {
			return bad()
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		// yaml.v3 truncates 2.5 into an int; an integer key wants an integer.
		if deref(n).ShortTag() != "!!int" {
			return bad()
		}
	case reflect.Float32, reflect.Float64:
		if f := e.Float(); math.IsNaN(f) || math.IsInf(f, 0) {
			return bad()
		}
	}
	v.Set(e)
	return nil
}

func join(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

// Key describes one configuration key, for help texts and `flitsim list`.
type Key struct {
	Key     string // dotted, e.g. traffic.load
	Allowed string // e.g. "a finite number"
	Default string // the value in network.Default(), as YAML would write it
}

// Keys lists every configuration key with what it accepts and its default.
func Keys() []Key {
	var out []Key
	var walk func(v reflect.Value, prefix string)
	walk = func(v reflect.Value, prefix string) {
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			name := yamlName(t.Field(i))
			if name == "" {
				continue
			}
			key, fv := join(prefix, name), v.Field(i)
			if isSection(fv.Type()) {
				walk(fv, key)
				continue
			}
			k := Key{Key: key, Allowed: allowed(fv.Type()), Default: showValue(fv)}
			// A field may say what it accepts and what its zero value means
			// (tags allowed and default).
			if a := t.Field(i).Tag.Get("allowed"); a != "" {
				k.Allowed = a
			}
			if d := t.Field(i).Tag.Get("default"); d != "" {
				k.Default = d
			}
			out = append(out, k)
		}
	}
	walk(reflect.ValueOf(network.Default()), "")
	return out
}

func showValue(v reflect.Value) string {
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return ""
		}
		v = v.Elem()
	}
	if s, ok := v.Interface().(fmt.Stringer); ok {
		return s.String()
	}
	if v.Kind() == reflect.String {
		return strconv.Quote(v.String())
	}
	return fmt.Sprint(v.Interface())
}
