package verify

import (
	"slices"
	"strings"
	"testing"
)

// The channel-count rows pass, and their check fails on the network the
// figure contrasts (the plain baseline's counts are not the modified one's).
func TestChiangChannelRows(t *testing.T) {
	n := 0
	for _, c := range Claims() {
		if !strings.HasPrefix(c.ID, "chiang-fig5.") && !strings.HasPrefix(c.ID, "chiang-fig7.5-") && c.ID != "chiang-fig4.10-channels" && c.ID != "chiang-lemma15" {
			continue
		}
		n++
		if got, ok, err := c.Measure(); !ok || err != nil {
			t.Errorf("%s: %s (%v)", c.ID, got, err)
		}
	}
	if n != 16 {
		t.Errorf("%d channel rows, want 16", n)
	}
	m := exactCounts("baseline", 2, 4, "x0xx,010x,11xx", channelBalanced(4, 8, 2, 4), noneShared)
	if got, ok, err := m(); ok || err != nil {
		t.Errorf("the plain baseline passes the modified one's counts: %s (%v)", got, err)
	}
	m = exactCounts("modified-butterfly", 2, 4, "xxx0,xxx1", channelBalanced(4, 8, 8), sharedAt(16, 3, 2, 1))
	if got, ok, _ := m(); ok {
		t.Errorf("the modified butterfly shares channels: %s", got)
	}
}

// The channels PartitionChannels reads off the routes are the ones the
// simulated hardware multicasts use: each cluster alone, every member
// multicasting to the rest, on the plain and the modified networks.
func TestChannelsMatchSimulation(t *testing.T) {
	for _, kind := range []string{"baseline", "modified-baseline", "butterfly", "modified-butterfly"} {
		sets := []string{"topology.kind=" + kind, "topology.k=2", "topology.n=4", "traffic.cluster=16"}
		topo, p, err := partition(kind, 2, 4, "x0xx,010x,11xx")
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range p.Uses {
			var want []string
			for j, as := range u.Used {
				for _, a := range as {
					want = append(want, p.Layout.ChannelName(topo, p.Layout.Stages-1-j, a))
				}
			}
			slices.Sort(want)
			got, err := simulatedChannels(sets, u.Members)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s %s: %d channels", kind, u.Cluster.Mask, len(got))
			if len(got) == 0 || !slices.Equal(got, want) {
				t.Errorf("%s %s: simulated %v, traced %v", kind, u.Cluster.Mask, got, want)
			}
		}
	}
}
