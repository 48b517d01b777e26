package topology

// The pseudocube S_d (Varvarigos 1992 Definition 1, §7.1): 2^d nodes, and
// from each node s one unidirectional link per dimension i, to
// s ⊕ (2^i + r) with r drawn uniformly from [0, 2^i) per node and
// dimension (the link string 0…0 1 *…*, every * a fair coin). In-degrees
// vary (mean d), so routers have as many input ports as they need.

func init() {
	Register(KindSpec{
		Name:     "pseudocube",
		Desc:     "random pseudocube S_d (Varvarigos 1992 §7.1): from each node one link per dimension i to s⊕(2^i+r), r < 2^i drawn from run.seed; unidirectional, in-degree varies",
		Params:   []Param{cubeDParam()},
		Routings: []Routing{msbRouting},
		Build:    buildPseudocube,
		Size:     func(s Spec) Size { return uniform(1<<s.D, s.D+2) }, // (in-degree varies)
	})
}

// pseudocubeSalt separates the pseudocube's draws from other kinds'.
const pseudocubeSalt = 0x5053_4355_4245 // "PSCUBE"

func buildPseudocube(s Spec) (*Topology, error) {
	d := s.D
	rng := classRNG(s, pseudocubeSalt)
	out := make([][]int32, 1<<d)
	for v := range out {
		out[v] = make([]int32, d)
		for i := range d {
			out[v][i] = int32(v ^ (1<<i | rng.IntN(1<<i)))
		}
	}
	return buildDirected(d, d, out, dimNames(d), s.Seed)
}
