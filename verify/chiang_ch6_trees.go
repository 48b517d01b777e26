package verify

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/network/esmintree"
	"github.com/flitsim/flitsim/network/topology"
)

// Chiang 1995 Ch. 6, the tree algorithms themselves: Lemma 14's path count
// on the built network, Fig 6.6's LB marking read off the simulator's LB
// routes, Fig 6.7's blocking RB assignments and LB's optimality against a
// brute force, the last two by the code of flitsim multicast-tree.

func init() {
	Register(Claim{
		ID:        "chiang-lemma14-paths",
		Source:    "Chiang 1995 §6.3.3, Lemma 14",
		Claim:     "an ESMIN with m extra stages has 2^m paths between every pair (counted on the built network's links): CU-ESMIN(8:1,2,1,2,0), CU-ESMIN(16:1,2,3,3,1,1,0), Table 6.1 pattern 1",
		Published: "4 / 8 / 32",
		Tolerance: "exact, every pair",
		Measure:   measureLemma14,
	})
	Register(Claim{
		ID:        "chiang-fig6.6-lb-marking",
		Source:    "Chiang 1995 §6.4.1, Fig 6.6",
		Claim:     "LB on CU-ESMIN(16:1,2,3,3,1,1,0) leaves the non-latest stage of each dimension straight (null): the marking read off the simulator's LB routes of all 256 pairs",
		Published: "(null,2,null,3,null,1,0)",
		Tolerance: "exact",
		Measure:   measureLBMarking,
	})
	Register(Claim{
		ID:     "chiang-fig6.7-rb-blocking",
		Source: "Chiang 1995 §6.4.3, Fig 6.7 (count: digest §5.1)",
		Claim: "RB on CU-ESMIN(8:2,1,2,2,0), source 0, D = {6, 7}: tag assignments that block (every assignment, " +
			"as flitsim multicast-tree enumerates them); of 64 simulated RB multicasts about as many block (blocked_multicasts)",
		Published: "4 of 16",
		Tolerance: "exact; simulated: 6 to 26 of 64 (3 σ around 16)",
		Measure:   measureRBBlocking,
	})
	Register(Claim{
		ID:        "chiang-lb-optimal",
		Source:    "Chiang 1995 §6.4.2, Theorem 6 (300 cases: digest §5.1)",
		Claim:     "LB's tree has the fewest channels of every tree (brute force over every path assignment) on 300 random small ESMINs, and the OMT search finds every optimal tree",
		Published: "300 of 300",
		Tolerance: "exact",
		Measure:   measureLBOptimal,
	})
}

// measureLemma14 counts the source-to-destination paths of every pair on
// the links of the built network (depth-first, memoised per switch).
func measureLemma14() (string, bool, error) {
	var got []string
	ok := true
	for _, c := range []struct {
		dims string
		want int
	}{{"1,2,1,2,0", 4}, {"1,2,3,3,1,1,0", 8}, {table61[0] + ",0", 32}} {
		t, err := topology.Build(topology.Spec{Kind: "esmin", Dims: parseInts(c.dims), Routing: "destination-tag"})
		if err != nil {
			return "", false, err
		}
		lo, hi := 1<<30, 0
		for d := range t.Terminals() {
			memo := make([]int, len(t.Switches))
			for i := range memo {
				memo[i] = -1
			}
			for s := range t.Terminals() {
				n := countPaths(t, int(t.InSwitch[s]), int32(d), memo)
				lo, hi = min(lo, n), max(hi, n)
			}
		}
		got = append(got, fmt.Sprint(lo))
		if lo != hi {
			got[len(got)-1] = fmt.Sprintf("%d–%d", lo, hi)
		}
		ok = ok && lo == c.want && hi == c.want
	}
	return strings.Join(got, " / "), ok, nil
}

// countPaths is the number of link paths from switch sw to terminal d.
func countPaths(t *topology.Topology, sw int, d int32, memo []int) int {
	if memo[sw] >= 0 {
		return memo[sw]
	}
	n := 0
	for _, e := range t.Switches[sw].Out {
		switch {
		case e.ToTerminal():
			if e.Terminal == d {
				n++
			}
		case e.Connected():
			n += countPaths(t, int(e.Switch), d, memo)
		}
	}
	memo[sw] = n
	return n
}

// measureLBMarking traces the LB router's route of every pair and marks a
// stage null when every route crosses it straight (the port is the input
// address's bit of the stage's dimension, so the row is kept).
func measureLBMarking() (string, bool, error) {
	dims := parseInts("1,2,3,3,1,1,0")
	t, err := topology.Build(topology.Spec{Kind: "esmin", Dims: dims, Routing: "destination-tag", Tree: "lb"})
	if err != nil {
		return "", false, err
	}
	half := t.Terminals() / 2
	turned := make([]bool, len(dims))
	for s := range t.Terminals() {
		for d := range t.Terminals() {
			hops, err := topology.Trace(t, &flit.Worm{Src: int32(s), Dst: int32(d)})
			if err != nil {
				return "", false, err
			}
			for _, h := range hops {
				i := h.Switch / half
				x := 2*(h.Switch%half) + h.In
				turned[i] = turned[i] || h.Out != x>>dims[i]&1
			}
		}
	}
	mark := make([]string, len(dims))
	for i, c := range dims {
		mark[i] = fmt.Sprint(c)
		if !turned[i] && c != 0 {
			mark[i] = "null"
		}
	}
	m := "(" + strings.Join(mark, ",") + ")"
	return m, m == "(null,2,null,3,null,1,0)", nil
}

// measureRBBlocking counts the blocking assignments of Fig 6.7 and how many
// of 64 simulated RB worms are refused as blocking.
func measureRBBlocking() (string, bool, error) {
	net, err := esmintree.New(parseInts("2,1,2,2,0"))
	if err != nil {
		return "", false, err
	}
	all, blocked := 0, 0
	err = net.Assignments(0, []int{6, 7}, 1<<10, func(_ []uint64, t esmintree.Tree) {
		all++
		if t.Blocked {
			blocked++
		}
	})
	if err != nil {
		return "", false, err
	}
	sets := make([][]int, 64)
	for i := range sets {
		sets[i] = []int{6, 7}
	}
	r, err := esminRunSets("2,1,2,2,0", "rb", 1, sets)
	if err != nil {
		return "", false, err
	}
	refused := *r.BlockedMulticasts
	m := fmt.Sprintf("%d of %d; simulated %d of 64 blocked (dropped at the source)", blocked, all, refused)
	return m, blocked == 4 && all == 16 && refused >= 6 && refused <= 26, nil
}

// measureLBOptimal compares LB with the brute-force optimum, and the OMT
// search's count with the brute force's, on 300 random small cases.
func measureLBOptimal() (string, bool, error) {
	rng := rand.New(rand.NewPCG(1995, 6))
	good := 0
	for range 300 {
		dims, src, dests := esmintree.RandomCase(rng)
		net, err := esmintree.New(dims)
		if err != nil {
			return "", false, err
		}
		best, count := 1<<30, 0
		err = net.Assignments(src, dests, 1<<12, func(_ []uint64, t esmintree.Tree) {
			switch {
			case t.Blocked:
			case t.Channels < best:
				best, count = t.Channels, 1
			case t.Channels == best:
				count++
			}
		})
		if err != nil {
			return "", false, err
		}
		trees, err := net.Optimal(src, dests, 1<<12)
		if err != nil {
			return "", false, err
		}
		if lb := net.Build(esmintree.LB, 0, src, dests); !lb.Blocked && lb.Channels == best && len(trees) == count {
			good++
		}
	}
	return fmt.Sprintf("%d of 300", good), good == 300, nil
}
