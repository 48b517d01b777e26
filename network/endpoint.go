package network

import (
	"math"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/traffic"
)

// PacketMsg asks an endpoint to send a packet into the network. Other Akita
// components send it to an Endpoint's port.
type PacketMsg struct {
	sim.MsgMeta
	To    int // destination terminal
	Flits int // packet length
	// Class is the packet's message class, from 0 to traffic.classes − 1:
	// its virtual channels are that class's disjoint set (docs/vc.md), so
	// that replies on class 1 never wait behind requests on class 0.
	Class int
	// Reply marks a packet that answers a request: with
	// traffic.reply_queue it waits in the terminal's reply queue (a
	// register of its own on the injection link) rather than behind the
	// terminal's requests, and while every place of that queue is taken
	// the endpoint leaves it in its port (the sender's Send fails; it
	// retries when the port frees). Without traffic.reply_queue it is
	// an ordinary packet.
	Reply   bool
	Payload any // carried to the destination untouched
}

// Meta returns the message's Akita metadata.
func (m *PacketMsg) Meta() *sim.MsgMeta { return &m.MsgMeta }

// DeliveryMsg is what an endpoint sends to its peer when a packet addressed
// to it has been delivered (its tail ejected).
type DeliveryMsg struct {
	sim.MsgMeta
	From  int // source terminal
	Flits int // packet length
	Class int // message class
	// Latency is the packet's latency in network cycles, as
	// Result.Latency counts it: from the cycle in which the endpoint took
	// the PacketMsg from its port (the message's arrival time rounded to
	// the nearest cycle), so it includes any wait at the source for room
	// in the network, to the cycle in which the packet's tail flit
	// reached the destination terminal. A delivery the peer's port
	// could not take at once waits at the endpoint without counting.
	Latency int64
	Payload any
}

// Meta returns the message's Akita metadata.
func (m *DeliveryMsg) Meta() *sim.MsgMeta { return &m.MsgMeta }

// Endpoint is the network interface of one terminal as an Akita component:
// packets handed to its Port enter the network at that terminal, and packets
// delivered to the terminal are sent from Port to Peer.
type Endpoint struct {
	*sim.ComponentBase
	Port sim.Port
	Peer sim.Port
	// Accept, if set, lets the peer refuse packets (with
	// traffic.reply_queue; without it every packet is taken): it is asked
	// about each packet addressed to this terminal (m: From, Flits, Class,
	// Payload; no Latency yet) when its head is bound for the ejection
	// port, once a cycle until it says true, which commits the terminal
	// to take the whole packet. While it says false the head waits in the
	// network, and the packets behind it back up. It runs inside the
	// network's cycle: decide and count, send nothing. (An agent that
	// answers requests refuses one while it owes as many replies as it
	// can hold: the protocol deadlock of docs/vc.md.)
	Accept func(m *DeliveryMsg) bool

	term    int
	host    *Component
	pending []*DeliveryMsg
	probe   DeliveryMsg // Accept's argument, reused
	blocked bool        // a reply waits in Port for a place in the reply queue
}

// AttachEndpoints creates one Akita endpoint per terminal of c's network and
// switches the network to external mode (call it before the engine runs): it runs while packets are in flight
// and sleeps otherwise, until an endpoint wakes it, and the engine's Run
// returns once no component has anything left to do; Network.Result then
// reports the run. Synthetic traffic from the config (a traffic.load above
// 0, or traffic.packets) still runs alongside, until the end of its
// measurement window (run.warmup + run.measure); set traffic.load 0 for
// none.
//
// Every packet handed to an endpoint is measured, whatever the cycle it is
// sent in: run.warmup and run.measure bound only the synthetic traffic's
// measurement. Such a packet counts in Result.MeasuredPackets and
// MeasuredDelivered, and its latency in Result.Latency, NetworkLatency and
// Hops. Offered, Throughput, the channel figures and the latency's CI95
// remain figures of the window [run.warmup, run.warmup+run.measure): set
// run.warmup to 0 and run.measure to the cycles your model runs for if you
// read them.
func AttachEndpoints(c *Component) []*Endpoint {
	n := c.Net
	n.external = true
	// The synthetic traffic ends with its measurement window: a run with
	// endpoints has no end of its own, and would otherwise never sleep.
	n.gen = untilWindowEnd{n.gen, n.end}
	if n.gen.NextAt(n.k.Now()) != math.MaxInt64 {
		c.TickNow(0) // the synthetic traffic starts with the engine
	}
	eps := make([]*Endpoint, n.k.Topo.Terminals())
	for i := range eps {
		e := &Endpoint{term: i, host: c}
		e.ComponentBase = sim.NewComponentBase(sim.BuildNameWithIndex(c.Name(), "Endpoint", i))
		e.Port = sim.NewLimitNumMsgPort(e, 4, e.Name()+".Port")
		e.AddPort("Port", e.Port)
		eps[i] = e
	}
	payload := map[uint64]any{}
	n.payloads = payload
	n.k.SetTerminalAccept(func(term int32, w *flit.Worm) bool { // (false, ignored: no reply queues)
		e := eps[term]
		if e.Accept == nil {
			return true
		}
		e.probe = DeliveryMsg{From: int(w.Src), Flits: int(w.Len), Class: int(w.Class), Payload: payload[w.ID]}
		return e.Accept(&e.probe)
	})
	prev := n.k.Hooks.Delivered
	n.k.Hooks.Delivered = func(w *flit.Worm, cycle int64) {
		if prev != nil {
			prev(w, cycle)
		}
		p, ok := payload[w.ID]
		if !ok {
			return
		}
		delete(payload, w.ID)
		eps[w.Dst].deliver(&DeliveryMsg{From: int(w.Src), Flits: int(w.Len), Class: int(w.Class), Latency: cycle - w.GenCycle, Payload: p})
	}
	return eps
}

// untilWindowEnd is a generator that creates no packets from cycle end on.
type untilWindowEnd struct {
	traffic.Generator
	end int64
}

func (g untilWindowEnd) NextAt(now int64) int64 {
	if next := g.Generator.NextAt(now); next < g.end {
		return next
	}
	return math.MaxInt64
}

func (g untilWindowEnd) Generate(now int64, e traffic.Emitter) {
	if now < g.end {
		g.Generator.Generate(now, e)
	}
}

// Handle is required by sim.Component; an endpoint schedules no events.
func (e *Endpoint) Handle(sim.Event) error { return nil }

// NotifyRecv takes packets from the port into the network (a reply only
// while the terminal's reply queue has a place: PacketMsg.Reply).
func (e *Endpoint) NotifyRecv(now sim.VTimeInSec, p sim.Port) {
	e.pull(now, p)
	e.host.TickNow(e.host.Freq.ThisTick(now))
}

func (e *Endpoint) pull(now sim.VTimeInSec, p sim.Port) {
	n := e.host.Net
	for msg := p.Peek(); msg != nil; msg = p.Peek() {
		m, ok := msg.(*PacketMsg)
		if !ok {
			p.Retrieve(now)
			continue
		}
		if err := n.Cfg.checkClass(m.Class); err != nil {
			// (The engine cannot take an error here: the run stops and
			// Result reports it, as a refused multicast.)
			if n.emitErr == nil {
				n.emitErr, n.stopped = err, true
			}
			p.Retrieve(now)
			continue
		}
		n.k.SkipTo(int64(e.host.Freq.Cycle(now)))
		wi := int32(-1)
		if m.Reply && n.Cfg.Traffic.ReplyQueue > 0 {
			if wi, ok = n.k.QueueReply(e.term, m.To, m.Flits); !ok {
				e.host.block(e) // (retried after each cycle until a place frees)
				break
			}
		} else {
			wi = n.k.EnqueueMeasured(e.term, m.To, m.Flits)
		}
		p.Retrieve(now)
		n.k.Pool.Worms[wi].Class = uint8(m.Class)
		n.payloads[n.k.Pool.Worms[wi].ID] = m.Payload
	}
}

// NotifyPortFree retries deliveries the peer could not take.
func (e *Endpoint) NotifyPortFree(now sim.VTimeInSec, _ sim.Port) { e.flush(now) }

func (e *Endpoint) deliver(m *DeliveryMsg) {
	e.pending = append(e.pending, m)
	e.flush(e.host.tickTime)
}

func (e *Endpoint) flush(now sim.VTimeInSec) {
	for len(e.pending) > 0 && e.Peer != nil {
		m := e.pending[0]
		m.Src, m.Dst = e.Port, e.Peer
		m.SendTime = now
		m.ID = sim.GetIDGenerator().Generate()
		if e.Port.Send(m) != nil {
			return
		}
		e.pending = e.pending[1:]
	}
}

// Err is the first packet the endpoints refused (a PacketMsg.Class outside
// traffic.classes), which stopped the run, or nil.
func (n *Network) Err() error { return n.emitErr }
