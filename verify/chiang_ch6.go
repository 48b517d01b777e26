package verify

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/network/esmintree"
)

// Chiang 1995 Ch. 6: multicast trees in extra-stage cube MINs (CU-ESMIN,
// topology.kind esmin), measured as the channels that carried a flit of a
// one-flit multicast (run.channels: the source's injection link and every
// switch output, ejection links included, the digest's count).

// table61 lists Table 6.1's stage dimensions, leftmost first; the final
// dimension-0 stage is implied (digest §5.5: 11 stages, m = 5).
var table61 = [6]string{
	"5,4,3,2,1,5,4,3,2,1", "1,1,2,2,3,3,4,4,5,5", "5,5,4,4,3,3,2,2,1,1",
	"1,2,3,4,5,5,4,3,2,1", "1,2,3,4,5,5,5,5,5,5", "1,2,3,4,5,1,1,1,1,1",
}

// esminAlg is one routing algorithm of Table 6.1 and its published
// broadcast channel counts, patterns 1–6.
type esminAlg struct {
	id, tree, name string
	published      [6]int
}

// esminFig is one of the Figs 6.4/6.5 examples: its stage dimensions and the
// published channel count and number of optimal multicast trees.
type esminFig struct {
	fig, dims  string
	chans, omt int
}

func init() {
	for _, alg := range []esminAlg{
		{"lb", "lb", "Latest Branch (LB: each destination bit decided at the last stage of its dimension, straight elsewhere)",
			[6]int{132, 158, 158, 132, 207, 192}},
		{"fb", "fb", "First Branch (FB: decided at the first stage of its dimension)",
			[6]int{287, 189, 189, 287, 287, 287}},
	} {
		Register(Claim{
			ID:     "chiang-table6.1-" + alg.id + "-broadcast",
			Source: "Chiang 1995 §6.5, Table 6.1; counts from digest §5.1 (derived, the thesis plots them in its lost Figs 6.8/6.9)",
			Claim: "CU-ESMIN(64) with the 6 dimension patterns of Table 6.1 (+ final stage 0), a broadcast from node 0 to all 64 " +
				"nodes routed by " + alg.name + ": channels carrying a copy, patterns 1–6",
			Published: slash(alg.published[:]),
			Tolerance: "exact, every pattern",
			Measure:   func() (string, bool, error) { return measureESMINBroadcast(alg) },
		})
	}
	Register(Claim{
		ID:     "chiang-table6.1-lb-first-stages",
		Source: "Chiang 1995 §6.5.3",
		Claim: "\"for patterns 1 and 4, the LB only uses 6 channels in the first 5 stages\" (a broadcast from node 0: the " +
			"injection link and the outputs of the first 5 stages)",
		Published: "6 / 6",
		Tolerance: "exact",
		Measure:   measureLBFirstStages,
	})
	for _, f := range []esminFig{{"6.4", "1,2,1,2,0", 9, 4}, {"6.5", "1,1,2,2,0", 10, 8}} {
		Register(Claim{
			ID:     "chiang-fig" + f.fig + "-omt",
			Source: "Chiang 1995 §6.3.4, Fig " + f.fig + " (channel count: digest §5.1, from the lost figure)",
			Claim: "CU-ESMIN(8:" + f.dims + "), source 0, destinations {1, 3}: the optimal multicast trees use " +
				fmt.Sprint(f.chans) + " channels; there are " + fmt.Sprint(f.omt) + " of them (flitsim multicast-tree --algorithm omt), " +
				"and the simulated LB worm uses one",
			Published: fmt.Sprintf("%d channels, %d optimal trees", f.chans, f.omt),
			Tolerance: "exact",
			Measure:   func() (string, bool, error) { return measureOptimalTrees(f) },
		})
	}
}

// allNodes64 lists the 64 nodes of the Table 6.1 network, the broadcast's
// destinations.
func allNodes64() []int {
	all := make([]int, 64)
	for i := range all {
		all[i] = i
	}
	return all
}

// measureESMINBroadcast counts the channels a broadcast from node 0 uses
// under alg on each of the six Table 6.1 patterns.
func measureESMINBroadcast(alg esminAlg) (string, bool, error) {
	all := allNodes64()
	got := make([]int, 6)
	for p, dims := range table61 {
		used, err := treeChannels(dims+",0", alg.tree, 0, all)
		if err != nil {
			return "", false, err
		}
		got[p] = len(used)
	}
	return slash(got), slices.Equal(got, alg.published[:]), nil
}

// measureLBFirstStages counts the channels LB's broadcast uses up to the
// fifth stage on patterns 1 and 4.
func measureLBFirstStages() (string, bool, error) {
	all := allNodes64()
	var got []int
	for _, p := range []int{0, 3} {
		used, err := treeChannels(table61[p]+",0", "lb", 0, all)
		if err != nil {
			return "", false, err
		}
		n := 0
		for _, ch := range used {
			var g int
			if _, err := fmt.Sscanf(ch, "s%d,", &g); err != nil || g >= 6 { // stages G_10…G_6
				n++
			}
		}
		got = append(got, n)
	}
	return slash(got), slices.Equal(got, []int{6, 6}), nil
}

// measureOptimalTrees enumerates the optimal multicast trees of f's network
// by the code of flitsim multicast-tree --algorithm omt, and checks that the
// simulated LB worm uses that few channels.
func measureOptimalTrees(f esminFig) (string, bool, error) {
	lb, err := treeChannels(f.dims, "lb", 0, []int{1, 3})
	if err != nil {
		return "", false, err
	}
	net, err := esmintree.New(parseInts(f.dims))
	if err != nil {
		return "", false, err
	}
	trees, err := net.Optimal(0, []int{1, 3}, 1000)
	if err != nil {
		return "", false, err
	}
	ok := len(trees) == f.omt && len(lb) == f.chans
	for _, t := range trees {
		ok = ok && t.Channels == f.chans
	}
	m := fmt.Sprintf("%d channels, %d optimal trees; simulated LB worm %d channels", trees[0].Channels, len(trees), len(lb))
	return m, ok, nil
}

// treeChannels runs one one-flit multicast from src to dests on the
// CU-ESMIN(dims) routed by multicast.tree alg and returns the channels that
// carried it, sorted.
func treeChannels(dims, alg string, src int, dests []int) ([]string, error) {
	return treeChannelsSeed(dims, alg, 1, src, dests)
}

// esminTreeConfig is CU-ESMIN(dims) with multicast trees by alg, run.seed
// seed, one-flit output buffers and every channel's use recorded.
func esminTreeConfig(dims, alg string, seed uint64) network.Config {
	c := network.Default()
	c.Run.Seed = seed
	c.Topology = network.TopologyConfig{Kind: "esmin", Dims: parseInts(dims)}
	c.Multicast.Tree = alg
	c.Buffers = network.BufferConfig{Output: 1}
	c.Run.Channels = true
	return c
}

// treeChannelsSeed is treeChannels with run.seed seed (RB's, RM's draws).
func treeChannelsSeed(dims, alg string, seed uint64, src int, dests []int) ([]string, error) {
	c := esminTreeConfig(dims, alg, seed)
	ds := make([]string, len(dests))
	for i, x := range dests {
		ds[i] = fmt.Sprint(x)
	}
	c.Traffic.Packets = []string{fmt.Sprintf("0,%d,%s,1", src, strings.Join(ds, " "))}
	r, err := simulate(c)
	if err != nil {
		return nil, err
	}
	if err := delivered(fmt.Sprintf("CU-ESMIN(%s) tree %s", dims, alg), r); err != nil {
		return nil, err
	}
	var used []string
	for _, ch := range r.Channels {
		if ch.Flits > 0 {
			used = append(used, ch.Channel)
		}
	}
	sort.Strings(used)
	return used, nil
}

// parseInts reads a comma-separated list of integers.
func parseInts(list string) network.IntList {
	var d network.IntList
	for _, f := range strings.Split(list, ",") {
		var x int
		fmt.Sscan(f, &x)
		d = append(d, x)
	}
	return d
}
