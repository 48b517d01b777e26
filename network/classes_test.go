package network

import (
	"errors"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/flitsim/flitsim/configs/inputerr"
)

// classCfg is a 4×4 mesh of iq routers with vcs VCs of 4 flits and
// classes message classes, uniform 4-flit traffic at load.
func classCfg(vcs, classes int, load float64) Config {
	c := Default()
	c.Topology = TopologyConfig{Kind: "mesh", K: 4, N: 2}
	c.Router.Model, c.Buffers.VCs, c.Buffers.Input = "iq", &vcs, 4
	c.Routing = "dor"
	c.Traffic.Load, c.Traffic.Classes = load, classes
	c.Run.Warmup, c.Run.Measure, c.Run.Drain = 200, 1000, 5000
	return c
}

// Class-0 traffic on 2 VCs split into 2 classes may use only VC 0: the run
// is the 1-VC router's, cycle for cycle; class 1 carries nothing.
func TestClassesUseTheirShareOnly(t *testing.T) {
	split := runPlain(t, classCfg(2, 2, 0.3))
	one := runPlain(t, classCfg(1, 1, 0.3))
	if split.Latency.Mean != one.Latency.Mean || split.Throughput != one.Throughput || split.DeliveredFlits != one.DeliveredFlits {
		t.Fatalf("2 VCs in 2 classes: latency %v throughput %v; 1 VC: %v %v",
			split.Latency.Mean, split.Throughput, one.Latency.Mean, one.Throughput)
	}
	if len(split.Classes) != 2 || split.Classes[1].Delivered != 0 || split.Classes[0].Delivered != split.MeasuredDelivered {
		t.Fatalf("classes %+v, measured delivered %d", split.Classes, split.MeasuredDelivered)
	}
	if one.Classes != nil || one.RoundTrip != nil {
		t.Fatalf("one class, no replies: classes %+v round trip %+v (want none)", one.Classes, one.RoundTrip)
	}
}

// Every measured request gets its reply on class 1, and the round trip is
// at least the request's latency plus a reply's zero-load latency.
func TestRequestReply(t *testing.T) {
	c := classCfg(2, 2, 0.1)
	c.Traffic.ReplyFlits = 2
	r := runPlain(t, c)
	if r.Deadlock != nil || len(r.Classes) != 2 || r.RoundTrip == nil {
		t.Fatalf("deadlock %v classes %+v round trip %+v", r.Deadlock, r.Classes, r.RoundTrip)
	}
	req, rt := r.Classes[0], r.RoundTrip
	if req.Delivered == 0 || rt.Count != req.Delivered || r.Classes[1].Delivered < rt.Count {
		t.Fatalf("requests %+v replies %+v round trip %+v", req, r.Classes[1], rt)
	}
	if min := req.LatencyMean + float64(ZeroLoadLatency(c, 2, 2)); rt.Mean < min {
		t.Fatalf("round trip %.2f below request latency + a 1-hop reply's zero-load latency %.2f", rt.Mean, min)
	}
}

// Dateline classes inside message classes: a 4×4 torus under dor-dateline
// with 4 VCs in 2 message classes (2 dateline VCs each), request/reply at
// a load past saturation, does not deadlock in 3000 cycles; the same with
// dor on 2 VCs (1 a class, no dateline) does.
func TestClassesKeepDatelineClasses(t *testing.T) {
	for _, tc := range []struct {
		vcs      int
		routing  string
		deadlock bool
	}{{4, "dor-dateline", false}, {2, "dor", true}} {
		c := classCfg(tc.vcs, 2, 0.9)
		c.Topology = TopologyConfig{Kind: "torus", K: 4, N: 2}
		c.Routing, c.Traffic.Flits, c.Traffic.ReplyFlits = tc.routing, FlitRange{8, 8}, 8
		c.Run.Warmup, c.Run.Measure, c.Run.Drain, c.Run.MaxBacklog = 0, 3000, 1, 0
		r := runPlain(t, c)
		if (r.Deadlock != nil) != tc.deadlock || r.Classes[1].Delivered == 0 {
			t.Fatalf("%s on %d VCs: deadlock %v (want %v), classes %+v", tc.routing, tc.vcs, r.Deadlock, tc.deadlock, r.Classes)
		}
	}
}

func TestClassesRefused(t *testing.T) {
	cases := []struct {
		name string
		edit func(*Config)
		key  string
	}{
		{"not a divisor", func(c *Config) { c.Traffic.Classes = 3 }, "traffic.classes"},
		{"negative", func(c *Config) { c.Traffic.Classes = -1 }, "traffic.classes"},
		{"flit crossbar", func(c *Config) { c.Router.Model, c.Buffers.VCs = "", nil }, "traffic.classes"},
		{"escape VC", func(c *Config) { c.Routing = "adaptive" }, "traffic.classes"},
		{"dateline", func(c *Config) {
			c.Topology, c.Routing = TopologyConfig{Kind: "torus", K: 4, N: 2}, "dor-dateline"
		}, "traffic.classes"},
		{"reply to a multicast", func(c *Config) {
			c.Traffic.ReplyFlits, c.Router.Model, c.Buffers.VCs, c.Traffic.Classes = 2, "", nil, 1
			c.Traffic.Pattern = "cluster-multicast"
		}, "traffic.reply_flits"},
		{"reply with a trace", func(c *Config) {
			c.Traffic.ReplyFlits, c.Traffic.Packets = 2, []string{"0,0,1,2"}
		}, "traffic.reply_flits"},
	}
	for _, tc := range cases {
		c := classCfg(2, 2, 0.1)
		tc.edit(&c)
		_, err := Build(c)
		var e *inputerr.Error
		if !errors.As(err, &e) || e.Key != tc.key {
			t.Errorf("%s: %v, want an input error naming %s", tc.name, err, tc.key)
		}
	}
}

// answerer is an Akita agent that answers every request (class 0) with a
// reply of 2 flits on class 1 to its sender.
type answerer struct {
	*agent
	ep *Endpoint
}

func (a *answerer) NotifyRecv(now sim.VTimeInSec, p sim.Port) {
	for m := p.Retrieve(now); m != nil; m = p.Retrieve(now) {
		d := m.(*DeliveryMsg)
		a.got = append(a.got, d)
		if d.Class == 0 {
			r := &PacketMsg{To: d.From, Flits: 2, Class: 1, Payload: d.Payload}
			r.Src, r.Dst, r.SendTime = a.port, a.ep.Port, now
			if err := a.port.Send(r); err != nil {
				panic("reply not sent")
			}
		}
	}
}

// Through the Akita endpoints: A sends B two requests on class 0, B's agent
// answers each on class 1, and A receives both replies, marked class 1.
func TestAkitaRequestReplyClasses(t *testing.T) {
	c := classCfg(2, 2, 0)
	n, engine, eps := akitaNet(t, c)
	a, b := newAgent("A"), &answerer{agent: newAgent("B"), ep: eps[5]}
	b.ComponentBase = sim.NewComponentBase("B")
	b.port = sim.NewLimitNumMsgPort(b, 4, "B.Port")
	for i, port := range []sim.Port{a.port, b.port} {
		ep := eps[[]int{0, 5}[i]]
		wire(engine, []string{"A", "B"}[i]+"Conn", port, ep)
	}
	for i, at := range []float64{10e-9, 20e-9} {
		m := &PacketMsg{To: 5, Flits: 4, Payload: i}
		m.Src, m.Dst = a.port, eps[0].Port
		engine.Schedule(sendEvent{sim.NewEventBase(sim.VTimeInSec(at), sender{a}), m})
	}
	if err := engine.Run(); err != nil {
		t.Fatal(err)
	}
	if n.Err() != nil || len(b.got) != 2 || len(a.got) != 2 {
		t.Fatalf("err %v; B got %d, A got %d", n.Err(), len(b.got), len(a.got))
	}
	for i, d := range a.got {
		if d.Class != 1 || d.From != 5 || d.Flits != 2 || d.Payload != i || b.got[i].Class != 0 {
			t.Fatalf("reply %d: %+v (request %+v)", i, d, b.got[i])
		}
	}
	r := n.Result()
	if r.Classes[0].Delivered != 2 || r.Classes[1].Delivered != 2 {
		t.Fatalf("classes %+v", r.Classes)
	}
}

// A PacketMsg on a class traffic.classes does not have stops the run with
// an error naming the field.
func TestAkitaClassOutOfRange(t *testing.T) {
	c := classCfg(2, 2, 0)
	n, engine, eps := akitaNet(t, c)
	a := newAgent("A")
	wire(engine, "AConn", a.port, eps[0])
	m := &PacketMsg{To: 5, Flits: 4, Class: 2}
	m.Src, m.Dst = a.port, eps[0].Port
	engine.Schedule(sendEvent{sim.NewEventBase(10e-9, sender{a}), m})
	if err := engine.Run(); err != nil {
		t.Fatal(err)
	}
	if n.Err() == nil {
		t.Fatal("class 2 of 2 accepted")
	}
}
