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
	if l.unusedByModel(c, warn) {
		return out // slotted: no traffic pattern either
	}
	if c.Traffic.Trace != "" || len(c.Traffic.Packets) > 0 {
		return out // the trace replaces the pattern
	}
	l.unusedByPattern(c, warn)
	return out
}

// unusedByModel warns of the keys only another switch model or traffic
// mode reads; it reports whether the config is slotted (whose packets
// come from traffic.p0, not from a pattern).
func (l *loader) unusedByModel(c *network.Config, warn func(key, why string)) (slotted bool) {
	slotted = strings.EqualFold(strings.TrimSpace(c.Switching), "slotted")
	csr := slotted && strings.EqualFold(strings.TrimSpace(c.Slotted.Scheme), "csr")
	for _, g := range []struct {
		keys []string
		read bool
		why  string
	}{
		{[]string{"queue.discipline", "queue.shared", "queue.arrival_order", "queue.routes", "queue.full"},
			strings.EqualFold(strings.TrimSpace(c.Switching), "packet"), "only switching: packet reads it"},
		{[]string{"traffic.h", "run.experiments"},
			strings.EqualFold(strings.TrimSpace(c.Traffic.Mode), "batch"), "only traffic.mode: batch reads it"},
		{[]string{"lockstep.buffers", "lockstep.model", "lockstep.wrap"},
			network.IsLockstepMesh(c), "only switching: lockstep-mesh (flitsim route) reads it"},
		{[]string{"slotted.scheme", "slotted.k", "traffic.p0"}, slotted, "only switching: slotted reads it"},
		{[]string{"csr.beta", "csr.retry", "csr.k", "csr.fresh"}, csr, "only slotted.scheme: csr reads it"},
		{[]string{"router.routing_delay", "router.vc_alloc_delay", "router.sw_alloc_delay", "router.st_final_delay",
			"router.credit_delay", "router.vc_allocator", "router.sw_allocator", "router.alloc_iters", "vc.release",
			"router.input_speedup", "router.output_speedup"},
			strings.TrimSpace(c.Router.Model) != "", "only router.model (iq) reads it"},
	} {
		for _, key := range g.keys {
			if _, given := l.where[key]; given && !g.read {
				warn(key, g.why)
			}
		}
	}
	// The keys the user wrote (not the embedded default's) that a model
	// replaces.
	written := func(key string) bool {
		pos, given := l.where[key]
		return given && (l.name != DefaultName || pos == inputerr.CommandLine)
	}
	if strings.TrimSpace(c.Router.Model) != "" {
		for _, key := range []string{"switch.delay", "switch.reuse", "arbiter"} {
			if written(key) {
				warn(key, "router.model replaces the flit crossbar's switch: its router.* keys set it")
			}
		}
	}
	if _, given := l.where["csr.retry"]; given && csr && c.CSR.Fresh {
		warn("csr.retry", "csr.fresh drops NACKed packets, so none retries")
	}
	if slotted {
		for _, key := range []string{"traffic.pattern", "traffic.load", "traffic.flits"} {
			if written(key) {
				warn(key, "switching: slotted makes its packets by traffic.p0")
			}
		}
	}
	return slotted
}

// unusedByPattern warns of the pattern parameters the chosen pattern does
// not read.
func (l *loader) unusedByPattern(c *network.Config, warn func(key, why string)) {
	pat, ok := traffic.LookupPattern(c.Traffic.Pattern)
	if !ok {
		return
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
}
