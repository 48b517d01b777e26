package network

import (
	"fmt"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/switch/iq"
	"github.com/flitsim/flitsim/switch/model"
	"github.com/flitsim/flitsim/traffic"
)

// classes is traffic.classes, 1 when absent: the message classes, each on
// its own disjoint set of virtual channels (the iq router's layout).
func (c *Config) classes() int { return max(1, c.Traffic.Classes) }

// replyClass is the class a reply travels on: 1 with two classes or more,
// else 0 (sharing the requests' VCs, which can deadlock).
func (c *Config) replyClass() uint8 { return uint8(min(1, c.classes()-1)) }

// checkMsgClasses refuses traffic.classes and traffic.reply_flits that the
// router cannot run: message classes need virtual channels (router.model
// with VCs; the iq router checks that they fit its buffers.vcs).
func checkMsgClasses(c *Config, name string, info model.Info) error {
	vcs := info.VCs
	t := &c.Traffic
	if t.Classes < 0 || t.Classes > iq.MaxVCs {
		return inputerr.New("traffic.classes", t.Classes, "an integer from 1 to %d (message classes on disjoint VC sets)", iq.MaxVCs)
	}
	if t.Classes > 1 && (name == "" || !vcs) {
		return inputerr.New("traffic.classes", t.Classes, "1 unless router.model names a model with virtual channels (router.model: iq): a class is a set of VCs")
	}
	if t.ReplyFlits < 0 || t.ReplyFlits > 1<<16 {
		return inputerr.New("traffic.reply_flits", t.ReplyFlits, "an integer from 0 (no replies) to 65536")
	}
	sc, _ := traffic.ParseScheme(c.Multicast.Scheme)
	if t.ReplyFlits > 0 && (t.Trace != "" || len(t.Packets) > 0 || isPacket(c) || isSlotted(c) ||
		traffic.IsMulticastPattern(t.Pattern) || sc.Software()) {
		return inputerr.New("traffic.reply_flits", t.ReplyFlits, "0 with a trace, inline packets, a multicast, switching: packet or slotted (replies answer unicast pattern traffic on wormhole networks)")
	}
	switch q := t.ReplyQueue; {
	case q < 0 || q > 1<<16:
		return inputerr.New("traffic.reply_queue", q, "an integer from 0 (none) to 65536")
	case q > 0 && t.ReplyFlits == 0 && (t.Load > 0 || t.Trace != "" || len(t.Packets) > 0):
		return inputerr.New("traffic.reply_queue", q, "0 unless traffic.reply_flits > 0 (a reply queue holds replies), or traffic.load is 0 (replies Akita agents send: PacketMsg.Reply)")
	case q > 0 && (name == "" || !info.Replies):
		return inputerr.New("traffic.reply_queue", q, "0 unless router.model names a model whose terminals may refuse a packet (router.model: iq)")
	}
	return nil
}

// ClassStats is one message class's measured packets (Result.Classes).
type ClassStats struct {
	Class       int     `json:"class"`
	Delivered   int64   `json:"delivered"`
	LatencyMean float64 `json:"latency_mean"`
}

// RoundTrip is request/reply traffic's round trip (Result.RoundTrip): from
// a measured request's generation to its reply's delivery at the
// request's source.
type RoundTrip struct {
	Count int64   `json:"count"`
	Mean  float64 `json:"mean"`
	Max   int64   `json:"max"`
}

// replies answers every delivered request (class 0) with a reply of
// traffic.reply_flits flits from its destination to its source, on the
// reply class, and keeps the per-class and round-trip figures.
type replies struct {
	flits int
	class uint8
	pend  []pendingReply
	req   map[uint64]int64 // reply ID → its request's generation (−1: unmeasured)
	sum   []int64          // per class: measured latency sum
	cnt   []int64
	rt    RoundTrip
	rtSum int64
}

type pendingReply struct {
	src, dst int32
	at, gen  int64 // due (the request's arrival), the request's generation
	measured bool
}

// hookClasses installs the reply generator and the per-class statistics
// when traffic.classes > 1 or traffic.reply_flits > 0 (otherwise nothing:
// the fast paths stay as they are).
func (n *Network) hookClasses() {
	c := &n.Cfg
	if q := c.Traffic.ReplyQueue; q > 0 && !n.k.SetReplyQueue(q, c.Traffic.ReplyFlits > 0) {
		panic("traffic.reply_queue: the switch model has no reply queues") // (checkMsgClasses refused that)
	}
	if c.classes() == 1 && c.Traffic.ReplyFlits == 0 {
		return
	}
	r := &replies{flits: c.Traffic.ReplyFlits, class: c.replyClass(), req: map[uint64]int64{},
		sum: make([]int64, c.classes()), cnt: make([]int64, c.classes())}
	n.replies = r
	prev := n.k.Hooks.Delivered
	n.k.Hooks.Delivered = func(w *flit.Worm, cycle int64) {
		if prev != nil {
			prev(w, cycle)
		}
		r.delivered(w, cycle)
	}
}

func (r *replies) delivered(w *flit.Worm, cycle int64) {
	if w.Measured && int(w.Class) < len(r.sum) {
		r.sum[w.Class] += cycle - w.GenCycle
		r.cnt[w.Class]++
	}
	if gen, ok := r.req[w.ID]; ok {
		delete(r.req, w.ID)
		if gen >= 0 {
			d := cycle - gen
			r.rt.Count++
			r.rtSum += d
			r.rt.Max = max(r.rt.Max, d)
		}
		return
	}
	if r.flits > 0 && w.Class == 0 {
		r.pend = append(r.pend, pendingReply{src: w.Dst, dst: w.Src, at: cycle, gen: w.GenCycle, measured: w.Measured})
	}
}

// flush queues the replies due by cycle now (a request's tail reaches its
// destination at a cycle the kernel may report ahead). A reply to a
// measured request is measured, so that the run waits for it.
func (n *Network) flushReplies(now int64) {
	r := n.replies
	if r == nil || len(r.pend) == 0 {
		return
	}
	keep := r.pend[:0]
	for _, p := range r.pend {
		if p.at > now {
			keep = append(keep, p)
			continue
		}
		gen := int64(-1)
		if p.measured {
			gen = p.gen
		}
		wi := n.k.EnqueueReply(int(p.src), int(p.dst), r.flits, p.measured)
		w := &n.k.Pool.Worms[wi]
		w.Class = r.class
		r.req[w.ID] = gen
	}
	r.pend = keep
}

// classResult fills Result.Classes and Result.RoundTrip.
func (n *Network) classResult(res *Result) {
	r := n.replies
	if r == nil {
		return
	}
	for c := range r.sum {
		s := ClassStats{Class: c, Delivered: r.cnt[c]}
		if r.cnt[c] > 0 {
			s.LatencyMean = float64(r.sum[c]) / float64(r.cnt[c])
		}
		res.Classes = append(res.Classes, s)
	}
	if r.flits > 0 {
		rt := r.rt
		if rt.Count > 0 {
			rt.Mean = float64(r.rtSum) / float64(rt.Count)
		}
		res.RoundTrip = &rt
	}
}

// checkClass refuses a message class outside traffic.classes (an Akita
// PacketMsg's Class).
func (c *Config) checkClass(class int) error {
	if class < 0 || class >= c.classes() {
		return fmt.Errorf("PacketMsg.Class %d: allowed 0 to %d (traffic.classes is %d)", class, c.classes()-1, c.classes())
	}
	return nil
}

// nextDue is the next cycle something is due to enter the network: a
// generated packet or a reply (so that an idle network neither skips past
// a reply nor sleeps or ends before it).
func (n *Network) nextDue(now int64) int64 {
	next := n.gen.NextAt(now)
	if r := n.replies; r != nil {
		for _, p := range r.pend {
			next = min(next, max(p.at, now))
		}
	}
	return next
}

// repliesPending reports whether replies wait to be queued.
func (n *Network) repliesPending() bool { return n.replies != nil && len(n.replies.pend) > 0 }
