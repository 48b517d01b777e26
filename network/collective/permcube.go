package collective

import (
	"fmt"
	"math/bits"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network/topology"
)

// Total exchange on the permutation cube P_d (Varvarigos 1992 §7.3, digest
// 000b §4.13): every node has exactly one in-link and one out-link per
// dimension, so a symmetric schedule works as on the hypercube. A packet
// follows its normal path (always the link of the most significant bit
// where the current node and the destination differ); its normal relative
// address (bit i: the path uses an i-link) is the row of the task matrix,
// and the rows are the same at every node — all d-bit numbers (Lemma 1).
// The "reasonable" schedule: in every slot each dimension j takes a row
// whose remaining address has its most significant 1 at j (entries are
// cleared from high to low dimensions, so the packet stays on its normal
// path), the heaviest such row first; no link is idle while a packet at
// its node wants it. Lemma 2: at most N slots; the critical sum N/2 is the
// lower bound.

func init() {
	registerFamily("permutation-cube", &family{keys: map[string][]string{"te": nil}, run: runPermCube})
}

func runPermCube(spec topology.Spec, task string, params map[string]string, seed uint64, o *Options) (*Result, error) {
	if spec.D > MaxFoldedD {
		return nil, inputerr.New("topology.d", spec.D, "an integer from 1 to %d for a permutation-cube collective (a node keeps a slot per other node)", MaxFoldedD)
	}
	return runNet(spec, task, seed, o, func(k *kernel.Kernel, g *Net, px *proxy, r *Result) (*checker, error) {
		d := bits.TrailingZeros(uint(g.N))
		x, err := newDims(g, d, d, func(v, j int) int { return int(g.Nbr[v][j]) })
		if err != nil {
			return nil, err
		}
		r.D, x.spec = d, spec
		return setupPermTE(k, x, px, r), nil
	})
}

func setupPermTE(k *kernel.Kernel, x *dims, px *proxy, r *Result) *checker {
	d, n := x.d, x.n
	tags := make([]uint32, n-1)
	for i := range tags {
		tags[i] = uint32(i + 1)
	}
	msb := func(t uint32) int { return 31 - bits.LeadingZeros32(t) }
	steps := greedySteps(tags, d, func(rest uint32, j int) bool { return msb(rest) == j })
	ck := newChecker(n)
	expectTE(ck, n)
	s := newXrowSched(x, len(tags), steps, ck)
	s.load(k, func(v, i int) int { // the normal path of address tags[i] from v
		for t := tags[i]; t != 0; t &^= 1 << msb(t) {
			v = int(x.nbr[v*x.D+msb(t)])
		}
		return v
	})
	px.SlotScheduler, px.limit = s, int64(len(steps))+1
	r.Packets = int64(n * (n - 1))
	r.Formula, r.FormulaText = nil, "none: at most N (Lemma 2, §7.3); whether N/2 is always reached is open"
	u := float64(n)
	r.UpperBound, r.UpperText = &u, "N (Lemma 2: any reasonable schedule, §7.3)"
	r.LowerBound, r.LowerText = float64(n/2), "N/2: Theorem 1, the critical sum (each column of the task matrix sums to N/2)"
	r.Reading = fmt.Sprintf("symmetric reasonable schedule: rows are the normal relative addresses 1..N−1 (Lemma 1), entries cleared from the most significant; each slot every dimension takes the heaviest row whose leading 1 it is; member drawn from run.seed (topology.symmetric=%v)", x.spec.Symmetric)
	return ck
}
