package traffic

// Multiple reads and multiple writes (Brebner 1983 §2.6, digest §4.8–4.9):
// batch workloads of the packet router, built by the network
// (network/multi.go) because their packets carry destination sets and
// memory locations, not one destination. They are registered here for
// `flitsim list`, for the key checks and for the unused-key warnings.
func init() {
	notHere := func(a PatternArgs) (Generator, error) {
		return nil, a.bad("a unicast pattern, or switching: packet with traffic.mode: batch for %s", a.canon())
	}
	RegisterPattern(PatternSpec{Name: "multi-read", Aliases: []string{"multiple-read", "multi-reads"}, NewGenerator: notHere, BatchOnly: true,
		Needs:  "hypercube or dshuffle, switching packet, traffic.mode batch",
		Params: []PatternParam{{Key: "traffic.fanout", Desc: "destinations per read, a power of 2 (of d on the d-shuffle); 0: random"}},
		Desc:   "partial multiple-read h-relation (traffic.h reads per node, no node in more than h sets): each node reads to a wildcard set of nodes, copied by address-set splitting in the last phase (Brebner §2.6.1)"})
	RegisterPattern(PatternSpec{Name: "multi-write", Aliases: []string{"multiple-write", "multi-writes"}, NewGenerator: notHere, BatchOnly: true,
		Needs: "switching packet, traffic.mode batch",
		Params: []PatternParam{{Key: "traffic.locations", Desc: "locations written; 1: OR of N"},
			{Key: "traffic.combine", Desc: "or, and, sum, lowest, random"}},
		Desc: "partial multiple-write h-relation (traffic.h writes per node, at most h locations per node): writes to the same location combined in queues in the last phase (Brebner §2.6.2)"})
}

// IsMultiPattern reports whether name is multi-read or multi-write (and
// which).
func IsMultiPattern(name string) (multi, write bool) {
	p, ok := LookupPattern(name)
	if !ok {
		return false, false
	}
	return p.Name == "multi-read" || p.Name == "multi-write", p.Name == "multi-write"
}
