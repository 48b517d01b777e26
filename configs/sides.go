package configs

import (
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/network/topology"
)

// topology.k of a mesh or torus may be a list, one side per dimension
// (k: [4, 8], k: 4,8 or --set topology.k=4,8): a rectangular grid. The
// list goes to Spec.Sides (see network/topology/sides.go); a scalar k
// decodes as before.

// decodeSides decodes n into topo's sides when key is topology.k written
// as a list; handled is false for every other key or a scalar k.
func (l *loader) decodeSides(n *yaml.Node, topo reflect.Value, key string) (handled bool, err error) {
	spec, ok := topo.Addr().Interface().(*network.TopologyConfig)
	if !ok || key != "topology.k" {
		return false, nil
	}
	d := deref(n)
	list := d != nil && (d.Kind == yaml.SequenceNode || d.Kind == yaml.ScalarNode && strings.ContainsAny(d.Value, ",[]"))
	if !list {
		spec.Sides = nil
		return false, nil
	}
	var sides network.IntList
	if err := l.decodeLeaf(n, reflect.ValueOf(&sides).Elem(), key); err != nil {
		return true, err
	}
	spec.SetSides(sides)
	return true, nil
}

// finishSides makes n the length of a list of sides when the user did not
// write topology.n (the embedded default's n: 2 is not theirs), and folds
// a list of equal sides into the scalar k.
func (l *loader) finishSides(cfg *network.Config) {
	if cfg.Topology.Rectangular() && topology.AcceptsSides(cfg.Topology.Kind) && !l.userWrote("topology.n") {
		cfg.Topology.N = 0
		// n now comes from the list: an error about it belongs where k was written.
		l.where["topology.n"] = l.where["topology.k"]
	}
	cfg.Topology = cfg.Topology.Canonical()
}
