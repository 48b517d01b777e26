package collective

import (
	"fmt"
	"math/bits"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network/topology"
)

// Collective tasks on the folded cube (the folded-cube paper, seed 003, and
// Varvarigos 1992 §7.4; digest 000b §2.7, §3.7, §4.14): the d-cube plus a
// complement link s → s ⊕ 1^d at every node. Folded dimension j < d is the
// cube's dimension j (generator e_j), folded dimension d the complement
// link (generator 1^d). Any d of the d+1 generators form a basis, so
// removing one dimension c leaves a d-cube F_c (Lemma 1 of the paper); the
// class algorithms run one copy of a hypercube algorithm in each F_c.

// MaxFoldedD is the largest folded cube a collective runs on (a node keeps
// a slot per other node and class).
const MaxFoldedD = 10

// MaxSplitD is the largest folded cube the MNB with splitting runs on (its
// N²(d+1) part copies are router packets).
const MaxSplitD = 8

func init() {
	registerFamily("folded-cube", &family{
		keys: map[string][]string{
			"te": nil, "te-greedy": nil, "snb": {"task.root"}, "sna": {"task.root"},
			"mnb": {"task.split"}, "pmnb": {"task.m", "task.tp"}, "pmna": {"task.m", "task.tp"},
			"sns": {"task.root"}, "sng": {"task.root"},
		},
		run: runFolded,
	})
}

// dims is a cube-like network whose links are named by dimension: every
// node has one out-link and one in-link per dimension j < D (the folded
// cube with D = d+1, the permutation cube with D = d).
type dims struct {
	d, D, n int
	port    []int32 // node × dimension: the out-port
	nbr     []int32 // node × dimension: the neighbour
	dimIn   []int32 // node × in-port (of at most maxIn): the dimension, or −1
	maxIn   int
	term    []int          // node → terminal
	spec    topology.Spec  // the network (tasks derived from another run build it again)
	after   []func() error // checks when the run has ended (the prefix channel's ranks)
}

// newDims reads g's links by dimension: nb(v, j) is v's dimension-j
// neighbour.
func newDims(g *Net, d, D int, nb func(v, j int) int) (*dims, error) {
	x := &dims{d: d, D: D, n: g.N, port: make([]int32, g.N*D), nbr: make([]int32, g.N*D), term: g.Term}
	for _, in := range g.In {
		x.maxIn = max(x.maxIn, len(in))
	}
	x.dimIn = make([]int32, g.N*x.maxIn)
	for i := range x.dimIn {
		x.dimIn[i] = -1
	}
	for v := 0; v < g.N; v++ {
		for j := 0; j < D; j++ {
			u := nb(v, j)
			p := g.Port(v, u)
			if p < 0 {
				return nil, fmt.Errorf("node %d has no dimension-%d link to %d", v, j, u)
			}
			x.port[v*D+j], x.nbr[v*D+j] = p, int32(u)
			in := int(g.Topo.Switches[v].Out[p].Port)
			if x.dimIn[u*x.maxIn+in] >= 0 {
				return nil, fmt.Errorf("node %d's in-port %d carries two dimensions", u, in)
			}
			x.dimIn[u*x.maxIn+in] = int32(j)
		}
	}
	return x, nil
}

// portOf is node's out-port along dimension j.
func (x *dims) portOf(node, j int) int32 { return x.port[node*x.D+j] }

// dimOf is the dimension of node's in-port inPort.
func (x *dims) dimOf(node, inPort int32) int { return int(x.dimIn[int(node)*x.maxIn+int(inPort)]) }

// foldGen is the generator of folded dimension j: e_j, or 1^d for j = d.
func foldGen(d, j int) int {
	if j == d {
		return 1<<d - 1
	}
	return 1 << j
}

// runFolded carries out one of the folded cube's tasks.
func runFolded(spec topology.Spec, task string, params map[string]string, seed uint64, o *Options) (*Result, error) {
	if spec.D > MaxFoldedD {
		return nil, inputerr.New("topology.d", spec.D, "an integer from 2 to %d for a folded-cube collective (a node keeps a slot per other node)", MaxFoldedD)
	}
	var x *dims
	res, err := runNet(spec, task, seed, o, func(k *kernel.Kernel, g *Net, px *proxy, r *Result) (*checker, error) {
		d := bits.TrailingZeros(uint(g.N))
		var err error
		if x, err = newDims(g, d, d+1, func(v, j int) int { return v ^ foldGen(d, j) }); err != nil {
			return nil, err
		}
		r.D, x.spec = d, spec
		return setupFolded(k, x, task, params, seed, px, r)
	})
	if err != nil {
		return nil, err
	}
	for _, check := range x.after {
		if err := check(); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// setupFolded loads task's packets and schedule and the seed's figures.
func setupFolded(k *kernel.Kernel, x *dims, task string, params map[string]string, seed uint64, px *proxy, r *Result) (*checker, error) {
	d, n := x.d, x.n
	switch task {
	case "te", "te-greedy":
		return setupFoldedTE(k, x, task == "te-greedy", px, r), nil
	case "snb", "sna", "sns", "sng":
		root, err := intParam(params, "task.root", 0, 0, n-1)
		if err != nil {
			return nil, err
		}
		r.Params = []string{fmt.Sprintf("task.root=%d", root)}
		switch task {
		case "snb":
			return setupFoldedSNB(k, x, root, px, r), nil
		case "sna":
			return setupFoldedSNA(k, x, root, px, r)
		}
		return setupFoldedGather(k, x, root, task == "sns", px, r)
	case "mnb":
		split, err := boolParam(params, "task.split", false)
		if err != nil {
			return nil, err
		}
		if split {
			if d > MaxSplitD {
				return nil, inputerr.New("topology.d", d, "an integer from 2 to %d for mnb with task.split=true (N²(d+1) part copies)", MaxSplitD)
			}
			r.Params = []string{"task.split=true"}
			return setupFoldedMNBSplit(k, x, px, r), nil
		}
		return setupFoldedPMNB(k, x, n, true, 0, seed, px, r), nil
	case "pmnb", "pmna":
		m, err := intParam(params, "task.m", n/2, 1, n)
		if err != nil {
			return nil, err
		}
		tp, err := intParam(params, "task.tp", 0, 0, maxTp)
		if err != nil {
			return nil, err
		}
		r.Params = []string{fmt.Sprintf("task.m=%d", m)}
		if _, ok := params["task.tp"]; ok {
			r.Params = append(r.Params, fmt.Sprintf("task.tp=%d", tp))
		}
		if task == "pmna" {
			return setupFoldedPMNA(k, x, m, tp, seed, px, r)
		}
		return setupFoldedPMNB(k, x, m, false, tp, seed, px, r), nil
	}
	return nil, fmt.Errorf("folded-cube task %q has no setup (d=%d)", task, d)
}

// boolParam is task.* key's true/false value, or def when unset.
func boolParam(params map[string]string, key string, def bool) (bool, error) {
	switch v, ok := params[key]; {
	case !ok:
		return def, nil
	case v == "true" || v == "1" || v == "yes":
		return true, nil
	case v == "false" || v == "0" || v == "no":
		return false, nil
	default:
		return false, inputerr.New(key, v, "true or false")
	}
}

// foldedTE is the seed's optimal folded-cube TE time 2^{d−1} − ½·C(d,⌈d/2⌉)
// (thesis §7.4, paper §4; digest 000b §4.14(g), §5.4).
func foldedTE(d int) float64 {
	return float64(int(1)<<(d-1)) - float64(binom(d, (d+1)/2))/2
}
