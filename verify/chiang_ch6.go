package verify

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/flitsim/flitsim/network"
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
	id, path, name string
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
		{"lb", "latest", "Latest Branch (LB: each destination bit decided at the last stage of its dimension, straight elsewhere)",
			[6]int{132, 158, 158, 132, 207, 192}},
		{"fb", "first", "First Branch (FB: decided at the first stage of its dimension)",
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
				fmt.Sprint(f.chans) + " channels; there are " + fmt.Sprint(f.omt) + " of them, and LB builds one",
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
		used, err := treeChannels(dims+",0", alg.path, 0, 0, all)
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
		used, err := treeChannels(table61[p]+",0", "latest", 0, 0, all)
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
// and checks that LB builds one of them.
func measureOptimalTrees(f esminFig) (string, bool, error) {
	lb, err := treeChannels(f.dims, "latest", 0, 0, []int{1, 3})
	if err != nil {
		return "", false, err
	}
	best, count, err := optimalTrees(f.dims, 0, 1, 3)
	if err != nil {
		return "", false, err
	}
	m := fmt.Sprintf("%d channels, %d optimal trees (of every pair of paths to 1 and 3); LB tree %d channels", best, count, len(lb))
	return m, best == f.chans && count == f.omt && len(lb) == f.chans, nil
}

// treeChannels runs one one-flit packet from src to dests on the
// CU-ESMIN(dims) with the given path choice and returns the channels that
// carried it, sorted.
func treeChannels(dims, path string, index, src int, dests []int) ([]string, error) {
	c := network.Default()
	var d network.IntList
	for _, f := range strings.Split(dims, ",") {
		var x int
		fmt.Sscan(f, &x)
		d = append(d, x)
	}
	c.Topology = network.TopologyConfig{Kind: "esmin", Dims: d, Path: path, PathIndex: index}
	c.Buffers = network.BufferConfig{Output: 1}
	c.Run.Channels = true
	ds := make([]string, len(dests))
	for i, x := range dests {
		ds[i] = fmt.Sprint(x)
	}
	c.Traffic.Packets = []string{fmt.Sprintf("0,%d,%s,1", src, strings.Join(ds, " "))}
	r, err := simulate(c)
	if err != nil {
		return nil, err
	}
	if err := delivered(fmt.Sprintf("CU-ESMIN(%s) path %s", dims, path), r); err != nil {
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

// optimalTrees enumerates the multicast trees from src to {a, b}: the
// unions of one of the 2^m paths to a and one to b (run as unicasts with
// topology.path given) that do not meet again once they part, since a
// switch cannot merge two copies. It returns the fewest channels a tree
// uses and how many distinct trees use that few.
func optimalTrees(dims string, src, a, b int) (best, count int, err error) {
	m := strings.Count(dims, ",") + 1 - (1 + maxDigit(dims)) // extra stages
	var pa, pb [][]string
	for q := range 1 << m {
		x, err := treeChannels(dims, "given", q, src, []int{a})
		if err != nil {
			return 0, 0, err
		}
		y, err := treeChannels(dims, "given", q, src, []int{b})
		if err != nil {
			return 0, 0, err
		}
		pa, pb = append(pa, x), append(pb, y)
	}
	trees := map[string]int{}
	for _, x := range pa {
		for _, y := range pb {
			if rejoin(x, y) {
				continue
			}
			u := append(slices.Clone(x), y...)
			slices.Sort(u)
			u = slices.Compact(u)
			trees[strings.Join(u, " ")] = len(u)
		}
	}
	best = 1 << 30
	for _, n := range trees {
		best = min(best, n)
	}
	for _, n := range trees {
		if n == best {
			count++
		}
	}
	return best, count, nil
}

// rejoin reports whether two paths from one source part and then share a
// channel again. Each path holds one channel per stage; a channel "sG,R…"
// belongs to stage G, the injection link comes before every stage.
func rejoin(x, y []string) bool {
	stage := func(p []string) map[int]string {
		s := map[int]string{}
		for _, ch := range p {
			g := 1 << 20 // the injection link
			fmt.Sscanf(ch, "s%d,", &g)
			s[g] = ch
		}
		return s
	}
	sx, sy := stage(x), stage(y)
	var gs []int
	for g := range sx {
		gs = append(gs, g)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(gs))) // injection first, then G_{h−1} … G_0
	parted := false
	for _, g := range gs {
		same := sx[g] == sy[g]
		if parted && same {
			return true
		}
		parted = parted || !same
	}
	return false
}

// maxDigit is the largest number in a comma-separated list.
func maxDigit(list string) int {
	m := 0
	for _, f := range strings.Split(list, ",") {
		var x int
		fmt.Sscan(f, &x)
		m = max(m, x)
	}
	return m
}
