package network

import (
	"testing"
	"time"

	"github.com/sarchlab/akita/v3/sim"
)

// agent is a minimal Akita component standing for a processor: it sends
// packets to its endpoint and records what is delivered to it.
type agent struct {
	*sim.ComponentBase
	port sim.Port
	got  []*DeliveryMsg
}

func newAgent(name string) *agent {
	a := &agent{ComponentBase: sim.NewComponentBase(name)}
	a.port = sim.NewLimitNumMsgPort(a, 4, name+".Port")
	a.AddPort("Port", a.port)
	return a
}

func (a *agent) Handle(sim.Event) error { return nil }

func (a *agent) NotifyRecv(now sim.VTimeInSec, p sim.Port) {
	for m := p.Retrieve(now); m != nil; m = p.Retrieve(now) {
		a.got = append(a.got, m.(*DeliveryMsg))
	}
}

func (a *agent) NotifyPortFree(sim.VTimeInSec, sim.Port) {}

type sendEvent struct {
	*sim.EventBase
	msg *PacketMsg
}

type sender struct{ a *agent }

func (s sender) Handle(e sim.Event) error {
	ev := e.(sendEvent)
	ev.msg.SendTime = ev.Time()
	if err := s.a.port.Send(ev.msg); err != nil {
		panic("send failed")
	}
	return nil
}

// Two Akita components exchange packets through the network's endpoints;
// the delivered latency equals the zero-load closed form.
func TestAkitaEndpointsCarryPackets(t *testing.T) {
	c := Default()
	c.Topology = TopologyConfig{Kind: "hypercube", D: 3}
	c.Traffic.Load = 0
	_, engine, eps := akitaNet(t, c)
	a, b := newAgent("A"), newAgent("B")
	for i, ag := range []*agent{a, b} {
		ep := eps[[]int{0, 5}[i]]
		wire(engine, ag.Name()+"Conn", ag.port, ep)
	}
	for i, at := range []float64{10e-9, 500e-9} {
		m := &PacketMsg{To: 5, Flits: 4 + i, Payload: i}
		m.Src, m.Dst = a.port, eps[0].Port
		engine.Schedule(sendEvent{sim.NewEventBase(sim.VTimeInSec(at), sender{a}), m})
	}
	if err := engine.Run(); err != nil {
		t.Fatal(err)
	}
	if len(b.got) != 2 {
		t.Fatalf("B got %d deliveries", len(b.got))
	}
	for i, d := range b.got {
		want := ZeroLoadLatency(c, 3, 4+i) // 0→5 crosses 2 dimensions: 3 switches
		if d.From != 0 || d.Payload != i || d.Latency != want {
			t.Fatalf("delivery %d: %+v, want latency %d", i, d, want)
		}
	}
	if len(a.got) != 0 {
		t.Fatal("A got a delivery")
	}
}

// The packet-switched router carries Akita packets too: 0→5 on the 3-cube
// crosses two links, so each one-unit packet arrives two cycles after it
// entered the network.
func TestAkitaEndpointsPacketRouter(t *testing.T) {
	c := Default()
	c.Topology = TopologyConfig{Kind: "hypercube", D: 3}
	c.Switching, c.Traffic.Flits, c.Traffic.Load = "packet", FlitRange{Min: 1, Max: 1}, 0
	b := sendTwo05(t, c, func(i int) int { return 1 })
	if len(b.got) != 2 || b.got[0].Latency != 2 || b.got[1].Latency != 2 || b.got[1].Payload != 1 {
		t.Fatalf("B got %+v", b.got)
	}
}

// akitaNet builds c and hosts it on a serial engine with its endpoints
// attached (eps[t]: terminal t's).
func akitaNet(t *testing.T, c Config) (*Network, *sim.SerialEngine, []*Endpoint) {
	t.Helper()
	n, err := Build(c)
	if err != nil {
		t.Fatal(err)
	}
	engine := sim.NewSerialEngine()
	return n, engine, AttachEndpoints(NewComponent("Net", engine, n))
}

// wire connects port to endpoint ep by a direct connection named name and
// makes port ep's peer.
func wire(engine sim.Engine, name string, port sim.Port, ep *Endpoint) {
	conn := sim.NewDirectConnection(name, engine, 1*sim.GHz)
	conn.PlugIn(port, 4)
	conn.PlugIn(ep.Port, 4)
	ep.Peer = port
}

// sendTwo05 builds c's network under Akita with agent A at terminal 0 and
// B at 5, has A send B two packets (flits(i) flits, payload i) at 10 ns
// and 500 ns, runs the engine to the end and returns B.
func sendTwo05(t *testing.T, c Config, flits func(i int) int) *agent {
	t.Helper()
	_, engine, eps := akitaNet(t, c)
	a, b := newAgent("A"), newAgent("B")
	for i, ag := range []*agent{a, b} {
		wire(engine, ag.Name()+"Conn", ag.port, eps[[]int{0, 5}[i]])
	}
	for i, at := range []float64{10e-9, 500e-9} {
		m := &PacketMsg{To: 5, Flits: flits(i), Payload: i}
		m.Src, m.Dst = a.port, eps[0].Port
		engine.Schedule(sendEvent{sim.NewEventBase(sim.VTimeInSec(at), sender{a}), m})
	}
	if err := engine.Run(); err != nil {
		t.Fatal(err)
	}
	return b
}

// Packets sent by Akita components are measured whatever run.warmup says:
// with the default warm-up (1000 cycles) a packet sent in cycle 10 and one
// sent in cycle 1500 (inside the window) both count once, with their
// latencies, under wormhole and packet switching.
func TestAkitaEndpointPacketsMeasuredBeforeWarmup(t *testing.T) {
	for _, sw := range []string{"wormhole", "packet"} {
		c := Default()
		c.Topology = TopologyConfig{Kind: "hypercube", D: 3}
		c.Switching, c.Traffic.Load, c.Traffic.Flits = sw, 0, FlitRange{Min: 1, Max: 1}
		if c.Run.Warmup < 1000 {
			t.Fatalf("default run.warmup %d: the test needs a packet sent before it", c.Run.Warmup)
		}
		n, err := Build(c)
		if err != nil {
			t.Fatal(err)
		}
		engine := sim.NewSerialEngine()
		eps := AttachEndpoints(NewComponent("Net", engine, n))
		a, b := newAgent("A"), newAgent("B")
		for i, ag := range []*agent{a, b} {
			ep := eps[[]int{0, 5}[i]]
			wire(engine, ag.Name()+"Conn", ag.port, ep)
		}
		for _, at := range []float64{10e-9, 1500e-9} {
			m := &PacketMsg{To: 5, Flits: 1}
			m.Src, m.Dst = a.port, eps[0].Port
			engine.Schedule(sendEvent{sim.NewEventBase(sim.VTimeInSec(at), sender{a}), m})
		}
		if err := engine.Run(); err != nil {
			t.Fatal(err)
		}
		r := n.Result()
		if len(b.got) != 2 || r.DeliveredPackets != 2 {
			t.Fatalf("%s: delivered %d (B got %d), want 2", sw, r.DeliveredPackets, len(b.got))
		}
		want := float64(b.got[0].Latency+b.got[1].Latency) / 2
		if r.MeasuredPackets != 2 || r.MeasuredDelivered != 2 || r.Latency.Count != 2 || r.Latency.Mean != want || want <= 0 || r.Hops <= 0 {
			t.Fatalf("%s: measured %d delivered %d latency %+v hops %g, want 2, 2, count 2 mean %g",
				sw, r.MeasuredPackets, r.MeasuredDelivered, r.Latency, r.Hops, want)
		}
		if r.Status != StatusOK {
			t.Fatalf("%s: status %s", sw, r.Status)
		}
	}
}

// With synthetic traffic alongside (traffic.load > 0) a network with
// endpoints still comes to an end: the synthetic traffic stops with its
// window, its measured packets are delivered and the engine returns.
func TestAkitaEndpointsWithSyntheticTrafficEnd(t *testing.T) {
	c := Default()
	c.Topology = TopologyConfig{Kind: "hypercube", D: 3}
	c.Traffic.Load = 0.2
	c.Run.Warmup, c.Run.Measure = 100, 400
	n, engine, eps := akitaNet(t, c)
	a := newAgent("A")
	wire(engine, "Conn", a.port, eps[0])
	m := &PacketMsg{To: 0, Flits: 4} // sent to itself, from cycle 2000 (after the window)
	m.Src, m.Dst = a.port, eps[0].Port
	engine.Schedule(sendEvent{sim.NewEventBase(2000e-9, sender{a}), m})
	done := make(chan error, 1)
	go func() { done <- engine.Run() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the engine did not return: the synthetic traffic never ended")
	}
	r := n.Result()
	if len(a.got) != 1 || r.MeasuredPackets < 100 || r.MeasuredDelivered != r.MeasuredPackets || r.Cycles < 2000 || r.Cycles > 2100 {
		t.Fatalf("A got %d, measured %d delivered %d, %d cycles", len(a.got), r.MeasuredPackets, r.MeasuredDelivered, r.Cycles)
	}
}
