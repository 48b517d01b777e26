package main

import (
	"slices"
	"strings"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/network/esmintree"
	"github.com/flitsim/flitsim/network/topology"
	xbar "github.com/flitsim/flitsim/switch"
	"github.com/flitsim/flitsim/traffic"
)

// keyValues lists, per configuration key with a fixed set of values, the
// values: from the registries where there is one; the multicast keys' and
// topology.path's values are the ones network.Build accepts (a test checks
// them against its error message). flitsim list and the completion scripts
// both use it.
func keyValues() map[string][]string {
	m := map[string][]string{
		"switching":           xbar.ModeNames(),
		"arbiter":             xbar.PolicyNames(),
		"switch.reuse":        {"true", "false"},
		"run.channels":        {"true", "false"},
		"run.per_node":        {"true", "false"},
		"run.per_pair":        {"true", "false"},
		"run.histogram":       {"true", "false"},
		"run.router_activity": {"true", "false"},
		"topology.path":       {"first", "latest", "random", "given"},
		"multicast.worm":      {"async", "sync", "path"},
		"multicast.encoding":  network.EncodingNames(),
		"multicast.scheme":    traffic.SchemeNames(),
		"multicast.tree":      esmintree.AlgNames(),
	}
	var routings []string
	for _, k := range topology.Kinds() {
		m["topology.kind"] = append(m["topology.kind"], k.Name)
		for _, r := range k.Routings {
			routings = append(routings, r.Name)
		}
	}
	slices.Sort(routings)
	m["routing"] = slices.Compact(routings)
	for _, p := range traffic.AllPatterns() {
		m["traffic.pattern"] = append(m["traffic.pattern"], p.Name)
	}
	return m
}

// keyNotes say what a key allows where its type alone (configs.Key.Allowed)
// would mislead, in the words of docs/configuration.md.
var keyNotes = map[string]string{
	"topology.order":   "a permutation of 0..n-1 like 1,0 (y before x); empty: ascending",
	"topology.dims":    "ESMIN: a list of integers like 1,2,1,2,0",
	"traffic.hotspots": "a list of terminals like 0,63",
	"topology.path":    `first, latest, random, given ("" = first)`,
	"routing":          `%s ("" = the topology's default, see above)`,
}

// listedKeys are configs.Keys() with the allowed values spelled out.
func listedKeys() []configs.Key {
	vals := keyValues()
	keys := configs.Keys()
	for i := range keys {
		k := &keys[i]
		if note, ok := keyNotes[k.Key]; ok {
			k.Allowed = strings.Replace(note, "%s", strings.Join(vals[k.Key], ", "), 1)
		} else if v, ok := vals[k.Key]; ok && k.Allowed == "a string" {
			k.Allowed = strings.Join(v, ", ")
		}
	}
	return keys
}
