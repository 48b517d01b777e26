package verify

import (
	"fmt"
	"slices"
	"strings"

	"github.com/flitsim/flitsim/network/topology"
)

// Chiang 1995 ch. 5 (Figs 5.3–5.8), §7.5 (Fig 7.5) and §4.4 (Fig 4.10):
// the channels a cluster of terminals uses at each connection of a MIN and
// the channels two clusters share, measured by `flitsim channels`' code
// (topology.PartitionChannels: every route between two members traced
// through the built network's routing function). The figures themselves
// did not survive the OCR; the text states the findings, and the digest
// (§5.1 Tier A item 2) rebuilt the counts the rows compare with.

// partition measures masks on a kind with k×k switches and n stages.
func partition(kind string, k, n int, masks string) (*topology.Topology, *topology.Partition, error) {
	t, err := topology.Build(topology.Spec{Kind: kind, K: k, N: n})
	if err != nil {
		return nil, nil, err
	}
	p, err := topology.PartitionChannels(t, strings.Split(masks, ","), nil)
	return t, p, err
}

// counts writes each cluster's channel counts, "x0xx [8 4 4 8], …".
func counts(p *topology.Partition) string {
	var s []string
	for _, u := range p.Uses {
		s = append(s, fmt.Sprintf("%s %v", u.Cluster.Mask, u.Counts()))
	}
	return strings.Join(s, ", ")
}

// sharedText writes the shared channels, "xxx0 & xxx1: 16 at C_2, …".
func sharedText(p *topology.Partition) string {
	if len(p.Shared) == 0 {
		return "no channel shared"
	}
	var s []string
	for _, x := range p.Shared {
		s = append(s, fmt.Sprintf("%s & %s: %d at C_%d", p.Uses[x.A].Cluster.Mask, p.Uses[x.B].Cluster.Mask,
			len(x.Channels), p.Layout.Stages-1-x.J))
	}
	return strings.Join(s, ", ")
}

// exactCounts is a row's measure: the clusters' counts equal want (one
// list per cluster, C_{n−1} first) and the shared channels are as
// sharedOK says.
func exactCounts(kind string, k, n int, masks string, want [][]int, sharedOK func(*topology.Partition) bool) func() (string, bool, error) {
	return func() (string, bool, error) {
		_, p, err := partition(kind, k, n, masks)
		if err != nil {
			return "", false, err
		}
		ok := len(p.Uses) == len(want) && sharedOK(p)
		for i, u := range p.Uses {
			ok = ok && i < len(want) && slices.Equal(u.Counts(), want[i])
		}
		return counts(p) + "; " + sharedText(p), ok, nil
	}
}

func noneShared(p *topology.Partition) bool { return len(p.Shared) == 0 }

// sharedAt: exactly the two clusters share all of `all` channels at each
// of the connections C_i, i in at, and nothing elsewhere.
func sharedAt(all int, at ...int) func(*topology.Partition) bool {
	return func(p *topology.Partition) bool {
		var got []int
		for _, x := range p.Shared {
			if len(x.Channels) != all {
				return false
			}
			got = append(got, p.Layout.Stages-1-x.J)
		}
		return slices.Equal(got, at)
	}
}

// channelBalanced is a cluster list whose every cluster uses as many channels as
// it has members at each of n connections (Lemmas 8, 9, 12, 13).
func channelBalanced(n int, sizes ...int) [][]int {
	var out [][]int
	for _, s := range sizes {
		c := make([]int, n)
		for i := range c {
			c[i] = s
		}
		out = append(out, c)
	}
	return out
}

func init() {
	for _, c := range []struct {
		id, source, claim, published string
		measure                      func() (string, bool, error)
	}{
		{"chiang-fig5.3", "Chiang 1995 §5.3, Fig 5.3",
			"16-node cube MIN of 4×4 switches: the binary cube clusters x0xx, 01xx, 11x0, 11x1 are contention-free and channel-balanced",
			"8, 4, 2, 2 channels at C_1 and C_0; none shared",
			exactCounts("cube", 4, 2, "x0xx,01xx,11x0,11x1", channelBalanced(2, 8, 4, 2, 2), noneShared)},
		{"chiang-fig5.4-cube", "Chiang 1995 §5.3, Fig 5.4(a)",
			"8-node cube MIN (2×2): clusters XX0, 0X1, 1X1 are contention-free and channel-balanced",
			"4, 2, 2 channels at every connection; none shared",
			exactCounts("cube", 2, 3, "xx0,0x1,1x1", channelBalanced(3, 4, 2, 2), noneShared)},
		{"chiang-fig5.4-omega", "Chiang 1995 §5.3, Fig 5.4(b)",
			"8-node omega MIN (2×2): the same clusters XX0, 0X1, 1X1 are contention-free and channel-balanced",
			"4, 2, 2 channels at every connection; none shared",
			exactCounts("omega", 2, 3, "xx0,0x1,1x1", channelBalanced(3, 4, 2, 2), noneShared)},
		{"chiang-fig5.5a", "Chiang 1995 §5.4, Fig 5.5(a); counts rebuilt by the digest (figure lost)",
			"16-node baseline MIN (2×2): x0xx, 010x, 11xx are contention-free but use half their channels at C_2 and C_1",
			"C_3..C_0: x0xx 8, 4, 4, 8; 010x 2, 1, 1, 2; 11xx 4, 2, 2, 4; none shared",
			exactCounts("baseline", 2, 4, "x0xx,010x,11xx", [][]int{{8, 4, 4, 8}, {2, 1, 1, 2}, {4, 2, 2, 4}}, noneShared)},
		{"chiang-fig5.5b", "Chiang 1995 §5.4, Fig 5.5(b); per-cluster counts rebuilt by the digest",
			"16-node baseline MIN (2×2): clusters xxx0 and xxx1 share all 16 channels at C_2 and C_1",
			"each 8, 16, 16, 8; the 16 channels of C_2 and of C_1 shared",
			exactCounts("baseline", 2, 4, "xxx0,xxx1", [][]int{{8, 16, 16, 8}, {8, 16, 16, 8}}, sharedAt(16, 2, 1))},
		{"chiang-fig5.6a", "Chiang 1995 §5.4, Fig 5.6(a); counts rebuilt by the digest (figure lost)",
			"16-node butterfly MIN (2×2): x0xx, 010x, 11xx are contention-free; all use half their channels between G_2 and G_1 (C_2)",
			"C_3..C_0: x0xx 8, 4, 8, 8; 010x 1, 1, 1, 2; 11xx 4, 2, 2, 4; none shared",
			exactCounts("butterfly", 2, 4, "x0xx,010x,11xx", [][]int{{8, 4, 8, 8}, {1, 1, 1, 2}, {4, 2, 2, 4}}, noneShared)},
		{"chiang-fig5.6b", "Chiang 1995 §5.4, Fig 5.6(b)",
			"16-node butterfly MIN (2×2): clusters xxx0 and xxx1 share the 16 channels of C_3, C_2 and C_1",
			"16 channels shared at each of C_3, C_2, C_1 (so each cluster 16, 16, 16 and, by its 8 ejection links, 8 at C_0: derived)",
			exactCounts("butterfly", 2, 4, "xxx0,xxx1", [][]int{{16, 16, 16, 8}, {16, 16, 16, 8}}, sharedAt(16, 3, 2, 1))},
	} {
		Register(Claim{ID: c.id, Source: c.source, Claim: c.claim, Published: c.published, Tolerance: "exact", Measure: c.measure})
	}
	initCh5Modified()
}

// initCh5Modified registers the modified networks' rows (Figs 5.7, 5.8)
// and the rows of Figs 7.5 and 4.10.
func initCh5Modified() {
	for _, kind := range []string{"baseline", "butterfly"} {
		fig := map[string]string{"baseline": "5.7", "butterfly": "5.8"}[kind]
		lemma := map[string]string{"baseline": "Lemma 12, Def 8 (C_n = γ)", "butterfly": "Lemma 13, Def 9 (C_n = σ̄)"}[kind]
		for _, part := range []struct{ sub, masks string }{{"a", "x0xx,010x,11xx"}, {"b", "xxx0,xxx1"}} {
			sizes := []int{8, 2, 4}
			if part.sub == "b" {
				sizes = []int{8, 8}
			}
			Register(Claim{
				ID:     fmt.Sprintf("chiang-fig%s%s", fig, part.sub),
				Source: fmt.Sprintf("Chiang 1995 §5.5, Fig %s(%s), %s", fig, part.sub, lemma),
				Claim: fmt.Sprintf("16-node modified %s (2×2): the clusters %s of Fig 5.%s(%s) become contention-free and channel-balanced",
					kind, part.masks, map[string]string{"baseline": "5", "butterfly": "6"}[kind], part.sub),
				Published: "every cluster uses as many channels as it has nodes at every connection; none shared",
				Tolerance: "exact",
				Measure:   exactCounts("modified-"+kind, 2, 4, part.masks, channelBalanced(4, sizes...), noneShared),
			})
		}
	}
	Register(Claim{
		ID: "chiang-fig5.5a-5.8a-hardware", Source: "Chiang 1995 §5.4–5.5, Figs 5.5(a), 5.6(a), 5.7(a), 5.8(a); counts rebuilt by the digest",
		Claim: "the clusters x0xx, 010x, 11xx of the 16-node baseline, butterfly and their modified forms, each alone with every " +
			"member multicasting to the rest on the simulated hardware (synchronous worms): the channels that carried flits per connection",
		Published: "baseline 8,4,4,8 / 2,1,1,2 / 4,2,2,4; butterfly 8,4,8,8 / 1,1,1,2 / 4,2,2,4; modified: 8 / 2 / 4 at every connection",
		Tolerance: "exact",
		Measure:   measureCh5Hardware,
	})
	Register(Claim{
		ID: "chiang-lemma15", Source: "Chiang 1995 §7.2, Lemma 15's example",
		Claim:     "32-node baseline MIN (2×2): the cube 000XX uses C_4: 00XX0, C_3: 000X0, C_2: 00000, C_1: 0000X, C_0: 000XX, so all its pairs meet on channel 00000 at C_2",
		Published: "those channel sets (4, 2, 1, 2, 4 channels)", Tolerance: "exact, the sets",
		Measure: measureLemma15,
	})
	Register(Claim{
		ID: "chiang-fig7.5-butterfly", Source: "Chiang 1995 §7.5, Fig 7.5",
		Claim:     "64-node butterfly MIN of 4×4 switches: a 16-node base cluster uses only 4 of its 16 channels at C_1",
		Published: "16 → 4 channels at C_1", Tolerance: "exact, each of the four base clusters",
		Measure: measureFig75Butterfly,
	})
	Register(Claim{
		ID: "chiang-fig7.5-baseline", Source: "Chiang 1995 §7.5, Fig 7.5",
		Claim:     "64-node baseline MIN of 4×4 switches: in-s-cube contention, 0→1 and 2→3 both use channel 0 at C_1",
		Published: "the s-cubes {0, 1} and {2, 3} share C_1 channel 0", Tolerance: "exact: that channel and no other shared",
		Measure: measureFig75Baseline,
	})
	Register(Claim{
		ID: "chiang-fig4.10-channels", Source: "Chiang 1995 §4.4, Fig 4.10",
		Claim:     "64-node butterfly MIN of 8×8 switches, 4-node clusters: every cluster leaves G_1 on one channel, and the clusters {8j..8j+3} and {8j+4..8j+7} share it",
		Published: "every two clusters share one C_1 channel ({0–3} and {4–7}: channel 0)", Tolerance: "exact, all 16 clusters",
		Measure: measureFig410Channels,
	})
}

// measureFig75Butterfly measures claim chiang-fig7.5-butterfly.
func measureFig75Butterfly() (string, bool, error) {
	_, p, err := partition("butterfly", 4, 3, "00xxxx,01xxxx,10xxxx,11xxxx")
	if err != nil {
		return "", false, err
	}
	ok := true
	for _, u := range p.Uses {
		ok = ok && u.Counts()[1] == 4 && u.Counts()[2] == 16
	}
	return counts(p) + " (C_2, C_1, C_0); " + sharedText(p), ok && len(p.Shared) == 0, nil
}

// measureFig75Baseline measures claim chiang-fig7.5-baseline.
func measureFig75Baseline() (string, bool, error) {
	_, p, err := partition("baseline", 4, 3, "00000x,00001x")
	if err != nil {
		return "", false, err
	}
	var names []string
	for _, x := range p.Shared {
		for _, a := range x.Channels {
			names = append(names, fmt.Sprintf("C_%d address %d", p.Layout.Stages-1-x.J, a))
		}
	}
	ok := len(p.Shared) == 1 && p.Shared[0].J == 1 && slices.Equal(p.Shared[0].Channels, []int{0})
	return fmt.Sprintf("%s; shared: %s", counts(p), strings.Join(names, ", ")), ok, nil
}

// measureFig410Channels measures claim chiang-fig4.10-channels.
func measureFig410Channels() (string, bool, error) {
	var masks []string
	for c := range 16 {
		masks = append(masks, fmt.Sprintf("%04bxx", c))
	}
	t, p, err := partition("butterfly", 8, 2, strings.Join(masks, ","))
	if err != nil {
		return "", false, err
	}
	ok := len(p.Shared) == 8
	for _, u := range p.Uses {
		ok = ok && u.Counts()[0] == 1
	}
	for _, x := range p.Shared {
		ok = ok && x.A%2 == 0 && x.B == x.A+1 && x.J == 0 && len(x.Channels) == 1
	}
	first := "none"
	if len(p.Shared) > 0 && p.Shared[0].A == 0 {
		first = fmt.Sprintf("%s & %s share %s", masks[0], masks[1], p.Layout.ChannelName(t, 1, p.Shared[0].Channels[0]))
		ok = ok && p.Shared[0].Channels[0] == 0
	}
	return fmt.Sprintf("each cluster 1 channel at C_1; %d pairs share one, %s", len(p.Shared), first), ok, nil
}

// simulatedChannels runs, on the hardware of configs/chiang/fig4_10.yaml
// with the topology sets, one multicast from each member of the cluster
// members to the rest, and returns the stage channels (run's names) that
// carried flits: the simulator's side of the channel counts.
func simulatedChannels(sets []string, members []int) ([]string, error) {
	c, err := loadChiang("fig4_10.yaml", append([]string{"run.channels=true"}, sets...))
	if err != nil {
		return nil, err
	}
	c.Traffic.Packets = nil
	for i, s := range members {
		var d []string
		for _, m := range members {
			if m != s {
				d = append(d, fmt.Sprint(m))
			}
		}
		c.Traffic.Packets = append(c.Traffic.Packets, fmt.Sprintf("%d,%d,%s,8", 100*i, s, strings.Join(d, " ")))
	}
	r, err := simulate(c)
	if err != nil {
		return nil, err
	}
	if err := delivered(fmt.Sprint(sets, members), r); err != nil {
		return nil, err
	}
	var used []string
	for _, ch := range r.Channels {
		if ch.Flits > 0 && strings.HasPrefix(ch.Channel, "s") {
			used = append(used, ch.Channel)
		}
	}
	slices.Sort(used)
	return used, nil
}

// measureCh5Hardware measures claim chiang-fig5.5a-5.8a-hardware.
func measureCh5Hardware() (string, bool, error) {
	want := map[string][][]int{
		"baseline": {{8, 4, 4, 8}, {2, 1, 1, 2}, {4, 2, 2, 4}}, "butterfly": {{8, 4, 8, 8}, {1, 1, 1, 2}, {4, 2, 2, 4}},
		"modified-baseline": channelBalanced(4, 8, 2, 4), "modified-butterfly": channelBalanced(4, 8, 2, 4),
	}
	ok := true
	var desc []string
	for _, kind := range []string{"baseline", "butterfly", "modified-baseline", "modified-butterfly"} {
		cs, err := topology.ParseClusters([]string{"x0xx", "010x", "11xx"}, 16)
		if err != nil {
			return "", false, err
		}
		var got []string
		for i, c := range cs {
			used, err := simulatedChannels([]string{"topology.kind=" + kind, "topology.k=2", "topology.n=4"}, c.Members(16))
			if err != nil {
				return "", false, err
			}
			n := make([]int, 4) // per connection C_3 … C_0
			for _, ch := range used {
				var stage, row int
				if _, err := fmt.Sscanf(ch, "s%d,%d", &stage, &row); err != nil || stage < 0 || stage > 3 {
					return "", false, fmt.Errorf("%s: channel %q is not a stage output", kind, ch)
				}
				n[3-stage]++
			}
			ok = ok && slices.Equal(n, want[kind][i])
			got = append(got, fmt.Sprint(n))
		}
		desc = append(desc, kind+" "+strings.Join(got, " "))
	}
	return strings.Join(desc, "; "), ok, nil
}

// measureLemma15 measures claim chiang-lemma15: the channel sets of the
// cube 000XX, each written as the lemma's pattern over G_i's output address.
func measureLemma15() (string, bool, error) {
	_, p, err := partition("baseline", 2, 5, "000xx")
	if err != nil {
		return "", false, err
	}
	want := [][]int{{0, 2, 4, 6}, {0, 2}, {0}, {0, 1}, {0, 1, 2, 3}} // 00XX0, 000X0, 00000, 0000X, 000XX
	ok := len(p.Uses[0].Used) == len(want)
	var sets []string
	for j, as := range p.Uses[0].Used {
		ok = ok && slices.Equal(as, want[j])
		sets = append(sets, fmt.Sprintf("C_%d %v", len(want)-1-j, as))
	}
	return strings.Join(sets, ", "), ok, nil
}
