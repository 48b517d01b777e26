package network

import (
	"testing"

	"github.com/sarchlab/akita/v3/sim"

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
	n, err := Build(c)
	if err != nil {
		t.Fatal(err)
	}
	engine := sim.NewSerialEngine()
	eps := AttachEndpoints(NewComponent("Net", engine, n))
	a, b := newAgent("A"), newAgent("B")
	for i, ag := range []*agent{a, b} {
		conn := sim.NewDirectConnection(ag.Name()+"Conn", engine, 1*sim.GHz)
		conn.PlugIn(ag.port, 4)
		conn.PlugIn(eps[[]int{0, 5}[i]].Port, 4)
		eps[[]int{0, 5}[i]].Peer = ag.port
	}
	for i, at := range []float64{10e-9, 500e-9} {
		m := &PacketMsg{To: 5, Flits: 4 + i, Payload: i}
		m.Src, m.Dst = a.port, eps[0].Port
		engine.Schedule(sendEvent{sim.NewEventBase(sim.VTimeInSec(at), sender{a}), m})
	}
	if err := engine.Run(); err != nil {
		t.Fatal(err)
	}
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
