package network

import (
	"container/heap"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/traffic"
)

// Software multicast on the simulated network (Chiang 1995 Ch. 4 and 7;
// multicast.scheme separate, umin or cmin).
//
// swDriver is the run's traffic generator: it wraps the configured one and
// turns every multicast that generator emits into the unicasts of
// traffic.Schedule. The source queues its unicasts, in schedule order, with
// Kernel.Enqueue when the message is created; the kernel's source queue
// sends a node's packets one after the other (a one-port node). When a
// unicast's tail reaches its destination (the collector's delivery
// callback), the recipient has the whole message; from that cycle (plus
// multicast.receive_latency) it queues its own unicasts. Queuing happens in
// the driver's Generate at the start of that cycle, so a node forwards in
// the cycle after the tail crossed its ejection link, exactly as a
// generated packet would leave. With multicast.send_latency S a node's
// processor spends S cycles on each unicast before queuing it, one unicast
// at a time (across all messages the node handles), so the j-th unicast of
// a node that has the message at cycle t is queued at t + j·S at the
// earliest.
//
// Each message is measured as one packet: its latency runs from its
// creation to the cycle its last destination has it (network_latency from
// the cycle its first unicast entered the network). The unicasts themselves
// count in the injected/delivered packet totals, the offered and accepted
// flits and the channel utilisation.
type swDriver struct {
	n      *Network
	inner  traffic.Generator
	scheme traffic.Scheme
	sendL  int64
	recvL  int64

	msgs  []swMsg
	free  []int32
	sent  map[uint64]swRef // unicast in flight, by worm ID
	due   swHeap           // node sends waiting for their cycle
	seq   uint64           // insertion order of due sends (ties)
	cpu   []int64          // per node: first cycle its processor is free to send
	now   int64            // cycle of the current Generate
	inGen bool
}

// swMsg is one software multicast in progress.
type swMsg struct {
	sends    []traffic.Send
	src      int32
	flits    int32
	left     int32 // destinations still without the message
	measured bool
	gen, inj int64
	last     int64
	hops, n  int64 // switches crossed by its unicasts, and their number
}

// swRef names a unicast of a message.
type swRef struct {
	msg   int32
	to    int32
	first bool // the source's first unicast (its injection starts the message)
}

// swSend is a unicast due to be queued at cycle at.
type swSend struct {
	at   int64
	seq  uint64
	msg  int32
	from int32
	to   int32
	idx  int32 // index in the message's sends
}

type swHeap []swSend

func (h swHeap) Len() int { return len(h) }
func (h swHeap) Less(i, j int) bool {
	return h[i].at < h[j].at || h[i].at == h[j].at && h[i].seq < h[j].seq
}
func (h swHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *swHeap) Push(x any)   { *h = append(*h, x.(swSend)) }
func (h *swHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func newSWDriver(n *Network, inner traffic.Generator, scheme traffic.Scheme) *swDriver {
	d := &swDriver{
		n: n, inner: inner, scheme: scheme,
		sendL: int64(n.Cfg.Multicast.SendLatency), recvL: int64(n.Cfg.Multicast.ReceiveLatency),
		sent: map[uint64]swRef{},
		cpu:  make([]int64, n.k.Topo.Terminals()),
	}
	n.k.Stats().PerMessage(d.delivered)
	return d
}

// NextAt is the earlier of the wrapped generator's next cycle and the next
// due send.
func (d *swDriver) NextAt(now int64) int64 {
	t := d.inner.NextAt(now)
	if len(d.due) > 0 {
		t = min(t, max(d.due[0].at, now))
	}
	return t
}

// Generate queues the sends due by now, then lets the wrapped generator
// create this cycle's messages (which come back through EmitMulticast).
func (d *swDriver) Generate(now int64, _ traffic.Emitter) {
	d.now, d.inGen = now, true
	for len(d.due) > 0 && d.due[0].at <= now {
		s := heap.Pop(&d.due).(swSend)
		d.enqueue(s)
	}
	if d.inner.NextAt(now) <= now {
		d.inner.Generate(now, d)
	}
	d.inGen = false
}

// Emit is a message with one destination.
func (d *swDriver) Emit(src, dst, flits int) { d.EmitMulticast(src, []int{dst}, flits) }

// EmitMulticast starts a software multicast from src to dsts in the
// current cycle.
func (d *swDriver) EmitMulticast(src int, dsts []int, flits int) {
	sends := traffic.Schedule(d.scheme, src, dsts)
	if len(sends) == 0 {
		return // no destination other than the source
	}
	var mi int32
	if k := len(d.free); k > 0 {
		mi = d.free[k-1]
		d.free = d.free[:k-1]
	} else {
		d.msgs = append(d.msgs, swMsg{})
		mi = int32(len(d.msgs) - 1)
	}
	m := &d.msgs[mi]
	*m = swMsg{sends: sends, src: int32(src), flits: int32(flits), left: int32(len(sends)),
		gen: d.now, inj: -1, last: d.now}
	m.measured = d.n.k.Stats().Message(d.now)
	d.has(mi, int32(src), d.now)
}

// has schedules the sends of node v, which has message mi from cycle at.
func (d *swDriver) has(mi, v int32, at int64) {
	m := &d.msgs[mi]
	for i, s := range m.sends {
		if int32(s.From) != v {
			continue
		}
		t := max(at, d.cpu[v]) + d.sendL
		d.cpu[v] = t
		x := swSend{at: t, seq: d.seq, msg: mi, from: v, to: int32(s.To), idx: int32(i)}
		d.seq++
		if d.inGen && t <= d.now {
			d.enqueue(x)
			continue
		}
		heap.Push(&d.due, x)
	}
}

// enqueue hands one unicast to the kernel.
func (d *swDriver) enqueue(s swSend) {
	m := &d.msgs[s.msg]
	k := d.n.k
	wi := k.Enqueue(int(s.from), int(s.to), int(m.flits))
	// sends[0] is the source's step-1 unicast, the message's first.
	d.sent[k.Pool.Worms[wi].ID] = swRef{msg: s.msg, to: s.to, first: s.idx == 0}
}

// delivered is called by the collector for every delivered packet.
func (d *swDriver) delivered(w *flit.Worm, arrive int64) {
	ref, ok := d.sent[w.ID]
	if !ok {
		return // not a software multicast unicast
	}
	delete(d.sent, w.ID)
	m := &d.msgs[ref.msg]
	if ref.first {
		m.inj = w.InjCycle
	}
	m.hops += int64(w.Hops)
	m.n++
	at := arrive + d.recvL
	m.last = max(m.last, at)
	m.left--
	d.has(ref.msg, ref.to, at)
	if m.left > 0 {
		return
	}
	if m.measured {
		d.n.k.Stats().MessageDone(m.gen, m.inj, m.last, m.hops, m.n)
	}
	if c, ok := d.inner.(traffic.Completer); ok {
		c.Delivered(int(m.src), m.last) // (a blocking task computes again)
	}
	m.sends = nil
	d.free = append(d.free, ref.msg)
}

var _ traffic.MulticastEmitter = (*swDriver)(nil)
var _ traffic.Generator = (*swDriver)(nil)
