package network

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sarchlab/akita/v3/sim"
)

// request and reply are the payloads of server's packets.
type request struct{ from, seq int }
type reply struct{ request }

// server is an Akita agent that sends requests and answers every request
// delivered to it with a reply (PacketMsg.Reply) on class replyClass. It
// holds at most owe replies it has not handed to its endpoint, and
// refuses requests (Endpoint.Accept) while it owes that many.
type server struct {
	*sim.ComponentBase
	port        sim.Port
	ep          *Endpoint
	owed, owe   int
	replyClass  int
	replies     []*PacketMsg // owed replies, handed over first
	outbox      []*PacketMsg // requests
	gotReplies  int
	gotRequests int
}

func (s *server) accept(m *DeliveryMsg) bool {
	if _, ok := m.Payload.(request); !ok {
		return true // (a reply is always taken)
	}
	if s.owed >= s.owe {
		return false
	}
	s.owed++
	return true
}

func (s *server) Handle(sim.Event) error { s.flush(s.ep.host.tickTime); return nil }

func (s *server) NotifyRecv(now sim.VTimeInSec, p sim.Port) {
	for m := p.Retrieve(now); m != nil; m = p.Retrieve(now) {
		d := m.(*DeliveryMsg)
		switch q := d.Payload.(type) {
		case request:
			s.gotRequests++
			s.replies = append(s.replies, &PacketMsg{To: d.From, Flits: 4, Class: s.replyClass, Reply: true, Payload: reply{q}})
		case reply:
			s.gotReplies++
		}
	}
	s.flush(now)
}

func (s *server) NotifyPortFree(now sim.VTimeInSec, _ sim.Port) { s.flush(now) }

// flush hands the replies, then the requests, to the endpoint in order
// until its port is full (a reply first: it frees a place, and a request
// queued first could wait for the network forever).
func (s *server) flush(now sim.VTimeInSec) {
	for _, q := range []*[]*PacketMsg{&s.replies, &s.outbox} {
		for len(*q) > 0 {
			m := (*q)[0]
			m.Src, m.Dst, m.SendTime = s.port, s.ep.Port, now
			if s.port.Send(m) != nil {
				return
			}
			if m.Reply {
				s.owed--
			}
			*q = (*q)[1:]
		}
	}
}

// serveAll runs 16 servers on the 4×4 mesh (iq, 2 VCs, reply queues of 2
// places), each sending reqs 4-flit requests to random others at once, in
// classes message classes (replies on the last), and returns the network
// and the servers.
func serveAll(t *testing.T, classes, reqs int) (*Network, []*server) {
	t.Helper()
	c := classCfg(2, classes, 0)
	c.Traffic.ReplyQueue, c.Run.MaxBacklog = 2, 0
	n, engine, eps := akitaNet(t, c)
	rng := rand.New(rand.NewPCG(1, 2))
	var ss []*server
	for i, ep := range eps {
		s := &server{ComponentBase: sim.NewComponentBase(sim.BuildNameWithIndex("S", "Server", i)), ep: ep, owe: 2, replyClass: classes - 1}
		s.port = sim.NewLimitNumMsgPort(s, 4, s.Name()+".Port")
		wire(engine, sim.BuildNameWithIndex("S", "Conn", i), s.port, ep)
		ep.Accept = s.accept
		for q := range reqs {
			to := (i + 1 + rng.IntN(len(eps)-1)) % len(eps)
			s.outbox = append(s.outbox, &PacketMsg{To: to, Flits: 4, Payload: request{i, q}})
		}
		engine.Schedule(sim.NewEventBase(0, s))
		ss = append(ss, s)
	}
	if err := engine.Run(); err != nil {
		t.Fatal(err)
	}
	return n, ss
}

// Akita agents that answer requests see what the terminals of
// traffic.reply_queue see: with requests and replies on one class, the
// agents' refusals back requests up into the VCs the replies need, and the
// run stops on a protocol deadlock whose report names a terminal's full
// reply queue; with replies on a class of their own every request is
// answered.
func TestAkitaProtocolDeadlock(t *testing.T) {
	n, ss := serveAll(t, 1, 60)
	dl := n.Result().Deadlock
	if dl == nil {
		t.Fatal("one class: no deadlock")
	}
	if all := strings.Join(dl.Resources, "\n"); !strings.Contains(all, "its reply queue is full (2 replies)") {
		t.Fatalf("one class: the report does not name a full reply queue:\n%s", all)
	}
	n, ss = serveAll(t, 2, 60)
	if r := n.Result(); r.Deadlock != nil || r.Stall != nil {
		t.Fatalf("two classes: deadlock %+v stall %+v", r.Deadlock, r.Stall)
	}
	for i, s := range ss {
		if s.gotReplies != 60 || s.owed != 0 || len(s.outbox)+len(s.replies) != 0 {
			t.Fatalf("two classes: server %d got %d replies of 60, owes %d, %d requests and %d replies unsent", i, s.gotReplies, s.owed, len(s.outbox), len(s.replies))
		}
	}
}
