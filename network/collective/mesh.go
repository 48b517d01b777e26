package collective

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network/topology"
)

// The collective tasks of the p-ary d-dimensional array (kind mesh) and
// torus (Varvarigos 1992 §3.2–3.5, digest 000a §2.2–2.3, §5.1–5.10): p =
// topology.k nodes per dimension, d = topology.n dimensions; d = 1 is the
// linear array and the ring.

// MaxMeshNodes is the largest mesh or torus a collective runs on (the
// delivery check keeps a state per node and packet).
const MaxMeshNodes = 1024

func init() {
	common := map[string][]string{
		"mnb": {"task.algorithm"}, "bcast": {"task.packets", "task.algorithm"},
		"packing": {"task.m", "task.sources"}, "monotone": {"task.m", "task.sources", "task.dests"},
		"pmnb": {"task.m", "task.sources", "task.algorithm", "task.tp"},
	}
	mesh := maps2(common)
	mesh["pe"] = []string{"task.m", "task.sources"}
	registerFamily("mesh", &family{keys: mesh, run: func(spec topology.Spec, task string, params map[string]string, seed uint64, o *Options) (*Result, error) {
		return runGrid(spec, false, task, params, seed, o)
	}})
	registerFamily("torus", &family{keys: maps2(common), run: func(spec topology.Spec, task string, params map[string]string, seed uint64, o *Options) (*Result, error) {
		return runGrid(spec, true, task, params, seed, o)
	}})
}

func maps2(m map[string][]string) map[string][]string {
	out := make(map[string][]string, len(m))
	for k, v := range m {
		out[k] = slices.Clone(v)
	}
	return out
}

// grid is a built array or torus by coordinates: node x = Σ x_i p^i.
type grid struct {
	*Net
	p, d, ports int
	torus       bool
	pow         []int
	port        []int32 // (node·d + dim)·2 + dir (0 −, 1 +): the out-port, or −1
	inDD        []int8  // node·ports + in-port: 2·dim + the direction travelled, or −1
}

func (g *grid) pi(node, dim, dir int) int { return (node*g.d+dim)*2 + dir }

func (g *grid) digit(x, dim int) int { return x / g.pow[dim] % g.p }

func newGrid(net *Net, p, d int, torus bool) (*grid, error) {
	g := &grid{Net: net, p: p, d: d, torus: torus, pow: make([]int, d+1)}
	g.pow[0] = 1
	for i := 1; i <= d; i++ {
		g.pow[i] = g.pow[i-1] * p
	}
	if g.pow[d] != net.N {
		return nil, fmt.Errorf("%d-ary %d-dimensional grid has %d nodes, want %d", p, d, net.N, g.pow[d])
	}
	g.ports = len(net.Nbr[0])
	g.port, g.inDD = make([]int32, 2*d*net.N), make([]int8, g.ports*net.N)
	for x := 0; x < net.N; x++ {
		for i := 0; i < d; i++ {
			for dir := 0; dir < 2; dir++ {
				c := g.digit(x, i) + 2*dir - 1
				g.port[g.pi(x, i, dir)] = -1
				if torus {
					c = (c + p) % p
				} else if c < 0 || c >= p {
					continue
				}
				y := x + (c-g.digit(x, i))*g.pow[i]
				if g.port[g.pi(x, i, dir)] = net.Port(x, y); g.port[g.pi(x, i, dir)] < 0 {
					return nil, fmt.Errorf("grid nodes %d and %d are not linked", x, y)
				}
			}
		}
		for in, from := range net.In[x] {
			g.inDD[x*g.ports+in] = -1
			for i := 0; i < d && from >= 0; i++ {
				if g.digit(int(from), i) != g.digit(x, i) {
					up := g.digit(int(from), i)+1 == g.digit(x, i) || torus && g.digit(x, i) == 0 && g.digit(int(from), i) == p-1
					g.inDD[x*g.ports+in] = int8(2*i + b2n(up))
				}
			}
		}
	}
	return g, nil
}

// dist is the hop distance between nodes a and b in the built grid.
func (g *grid) dist(a, b int) int {
	h := 0
	for i := 0; i < g.d; i++ {
		x := abs(g.digit(a, i) - g.digit(b, i))
		if g.torus {
			x = min(x, g.p-x)
		}
		h += x
	}
	return h
}

// runGrid checks the array or torus of spec and carries out task on it.
func runGrid(spec topology.Spec, torus bool, task string, params map[string]string, seed uint64, o *Options) (*Result, error) {
	p, d := spec.K, spec.N
	if err := gridSpecErr(spec, torus); err != nil {
		return nil, err
	}
	var sched *meshSched
	r, err := runNet(spec, task, seed, o, func(k *kernel.Kernel, net *Net, px *proxy, r *Result) (*checker, error) {
		g, err := newGrid(net, p, d, torus)
		if err != nil {
			return nil, err
		}
		r.D = d
		if task == "pe" {
			_, ck, err := setupMeshPE(k, g, params, seed, px, r)
			return ck, err
		}
		var ck *checker
		sched, ck, err = setupGrid(k, g, task, params, seed, px, r)
		return ck, err
	})
	if err != nil {
		return nil, err
	}
	if sched != nil && sched.pre != nil {
		if err := sched.pre.check(); err != nil {
			return nil, err
		}
	}
	if sched != nil {
		if over, held := sched.overrun(); over > 0 {
			return nil, fmt.Errorf("collective %s: %d packet(s) still travelling when their broadcast subphase ended", task, over)
		} else if task == "packing" || task == "monotone" {
			r.MaxAtNode = held
		}
	}
	return r, nil
}

// gridSpecErr checks that spec is an array or torus a collective runs on.
func gridSpecErr(spec topology.Spec, torus bool) error {
	p, d := spec.K, spec.N
	if spec.Rectangular() {
		return inputerr.New("topology.k", spec.Sides.String(), "a single integer for a collective (the array and torus schedules rotate dimensions into each other, so every side must be equal)")
	}
	if torus && p < 3 {
		return inputerr.New("topology.k", p, "at least 3 on a torus for a collective (k = 2 makes the two links of a ring parallel)")
	}
	if n := ipow(p, d); n > MaxMeshNodes || n < 0 {
		return inputerr.New("topology.n", d, "at most k^n = %d nodes for a collective (k = %d)", MaxMeshNodes, p)
	}
	return nil
}

func ipow(p, d int) int {
	n := 1
	for range d {
		if n > MaxMeshNodes {
			return -1
		}
		n *= p
	}
	return n
}

// nodeList reads task key's comma-separated distinct node labels (0..n−1).
func nodeList(params map[string]string, key string, n int) ([]int, bool, error) {
	v, ok := params[key]
	if !ok {
		return nil, false, nil
	}
	bad := inputerr.New(key, v, "distinct node labels from 0 to %d, comma-separated", n-1)
	var out []int
	seen := map[int]bool{}
	for _, f := range strings.Split(strings.Trim(strings.TrimSpace(v), "[]"), ",") {
		x, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || x < 0 || x >= n || seen[x] {
			return nil, true, bad
		}
		seen[x] = true
		out = append(out, x)
	}
	if len(out) == 0 {
		return nil, true, bad
	}
	slices.Sort(out)
	return out, true, nil
}

// activeNodes is the task's active (source) nodes, sorted: task.sources,
// or task.m nodes drawn from seed (default n/2).
func activeNodes(params map[string]string, key string, n int, seed, stream uint64) ([]int, error) {
	list, given, err := nodeList(params, key, n)
	if err != nil {
		return nil, err
	}
	if given {
		if v, ok := params["task.m"]; ok && strings.TrimSpace(v) != strconv.Itoa(len(list)) {
			return nil, inputerr.New("task.m", v, "%d (the number of nodes in %s) or unset", len(list), key)
		}
		return list, nil
	}
	m, err := intParam(params, "task.m", max(1, n/2), 1, n)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, stream))
	out := rng.Perm(n)[:m]
	slices.Sort(out)
	return out, nil
}

// meshEnqueue puts logical packet key (Aux) at node src's terminal: the one
// place the mesh schedules touch the packet store.
func meshEnqueue(k *kernel.Kernel, g *grid, src, key int) int32 {
	wi := k.EnqueueScheduled(g.Term[src], g.Term[src], uint64(key))
	return wi
}
