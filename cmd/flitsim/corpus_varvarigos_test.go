package main

// corpusVarvarigos is one run per hypercube-like kind of Varvarigos 1992
// ch. 7 and routing (16 nodes, uniform traffic at 0.2; the random classes'
// members are drawn from run.seed, the default 1).
func corpusVarvarigos() []corpusRun {
	kind := func(name string, sets ...string) corpusRun {
		return corpusRun{"topology-" + name, run(with(sets, window, []string{"topology.d=4", "traffic.load=0.2"})...)}
	}
	return []corpusRun{
		kind("folded-cube", "topology.kind=folded-cube"),
		kind("pseudocube", "topology.kind=pseudocube"),
		kind("permutation-cube", "topology.kind=permutation-cube"),
		kind("permutation-cube-symmetric", "topology.kind=permutation-cube", "topology.symmetric=true"),
		kind("enhanced-cube", "topology.kind=enhanced-cube"),
		kind("enhanced-cube-valiant", "topology.kind=enhanced-cube", "routing=valiant"),
	}
}
