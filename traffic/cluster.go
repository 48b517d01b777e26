package traffic

import (
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/flitsim/flitsim/configs/inputerr"
)

// ClusterMulticast is the name of the cluster multicast traffic pattern.
const ClusterMulticast = "cluster-multicast"

func init() {
	RegisterPattern(PatternSpec{Name: ClusterMulticast, Aliases: []string{"cluster"}, Multicast: true,
		Params: []PatternParam{{Key: "traffic.cluster", Desc: "nodes per cluster, 0 = all"}},
		Desc:   "terminals in aligned clusters of traffic.cluster nodes (base cubes: the high address digits fixed); each multicasts to the rest of its cluster; traffic.load is the system load, flits per node per cycle × destinations (Chiang 1995 §4.4)",
		NewGenerator: func(a PatternArgs) (Generator, error) {
			return NewClusterMulticast(a.Shape.N, a.Cluster, a.Load, a.Length, a.Rng)
		}})
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
	c := cluster
	if c == 0 {
		c = n
	}
	if c < 2 || c > n || n%c != 0 {
		return nil, &inputerr.Error{Key: "traffic.cluster", Value: strconv.Itoa(cluster),
			Allowed: fmt.Sprintf("a cluster size from 2 to %d that divides the %d terminals, or 0 for all", n, n)}
	}
	g := &clusterGen{dests: make([][]int, n)}
	for i := range n {
		base := i - i%c
		for d := base; d < base+c; d++ {
			if d != i {
				g.dests[i] = append(g.dests[i], d)
			}
		}
	}
	g.b = newBernoulli(n, load/float64(c-1), length, self{}, rng, 0)
	return g, nil
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
