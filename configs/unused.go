package configs

import (
	"fmt"
	"slices"
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/network/topology"
	"github.com/flitsim/flitsim/traffic"
)

// unused lists, one line each and placed like errors, the keys the file or
// a --set gave that do nothing for the chosen topology kind or traffic
// pattern (topology.d on a mesh, traffic.hotspots with uniform traffic).
// They are warnings, not errors, so that one config or sweep can span
// kinds. The registries' declared parameters decide what is used.
func (l *loader) unused(c *network.Config) []string {
	var out []string
	warn := func(key, why string) {
		e := inputerr.Error{Key: key, Problem: "ignored (" + why + ")", Pos: l.where[key]}
		out = append(out, e.Error())
	}
	if k, ok := topology.Kind(c.Topology.Kind); ok {
		for _, p := range topology.ParamKeys() {
			key := "topology." + p
			if _, given := l.where[key]; given {
				if _, declared := k.Param(p); !declared {
					warn(key, fmt.Sprintf("%s has no parameter %s; its parameters: %s", k.Name, p, strings.Join(k.ParamNames(), ", ")))
				}
			}
		}
	}
	// The packet router's keys, and a batch's.
	packet := strings.EqualFold(strings.TrimSpace(c.Switching), "packet")
	batch := strings.EqualFold(strings.TrimSpace(c.Traffic.Mode), "batch")
	for _, key := range []string{"queue.discipline", "queue.shared", "queue.arrival_order", "queue.routes", "queue.full"} {
		if _, given := l.where[key]; given && !packet {
			warn(key, "only switching: packet reads it")
		}
	}
	for _, key := range []string{"traffic.h", "run.experiments"} {
		if _, given := l.where[key]; given && !batch {
			warn(key, "only traffic.mode: batch reads it")
		}
	}
	for _, key := range []string{"lockstep.buffers", "lockstep.model", "lockstep.wrap"} {
		if _, given := l.where[key]; given && !network.IsLockstepMesh(c) {
			warn(key, "only switching: lockstep-mesh (flitsim route) reads it")
		}
	}
	// The slotted router's keys; it makes its own packets.
	slotted := strings.EqualFold(strings.TrimSpace(c.Switching), "slotted")
	for _, key := range []string{"slotted.scheme", "slotted.k", "traffic.p0"} {
		if _, given := l.where[key]; given && !slotted {
			warn(key, "only switching: slotted reads it")
		}
	}
	csr := slotted && strings.EqualFold(strings.TrimSpace(c.Slotted.Scheme), "csr")
	for _, key := range []string{"csr.beta", "csr.retry", "csr.k", "csr.fresh"} {
		if _, given := l.where[key]; given && !csr {
			warn(key, "only slotted.scheme: csr reads it")
		}
	}
	if _, given := l.where["csr.retry"]; given && csr && c.CSR.Fresh {
		warn("csr.retry", "csr.fresh drops NACKed packets, so none retries")
	}
	if slotted {
		for _, key := range []string{"traffic.pattern", "traffic.load", "traffic.flits"} {
			// (not the embedded default's: the user did not write them)
			if pos, given := l.where[key]; given && (l.name != DefaultName || pos == inputerr.CommandLine) {
				warn(key, "switching: slotted makes its packets by traffic.p0")
			}
		}
		return out
	}
	if c.Traffic.Trace != "" || len(c.Traffic.Packets) > 0 {
		return out // the trace replaces the pattern
	}
	pat, ok := traffic.LookupPattern(c.Traffic.Pattern)
	if !ok {
		return out
	}
	readers := map[string][]string{} // pattern parameter key → patterns that read it
	var keys []string
	for _, p := range traffic.AllPatterns() {
		for _, q := range p.Params {
			if readers[q.Key] == nil {
				keys = append(keys, q.Key)
			}
			readers[q.Key] = append(readers[q.Key], p.Name)
		}
	}
	for _, key := range keys {
		if _, given := l.where[key]; given && !slices.Contains(readers[key], pat.Name) {
			warn(key, fmt.Sprintf("pattern %s does not read it; %s does", pat.Name, strings.Join(readers[key], ", ")))
		}
	}
	return out
}
