package traffic

import "math/rand/v2"

// ClusterMulticast is the name of the cluster multicast traffic pattern.
const ClusterMulticast = "cluster-multicast"

func init() {
	RegisterPattern(PatternSpec{Name: ClusterMulticast, Aliases: []string{"cluster"}, Multicast: true,
		Params: clusterParams,
		Desc:   "terminals in clusters of traffic.cluster (or traffic.cluster_size) nodes placed by traffic.clusters (default base cubes: the high address digits fixed); every node multicasts to the rest of its cluster; traffic.load is the system load, flits per node per cycle × destinations (Chiang 1995 §4.4, Fig 5.12)",
		NewGenerator: func(a PatternArgs) (Generator, error) {
			tasks, err := a.tasks()
			if err != nil {
				return nil, err
			}
			return newClusterMulticast(a.Shape.N, tasks, a.Load, a.Length, a.Rng), nil
		}})
}

// clusterParams are the keys every cluster workload reads.
var clusterParams = []PatternParam{
	{Key: "traffic.cluster", Desc: "nodes per cluster, 0 = all"},
	{Key: "traffic.cluster_size", Desc: "the same, by the name of Chiang's experiments"},
	{Key: "traffic.clusters", Desc: "cube, cube-minus-one or random placement"},
}

// ClusterSizeKeys are the two spellings of the cluster size.
const (
	ClusterKey     = "traffic.cluster"
	ClusterSizeKey = "traffic.cluster_size"
)

// tasks places the clusters a asks for.
func (a PatternArgs) tasks() ([][]int, error) {
	al, err := ParseAllocation(a.Clusters)
	if err != nil {
		return nil, err
	}
	key := a.ClusterKey
	if key == "" {
		key = ClusterKey
	}
	return Allocate(al, a.Shape.N, a.Cluster, key, a.Rng)
}

// NewClusterMulticast returns the multicast workload of Chiang's Ch. 4 and
// Ch. 7 simulations. The n terminals are split into aligned clusters of
// cluster consecutive addresses, [c·⌊i/c⌋, c·⌊i/c⌋ + c) — base cubes when c
// is a power of the radix, or a power of two in a power-of-two network (the
// most significant address digits are the fixed ones, digest §2.5); cluster
// 0 means one cluster of all n. Every terminal independently creates, in
// each cycle with probability p = load / (length.Mean() · (c − 1)), a
// message to the other c − 1 members of its cluster (so load is Chiang's
// system load: flits entering per node per cycle times the destinations,
// i.e. the flits expected per ejection port per cycle). The arrivals are
// the Bernoulli process of NewBernoulli at rate p (geometric gaps at the
// loads of these studies, which is the discrete-time Poisson process).
//
// Messages are handed to e.EmitMulticast when e is a MulticastEmitter; a
// plain Emitter gets one unicast to the first destination.
//
// Errors are *inputerr.Error with Key "traffic.cluster".
func NewClusterMulticast(n, cluster int, load float64, length Length, rng *rand.Rand) (Generator, error) {
	tasks, err := Allocate(AllocCube, n, cluster, ClusterKey, rng)
	if err != nil {
		return nil, err
	}
	return newClusterMulticast(n, tasks, load, length, rng), nil
}

// newClusterMulticast is NewClusterMulticast on clusters already placed
// (all of one size).
func newClusterMulticast(n int, tasks [][]int, load float64, length Length, rng *rand.Rand) Generator {
	g := &clusterGen{}
	g.dests, _ = taskDests(n, tasks)
	g.b = newBernoulli(n, load/float64(len(tasks[0])-1), length, self{}, rng, 0)
	return g
}

type clusterGen struct {
	b     *bernoulli
	dests [][]int
	ad    clusterEmit
}

func (g *clusterGen) NextAt(now int64) int64 { return g.b.NextAt(now) }

func (g *clusterGen) Generate(now int64, e Emitter) {
	g.ad.e, g.ad.dests = e, g.dests
	g.b.Generate(now, &g.ad)
	g.ad.e = nil
}

// clusterEmit turns the Bernoulli process's packets into cluster multicasts.
type clusterEmit struct {
	e     Emitter
	dests [][]int
}

func (a *clusterEmit) Emit(src, _, flits int) {
	if me, ok := a.e.(MulticastEmitter); ok {
		me.EmitMulticast(src, a.dests[src], flits)
		return
	}
	a.e.Emit(src, a.dests[src][0], flits)
}

// self is the pattern of the arrival process under a cluster multicast: the
// destinations are fixed by the cluster, so it draws nothing.
type self struct{}

func (self) Name() string                   { return ClusterMulticast }
func (self) Dest(src int, _ *rand.Rand) int { return src }
