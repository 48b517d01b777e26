package topology

// The permutation cube P_d (Varvarigos 1992 Definition 3, §7.3): a
// pseudocube in which every node has exactly one incoming link per
// dimension. Within each block of 2^(i+1) nodes that agree above bit i,
// the dimension-i links map the bit-i = 0 half one-to-one onto the
// bit-i = 1 half and back, by two random bijections; in a symmetric
// permutation cube the second is the inverse of the first, so every link
// s→t has its reverse t→s. The hypercube is the member whose bijections
// all flip bit i.

func init() {
	Register(KindSpec{
		Name: "permutation-cube",
		Desc: "random permutation cube P_d (Varvarigos 1992 §7.3): a pseudocube with one in-link per dimension per node, drawn from run.seed; topology.symmetric pairs every link with its reverse",
		Params: []Param{cubeDParam(),
			{Key: "symmetric", Default: "false", Allowed: "true or false",
				Desc: "symmetric member: the dimension-i links of each block form a perfect matching"}},
		Routings: []Routing{msbRouting},
		Build:    buildPermutationCube,
		Size:     func(s Spec) Size { return uniform(1<<s.D, s.D+2) }, // (in-degree varies)
	})
}

// permutationCubeSalt separates the permutation cube's draws.
const permutationCubeSalt = 0x5045_5243_5542 // "PERCUB"

func buildPermutationCube(s Spec) (*Topology, error) {
	d := s.D
	rng := classRNG(s, permutationCubeSalt)
	out := make([][]int32, 1<<d)
	for v := range out {
		out[v] = make([]int32, d)
	}
	for i := range d {
		half := 1 << i
		for base := 0; base < 1<<d; base += 2 * half {
			up := rng.Perm(half) // lower x → upper up[x]
			down := rng.Perm(half)
			if s.Symmetric {
				for x, y := range up {
					down[y] = x
				}
			}
			for x := range half {
				out[base+x][i] = int32(base + half + up[x])
				out[base+half+x][i] = int32(base + down[x])
			}
		}
	}
	t, err := buildDirected(d, d, out, dimNames(d), s.Seed)
	if err != nil {
		return nil, err
	}
	// One in-link per dimension, arriving on its own port: every input is
	// fed, as in a hypercube (the tests check it).
	t.Directed = false
	return t, nil
}
