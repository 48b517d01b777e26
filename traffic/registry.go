package traffic

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"
)

// PatternSpec declares one traffic pattern (a traffic.pattern value).
// Config validation, `flitsim list`, the network's traffic set-up and the
// tests read the registry.
type PatternSpec struct {
	Name    string   // canonical, lower case
	Aliases []string // other accepted spellings, lower case
	// Params are the config keys the pattern reads besides traffic.load and
	// traffic.flits; configs warns about such keys set for a pattern that
	// does not declare them.
	Params []PatternParam
	Needs  string // what the address space must be ("N a power of two"), or ""
	Desc   string // one line for `flitsim list`
	// Multicast marks a pattern whose packets have several destinations.
	Multicast bool
	// BatchOnly marks a packet-router batch the network builds itself
	// (multi-read, multi-write): NewWorkload refuses it.
	BatchOnly bool
	// New builds a destination pattern: the network injects packets with
	// NewBernoulli and asks it for each packet's destination.
	New func(a PatternArgs) (Pattern, error)
	// NewGenerator builds the whole workload instead (exactly one of New and
	// NewGenerator is set).
	NewGenerator func(a PatternArgs) (Generator, error)
}

// PatternParam is a config key a pattern reads.
type PatternParam struct {
	Key  string // e.g. traffic.hotspots
	Desc string // optional, e.g. "nodes per cluster, 0 = all"
}

// PatternArgs is what a pattern's constructor may read.
type PatternArgs struct {
	Name            string // as the user wrote it (for errors)
	Shape           Shape
	Load            float64 // offered flits per node per cycle
	Length          Length
	Hotspots        []int
	HotspotFraction float64
	Cluster         int
	// ClusterKey is the key Cluster came from (ClusterKey or
	// ClusterSizeKey; "" is ClusterKey), for errors.
	ClusterKey string
	Clusters   string  // traffic.clusters: the placement (ParseAllocation)
	Ratio      float64 // traffic.ratio: Chiang's communication ratio R
	Rng        *rand.Rand
}

// bad is an error about the traffic.pattern value.
func (a PatternArgs) bad(allowed string, args ...any) error {
	return &inputerr.Error{Key: "traffic.pattern", Value: a.Name, Allowed: fmt.Sprintf(allowed, args...)}
}

// canon is the canonical name of the pattern a.Name names.
func (a PatternArgs) canon() string {
	p, _ := LookupPattern(a.Name)
	return p.Name
}

var patterns []PatternSpec

// RegisterPattern adds a traffic pattern. It panics on a malformed or
// duplicate declaration (a programming error, found when the program
// starts).
func RegisterPattern(p PatternSpec) {
	if (p.New == nil) == (p.NewGenerator == nil) || p.Name == "" {
		panic("traffic.RegisterPattern(" + p.Name + "): want a name and exactly one of New and NewGenerator")
	}
	for _, n := range append([]string{p.Name}, p.Aliases...) {
		if _, dup := LookupPattern(n); dup || n != strings.ToLower(n) {
			panic("traffic.RegisterPattern: name " + n + " registered twice or not lower case")
		}
	}
	p.Aliases = slices.Clone(p.Aliases)
	p.Params = slices.Clone(p.Params)
	patterns = append(patterns, p)
}

// LookupPattern finds a registered pattern by name or alias
// (case-insensitive, spaces trimmed).
func LookupPattern(name string) (PatternSpec, bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	for _, p := range patterns {
		if n == p.Name || slices.Contains(p.Aliases, n) {
			return p, true
		}
	}
	return PatternSpec{}, false
}

// AllPatterns lists every registered pattern: the destination patterns,
// then the workloads (NewGenerator), each in registration order.
func AllPatterns() []PatternSpec {
	out := Patterns()
	for _, p := range patterns {
		if p.New == nil {
			out = append(out, p)
		}
	}
	return out
}

// Patterns lists the destination patterns NewPattern builds.
func Patterns() []PatternSpec {
	var out []PatternSpec
	for _, p := range patterns {
		if p.New != nil {
			out = append(out, p)
		}
	}
	return out
}

// MulticastPatterns lists the multicast patterns (IsMulticastPattern).
func MulticastPatterns() []PatternSpec {
	var out []PatternSpec
	for _, p := range AllPatterns() {
		if p.Multicast {
			out = append(out, p)
		}
	}
	return out
}

// IsMulticastPattern reports whether name (case-insensitive) is a
// registered multicast pattern.
func IsMulticastPattern(name string) bool {
	p, ok := LookupPattern(name)
	return ok && p.Multicast
}

// ParamText is the pattern's parameters in words, for `flitsim list`: what
// the address space must be, then the keys it reads.
func (p PatternSpec) ParamText() string {
	var parts []string
	if p.Needs != "" {
		parts = append(parts, p.Needs)
	}
	for _, q := range p.Params {
		s := q.Key
		if q.Desc != "" {
			s += " (" + q.Desc + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

// patternNames lists every pattern for "allowed: ..." messages.
func patternNames() string {
	var names, aliases []string
	for _, p := range AllPatterns() {
		names = append(names, p.Name)
		aliases = append(aliases, p.Aliases...)
	}
	s := strings.Join(names, ", ")
	if len(aliases) > 0 {
		s += " (aliases " + strings.Join(aliases, ", ") + ")"
	}
	return s
}

// NewWorkload builds the generator of the named pattern for a: a
// destination pattern with Bernoulli injection, or a pattern's own
// workload. Errors are *inputerr.Error naming the traffic key at fault.
func NewWorkload(a PatternArgs) (Generator, error) {
	if p, ok := LookupPattern(a.Name); ok && p.NewGenerator != nil {
		return p.NewGenerator(a)
	}
	pat, err := NewPattern(a.Name, a.Shape, a.Hotspots, a.HotspotFraction, a.Rng)
	if err != nil {
		return nil, err
	}
	return NewBernoulli(a.Shape.N, a.Load, a.Length, pat, a.Rng), nil
}
