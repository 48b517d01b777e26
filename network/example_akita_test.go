package network_test

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/flitsim/flitsim/network"
)

// core is a stand-in for your own Akita component (a processor, a cache):
// it sends packets through its port and prints what the network delivers
// to it.
type core struct {
	*sim.ComponentBase
	port sim.Port
}

func newCore(name string) *core {
	c := &core{ComponentBase: sim.NewComponentBase(name)}
	c.port = sim.NewLimitNumMsgPort(c, 4, name+".Port")
	c.AddPort("Port", c.port)
	return c
}

// Handle sends the packet a sendAt event carries.
func (c *core) Handle(e sim.Event) error {
	m := e.(sendAt).msg
	m.SendTime = e.Time()
	if c.port.Send(m) != nil {
		// (A real model keeps the message and retries in NotifyPortFree.)
		return fmt.Errorf("%s: the endpoint's port is full", c.Name())
	}
	return nil
}

// NotifyRecv takes the deliveries.
func (c *core) NotifyRecv(now sim.VTimeInSec, p sim.Port) {
	for msg := p.Retrieve(now); msg != nil; msg = p.Retrieve(now) {
		d := msg.(*network.DeliveryMsg)
		fmt.Printf("%s got %v from terminal %d: %d flits, %d cycles\n", c.Name(), d.Payload, d.From, d.Flits, d.Latency)
	}
}

func (c *core) NotifyPortFree(sim.VTimeInSec, sim.Port) {}

// sendAt is an event that makes a core send msg.
type sendAt struct {
	*sim.EventBase
	msg *network.PacketMsg
}

// Driving the network from your own Akita components: host the network as
// an Akita component (NewComponent), attach one endpoint per terminal
// (AttachEndpoints), connect each endpoint's Port to your component's port
// and name your port as the endpoint's Peer. A PacketMsg sent to an
// endpoint enters the network at that terminal; when its tail reaches the
// destination, that terminal's endpoint sends a DeliveryMsg to its Peer.
// The network ticks at 1 GHz (one cycle a nanosecond) and sleeps while it
// is empty.
//
// Every packet an endpoint is handed is measured, whatever run.warmup says
// (here the default 1000 cycles; all three packets are sent before it).
func ExampleAttachEndpoints() {
	c := network.Default()
	c.Topology = network.TopologyConfig{Kind: "hypercube", D: 3}
	c.Traffic.Load = 0 // no synthetic traffic: only what the cores send
	n, err := network.Build(c)
	if err != nil {
		fmt.Println(err)
		return
	}
	engine := sim.NewSerialEngine()
	host := network.NewComponent("Net", engine, n)
	eps := network.AttachEndpoints(host) // eps[t] is terminal t's network interface
	cores := map[int]*core{0: newCore("Core0"), 5: newCore("Core5")}
	for t, k := range cores {
		conn := sim.NewDirectConnection(fmt.Sprint("Conn", t), engine, 1*sim.GHz)
		conn.PlugIn(k.port, 4)
		conn.PlugIn(eps[t].Port, 4)
		eps[t].Peer = k.port
	}
	send := func(at sim.VTimeInSec, from, to, flits int, payload string) {
		m := &network.PacketMsg{To: to, Flits: flits, Payload: payload}
		m.Src, m.Dst = cores[from].port, eps[from].Port
		engine.Schedule(sendAt{sim.NewEventBase(at, cores[from]), m})
	}
	send(10e-9, 0, 5, 4, "read A")       // cycle 10
	send(12e-9, 5, 0, 8, "write B")      // cycle 12
	send(14e-9, 0, 5, 4, "read C")       // cycle 14
	if err := engine.Run(); err != nil { // returns when nothing is left to do
		fmt.Println(err)
		return
	}
	r := n.Result()
	fmt.Printf("%d packets delivered by cycle %d, mean latency %.2f, %s\n", r.MeasuredDelivered, r.Cycles, r.Latency.Mean, r.Status)
	// Output:
	// Core5 got read A from terminal 0: 4 flits, 7 cycles
	// Core5 got read C from terminal 0: 4 flits, 7 cycles
	// Core0 got write B from terminal 5: 8 flits, 11 cycles
	// 3 packets delivered by cycle 24, mean latency 8.33, ok
}
