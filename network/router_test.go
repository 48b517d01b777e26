package network

import (
	"testing"

	"github.com/flitsim/flitsim/switch/iq"
)

// The iq router (a public switch model) carries Akita packets: 0→5 on the
// 3-cube crosses two links between three routers, so each packet arrives
// after the pipeline's zero-load latency.
func TestAkitaEndpointsIQ(t *testing.T) {
	c := Default()
	c.Topology = TopologyConfig{Kind: "hypercube", D: 3}
	vcs := 2
	c.Router.Model, c.Buffers.VCs, c.Traffic.Load = "iq", &vcs, 0
	b := sendTwo05(t, c, func(i int) int { return 4 + i })
	p, ok := iqParams(&c)
	if !ok {
		t.Fatal("no iq parameters")
	}
	if len(b.got) != 2 {
		t.Fatalf("B got %d deliveries", len(b.got))
	}
	for i, d := range b.got {
		want := iq.ZeroLoadLatency(p, 2, 4+i)
		if d.From != 0 || d.Payload != i || d.Latency != want || ZeroLoadLatency(c, 3, 4+i) != want {
			t.Fatalf("delivery %d: %+v, want latency %d", i, d, want)
		}
	}
}
