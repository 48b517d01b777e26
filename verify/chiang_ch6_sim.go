package verify

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/network/esmintree"
)

// Figs 6.8–6.12 on the simulated ESMIN: one-flit multicasts from node 0 to
// random destination sets, routed by multicast.tree, the channels that
// carried them summed (run.channels) and the blocked RB trees counted
// (blocked_multicasts), against the trees esmintree builds for the same
// sets.

// simSets is how many random sets the simulated subset sends per algorithm.
const simSets = 40

func init() {
	Register(Claim{
		ID:     "chiang-fig6.8-6.12-simulated",
		Source: "Chiang 1995 §6.5 (T, B as Figs 6.8–6.12 define them)",
		Claim: fmt.Sprintf("the simulated CU-ESMIN(64:10), Table 6.1 patterns 1 and 2, carries %d one-flit multicasts from node 0 to "+
			"random sets of 10 destinations per algorithm: channels used (T) and RB's blocked multicasts (B) as the trees say", simSets),
		Published: "T: LB, FB exactly the trees' channels; RM, RB's B: the trees' expectation",
		Tolerance: "LB, FB exact; RM's mean T and RB's blocked count within 3 σ of the trees' mean over 64 draws per set",
		Measure:   measureSimulatedStudy,
	})
}

// esminRunSets sends one one-flit multicast from node 0 to each of sets,
// 64 cycles apart, on CU-ESMIN(dims) routed by alg.
func esminRunSets(dims, alg string, seed uint64, sets [][]int) (*network.Result, error) {
	c := esminTreeConfig(dims, alg, seed)
	c.Traffic.Packets = nil
	for i, d := range sets {
		c.Traffic.Packets = append(c.Traffic.Packets, fmt.Sprintf("%d,0,%s,1", 64*i, strings.Trim(fmt.Sprint(d), "[]")))
	}
	r, err := simulate(c)
	if err != nil {
		return nil, err
	}
	blocked := int64(0)
	if r.BlockedMulticasts != nil {
		blocked = *r.BlockedMulticasts
	}
	if r.DeliveredPackets+blocked != int64(len(sets)) || r.Deadlock != nil || r.Stall != nil || r.Violations.Total() > 0 {
		return nil, fmt.Errorf("CU-ESMIN(%s) %s: %d delivered + %d blocked of %d multicasts: %w", dims, alg, r.DeliveredPackets, blocked, len(sets), ErrShortfall)
	}
	return r, nil
}

// flitChannels sums the flits every channel carried: the channels of all
// trees together when each multicast is one flit.
func flitChannels(r *network.Result) int {
	n := 0
	for _, ch := range r.Channels {
		n += int(ch.Flits)
	}
	return n
}

// treeExpect is the trees' total channels over sets (the mean over draws
// for RM) and the expected RB blocked count with its standard deviation.
func treeExpect(net *esmintree.Net, alg esmintree.Alg, sets [][]int) (chans, sd float64) {
	draws := 1
	if alg == esmintree.RM || alg == esmintree.RB {
		draws = 64
	}
	var v float64
	for _, d := range sets {
		var s, sq float64
		for aux := range uint64(draws) {
			x := float64(net.Build(alg, aux*0x9e3779b97f4a7c15+1, 0, d).Channels)
			if alg == esmintree.RB {
				x = 0
				if net.Build(alg, aux*0x9e3779b97f4a7c15+1, 0, d).Blocked {
					x = 1
				}
			}
			s, sq = s+x, sq+x*x
		}
		m := s / float64(draws)
		chans, v = chans+m, v+sq/float64(draws)-m*m
	}
	return chans, math.Sqrt(v)
}

// measureSimulatedStudy runs the subset and compares it with the trees.
func measureSimulatedStudy() (string, bool, error) {
	ok := true
	var got []string
	for _, p := range []int{0, 1} {
		dims := table61[p] + ",0"
		net, err := esmintree.New(parseInts(dims))
		if err != nil {
			return "", false, err
		}
		rng := rand.New(rand.NewPCG(1995, 68))
		sets := make([][]int, simSets)
		for i := range sets {
			sets[i] = esmintree.RandomDests(rng, 64, 10)
		}
		for _, alg := range []esmintree.Alg{esmintree.LB, esmintree.FB, esmintree.RM, esmintree.RB} {
			r, err := esminRunSets(dims, alg.String(), 6, sets)
			if err != nil {
				return "", false, err
			}
			want, sd := treeExpect(net, alg, sets)
			sim := float64(flitChannels(r))
			if alg == esmintree.RB {
				sim = float64(*r.BlockedMulticasts)
			}
			good := sim == want
			if alg == esmintree.RM || alg == esmintree.RB {
				good = math.Abs(sim-want) <= 3*sd
			}
			ok = ok && good
			what := "T"
			if alg == esmintree.RB {
				what = "blocked"
			}
			got = append(got, fmt.Sprintf("p%d %s %s %.0f (trees %.1f)", p+1, alg, what, sim, want))
		}
	}
	return strings.Join(got, "; "), ok, nil
}
