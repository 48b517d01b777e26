package network

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestChannelLoadsOfOnePacket: a 4-flit packet from terminal 0 to 3 on a
// 4-node line loads terminal 0's injection channel, the three x+ links on
// its way and the ejection link at node 3 with its 4 flits, and nothing else;
// a trace's channels count the whole run.
func TestChannelLoadsOfOnePacket(t *testing.T) {
	c := Default()
	c.Topology = TopologyConfig{Kind: "mesh", K: 4, N: 1}
	c.Traffic.Packets = []string{"0,0,3,4"}
	c.Run.Channels = true
	r, err := Run(c)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"terminal 0 injection": "r(0).in[local]",
		"r(0).out[x+]":         "r(1).in[x-]",
		"r(1).out[x+]":         "r(2).in[x-]",
		"r(2).out[x+]":         "r(3).in[x-]",
		"r(3).out[local]":      "terminal 3",
	}
	// 4 nodes: 6 links between them, 4 ejection and 4 injection links.
	if len(r.Channels) != 14 {
		t.Fatalf("%d channels listed, want 14: %+v", len(r.Channels), r.Channels)
	}
	for _, ch := range r.Channels {
		to, loaded := want[ch.Channel]
		switch {
		case loaded && (ch.Flits != 4 || ch.To != to):
			t.Errorf("%s → %s carried %d flits, want → %s and 4", ch.Channel, ch.To, ch.Flits, to)
		case !loaded && ch.Flits != 0:
			t.Errorf("%s carried %d flits, want none", ch.Channel, ch.Flits)
		}
		if u := float64(ch.Flits) / float64(r.Cycles); ch.Utilisation != u {
			t.Errorf("%s: utilisation %v, want %v (over the %d cycles of the run)", ch.Channel, ch.Utilisation, u, r.Cycles)
		}
		delete(want, ch.Channel)
	}
	if len(want) != 0 {
		t.Errorf("not listed: %v", want)
	}
	c.Run.Channels = false
	if r, _ := Run(c); r.Channels != nil {
		t.Errorf("listed without run.channels: %d channels", len(r.Channels))
	}
}

// TestChannelLoadsConserveFlits: after a trace of random packets has drained,
// every switch has sent out as many flits as it received, and the list
// agrees with the result's mean, maximum and busiest channel.
func TestChannelLoadsConserveFlits(t *testing.T) {
	for _, topo := range []TopologyConfig{
		{Kind: "torus", K: 4, N: 2},
		{Kind: "hypercube", D: 4},
		{Kind: "omega", K: 2, N: 4},
	} {
		c := Default()
		c.Topology = topo
		c.Run.Channels = true
		rng := rand.New(rand.NewPCG(3, 4))
		for i := range 200 {
			c.Traffic.Packets = append(c.Traffic.Packets,
				fmt.Sprintf("%d,%d,%d,%d", i/4, rng.IntN(16), rng.IntN(16), 1+rng.IntN(6)))
		}
		n, err := Build(c)
		if err != nil {
			t.Fatal(err)
		}
		r, err := n.RunAkita()
		if err != nil {
			t.Fatal(err)
		}
		if r.MeasuredDelivered != 200 {
			t.Fatalf("%s: %d of 200 packets delivered", topo.Kind, r.MeasuredDelivered)
		}
		net := map[string]int64{} // per switch: flits in − flits out
		var links, sum uint64
		var best ChannelLoad
		for _, ch := range r.Channels {
			if from, _, ok := strings.Cut(ch.Channel, ".out["); ok {
				net[from] -= int64(ch.Flits)
				links++ // switch output links (ejection included) make the mean
				sum += ch.Flits
				if ch.Flits > best.Flits || best.Channel == "" {
					best = ch
				}
			}
			if to, _, ok := strings.Cut(ch.To, ".in["); ok {
				net[to] += int64(ch.Flits)
			}
		}
		for sw, d := range net {
			if d != 0 {
				t.Errorf("%s: switch %s received %d flits more than it sent", topo.Kind, sw, d)
			}
		}
		if mean := float64(sum) / float64(links) / float64(r.Cycles); !near(mean, r.ChannelUtilMean) {
			t.Errorf("%s: mean of the list %v, result %v", topo.Kind, mean, r.ChannelUtilMean)
		}
		if best.Channel != r.BusiestChannel || best.Utilisation != r.ChannelUtilMax {
			t.Errorf("%s: busiest in the list %s (%v), result %s (%v)", topo.Kind, best.Channel, best.Utilisation, r.BusiestChannel, r.ChannelUtilMax)
		}
	}
}

func near(a, b float64) bool { return a-b < 1e-12 && b-a < 1e-12 }
