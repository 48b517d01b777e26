package configs

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/network"
)

// load reads one YAML document, applies the --set overrides and decodes
// and validates the result.
func (l *loader) load(data []byte, sets []string) (network.Config, error) {
	cfg := network.Default()
	root, err := l.parseDocument(data)
	if err != nil {
		return cfg, err
	}
	// Parse the overrides first: their keys are checked against the schema.
	parsed, err := parseSets(sets)
	if err != nil {
		return cfg, err
	}
	if topologyReset(root, cfg.Topology.Kind, parsed) {
		cfg.Topology = network.TopologyConfig{}
	}
	for _, s := range parsed {
		apply(root, s.path, s.value)
	}
	if err := l.decodeStruct(root, reflect.ValueOf(&cfg).Elem(), ""); err != nil {
		return cfg, err
	}
	l.resolveFile(&cfg)
	l.finishSides(&cfg)
	l.packetLength(&cfg)
	if l.unchecked && l.pre == nil {
		return cfg, nil
	}
	// Validation builds the network: its memory is checked first.
	pre := l.pre
	if pre == nil {
		pre = checkRunMemory
	}
	err = pre(&cfg)
	if err == nil && !l.unchecked {
		err = l.final(&cfg)
	}
	if err != nil {
		if ce, ok := inputerr.As(err); ok && ce.Pos == "" {
			return cfg, l.place(ce)
		}
		return cfg, err
	}
	return cfg, nil
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// parseDocument parses data as at most one YAML document whose top level is
// a mapping, and returns that mapping (an empty one for an empty or null
// document).
func (l *loader) parseDocument(data []byte) (*yaml.Node, error) {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var root *yaml.Node
	switch err := dec.Decode(&doc); {
	case err == io.EOF:
		// An empty file: all defaults.
	case err != nil:
		msg := err.Error()
		if m := yamlLine.FindStringSubmatch(msg); m != nil {
			return nil, fmt.Errorf("%s:%s: %s", l.name, m[1], m[2])
		}
		return nil, fmt.Errorf("%s: %s", l.name, strings.TrimPrefix(msg, "yaml: "))
	default:
		var extra yaml.Node
		if err := dec.Decode(&extra); err != io.EOF {
			return nil, fmt.Errorf("%s: only one YAML document is allowed", l.name)
		}
		if len(doc.Content) > 0 {
			root = deref(doc.Content[0])
		}
	}
	if root != nil && isNull(root) {
		root = nil
	}
	if root != nil && root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s:%d: the top level must be a mapping of keys (allowed: %s)",
			l.name, root.Line, strings.Join(keysOf(reflect.TypeOf(network.Config{})), ", "))
	}
	if root == nil {
		root = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	}
	return root, nil
}

// setOverride is one --set key=value, the key split at its dots.
type setOverride struct {
	path  []string
	value string
}

// parseSets splits each --set key=value and checks the key against the
// schema.
func parseSets(sets []string) ([]setOverride, error) {
	var parsed []setOverride
	for _, s := range sets {
		key, value, ok := strings.Cut(s, "=")
		key = strings.TrimSpace(key)
		if !ok || key == "" {
			return nil, fmt.Errorf("--set %q: want key=value, e.g. traffic.load=0.3", s)
		}
		path := strings.Split(key, ".")
		if err := checkPath(reflect.TypeOf(network.Config{}), path); err != nil {
			return nil, err.At(inputerr.CommandLine)
		}
		parsed = append(parsed, setOverride{path, value})
	}
	return parsed, nil
}

// topologyReset applies the topology rule: a file that writes a topology
// section, or a --set that changes topology.kind, starts the topology from
// empty instead of the defaults (the --set also drops the file's section).
// defaultKind is the default config's kind.
func topologyReset(root *yaml.Node, defaultKind string, parsed []setOverride) bool {
	topo := lookup(root, "topology")
	kind := defaultKind
	if topo != nil {
		if k := lookup(topo, "kind"); k != nil && k.Kind == yaml.ScalarNode {
			kind = k.Value
		} else {
			kind = ""
		}
	}
	reset := topo != nil
	for _, s := range parsed {
		if len(s.path) == 2 && s.path[0] == "topology" && s.path[1] == "kind" && s.value != kind {
			remove(root, "topology")
			reset = true
			break
		}
	}
	return reset
}

// packetLength applies the packet-length rule: the default packets of 4
// flits are a flit-switching default, so with switching: packet a
// traffic.flits the user did not write (in their file or a --set; the
// embedded default's is not theirs) is 1, the only length the packet
// router takes. A length the user wrote is kept, and checked.
func (l *loader) packetLength(cfg *network.Config) {
	if !strings.EqualFold(strings.TrimSpace(cfg.Switching), "packet") {
		return
	}
	if pos, given := l.where["traffic.flits"]; given && (!l.embedded || pos == inputerr.CommandLine) {
		return
	}
	cfg.Traffic.Flits = network.FlitRange{Min: 1, Max: 1}
}
