package kernel

import (
	"fmt"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/switch/model"
)

// replyQueues are the terminals' reply queues (traffic.reply_queue) under a
// public switch model: a terminal that answers requests keeps its replies
// in a queue of depth places beside its source queue, and refuses a
// request while every place is taken (by a reply queued, or due for a
// request it has accepted). A refused request's head waits before the
// ejection port, so a full reply queue backs up into the network: the
// protocol deadlock of real terminals when requests and replies share
// virtual channels.
type replyQueues struct {
	depth   int32
	answers bool // the network answers requests (traffic.reply_flits): a request takes a place when accepted
	// accept is the terminals' own say (an Akita endpoint's Accept), or nil
	accept   func(term int32, w *flit.Worm) bool
	q        []wormQueue // per terminal: its replies, front first
	issued   []int32     // per terminal: flits of the front reply taken
	takenAt  []int64     // per terminal: the last cycle a reply flit was taken
	held     []int32     // per terminal: places taken
	reply    []bool      // per worm pool index: a reply (it answers nothing and is always accepted)
	accepted []bool      // per worm pool index: its destination has accepted it (Accept asks once)
}

// SetReplyQueue gives every terminal a reply queue of depth places (a
// public model that declares model.Info.Replies; see replyQueues), for
// the replies the network makes (answers: traffic.reply_flits) or those
// Akita agents hand over (QueueReply). It reports false for a kernel
// whose switch model has none.
func (k *Kernel) SetReplyQueue(depth int, answers bool) bool {
	p, ok := k.stepper.(*publicModel)
	if !ok || depth < 1 {
		return false
	}
	n := k.Topo.Terminals()
	p.rq = &replyQueues{depth: int32(depth), answers: answers, q: make([]wormQueue, n), issued: make([]int32, n),
		takenAt: make([]int64, n), held: make([]int32, n)}
	for t := range p.rq.takenAt {
		p.rq.takenAt[t] = -1
	}
	return true
}

// EnqueueReply queues a reply of flits flits from src to dst in the current
// cycle, measured or not: in src's reply queue if it has one (a place its
// request took when it was accepted), else in its source queue as any
// packet. It returns the worm's pool index.
func (k *Kernel) EnqueueReply(src, dst, flits int, measured bool) int32 {
	p, _ := k.stepper.(*publicModel)
	if p == nil || p.rq == nil {
		if measured {
			return k.EnqueueMeasured(src, dst, flits)
		}
		return k.Enqueue(src, dst, flits)
	}
	wi := k.newUnicast(src, dst, flits)
	k.placeLater() // (the statistics count packets in the order they are made)
	if w := &k.Pool.Worms[wi]; k.stats != nil && measured {
		k.stats.generatedMeasured(w, k.now)
	} else if k.stats != nil {
		k.stats.generated(w, k.now)
	}
	rq := p.rq
	for int(wi) >= len(rq.reply) {
		rq.reply, rq.accepted = append(rq.reply, false), append(rq.accepted, false)
	}
	rq.reply[wi] = true
	rq.q[src].push(wi)
	return wi
}

// SetTerminalAccept gives the terminals a say in what they take: f is
// asked once a packet's head is bound for terminal term, until it says
// true (Accept). It reports false without reply queues (SetReplyQueue).
func (k *Kernel) SetTerminalAccept(f func(term int32, w *flit.Worm) bool) bool {
	p, ok := k.stepper.(*publicModel)
	if !ok || p.rq == nil {
		return false
	}
	p.rq.accept = f
	return true
}

// QueueReply is EnqueueReply for a reply an Akita agent hands over
// (measured): it takes a place in src's reply queue, and reports false,
// queueing nothing, when every place is taken.
func (k *Kernel) QueueReply(src, dst, flits int) (int32, bool) {
	p, _ := k.stepper.(*publicModel)
	if p == nil || p.rq == nil || p.rq.held[src] >= p.rq.depth {
		return -1, false
	}
	p.rq.held[src]++
	return k.EnqueueReply(src, dst, flits, true), true
}

// request reports whether packet wi makes a reply where it is delivered:
// every packet of class 0 that is not itself a reply, when the network
// answers requests (network/classes.go).
func (rq *replyQueues) request(k *Kernel, wi int32) bool {
	return rq.answers && k.Pool.Worms[wi].Class == 0 && (int(wi) >= len(rq.reply) || !rq.reply[wi])
}

func (p *publicModel) Accept(t int, wi int32) bool {
	rq := p.rq
	if rq == nil {
		return true
	}
	for int(wi) >= len(rq.reply) {
		rq.reply, rq.accepted = append(rq.reply, false), append(rq.accepted, false)
	}
	if rq.accepted[wi] {
		return true
	}
	req := rq.request(p.k, wi)
	if req && rq.held[t] >= rq.depth || rq.accept != nil && !rq.accept(int32(t), &p.k.Pool.Worms[wi]) {
		return false
	}
	if req {
		rq.held[t]++
	}
	rq.accepted[wi] = true
	return true
}

func (p *publicModel) ReplySource(t int) (flit.Flit, bool) {
	rq := p.rq
	if rq == nil || rq.q[t].n == 0 || rq.takenAt[t] == p.k.now {
		return flit.Flit{}, false
	}
	wi, n := rq.q[t].front(), rq.issued[t]
	f := flit.Flit{Worm: wi, Seq: n, Kind: flit.KindOf(n, p.k.Pool.Worms[wi].Len)}
	f.SetReady(p.k.now)
	return f, true
}

// TakeReply takes terminal t's reply flit into the network: across the
// injection link, as TakeSource (the link's use, the trace, InjCycle).
func (p *publicModel) TakeReply(t int) {
	k, rq := p.k, p.rq
	f, ok := p.ReplySource(t)
	if !ok {
		panic(fmt.Sprintf("TakeReply(%d): terminal %d's reply register is empty", t, t))
	}
	now := k.now
	b := k.srcBuf[t]
	p.enter(t, b, &k.bs[b], f, now)
	rq.takenAt[t] = now
	rq.issued[t]++
	if rq.issued[t] == k.Pool.Worms[f.Worm].Len {
		rq.q[t].popIf(1)
		rq.issued[t] = 0
		rq.held[t]-- // (its place frees as its tail leaves)
	}
}

// delivered forgets what it knew of packet wi, as its tail reaches its
// terminal (its pool index is used again).
func (rq *replyQueues) delivered(wi int32) {
	if int(wi) < len(rq.reply) {
		rq.reply[wi], rq.accepted[wi] = false, false
	}
}

// waitsFor is what a head that terminal t refuses waits for: while its
// reply queue is full, t's next reply, whose tail leaving frees a place
// (−1 when none is queued: its places are taken by replies due, which
// pass; or when a place is free: an agent refuses, for its own reasons).
func (rq *replyQueues) waitsFor(t int32) int32 {
	if rq == nil || rq.q[t].n == 0 || rq.held[t] < rq.depth {
		return -1
	}
	return rq.q[t].front()
}

// terminalOf is the terminal an output port leads to (WaitTerminal's).
func (p *publicModel) terminalOf(sw, out int) int32 {
	return p.far[p.k.portBase[sw]+int32(out)] - p.k.nb
}

// describeTerminal words a refused head's wait: where it waits, and the
// terminal's full reply queue with the reply it waits for.
func (p *publicModel) describeTerminal(at string, e model.Wait) string {
	k := p.k
	t := p.terminalOf(e.AtSw, e.AtOut)
	r := &k.Pool.Worms[e.For]
	return fmt.Sprintf("%s waits for terminal %d: its reply queue is full (%d replies); its next reply is worm %d (%d→%d)",
		at, t, p.rq.held[t], r.ID, r.Src, r.Dst)
}

// describeSource words the wait of a flit still in a terminal's register.
func (p *publicModel) describeSource(e model.Wait) string {
	k := p.k
	w := &k.Pool.Worms[e.Flit.Worm]
	what := "packet"
	if p.rq != nil && !p.rq.request(k, e.Flit.Worm) {
		what = "reply"
	}
	vc := fmt.Sprintf("injection VC %d of %s.in[%s]", e.AtVC, k.Topo.Switches[e.Sw].Label, k.portName(e.In))
	at := fmt.Sprintf("terminal %d's %s worm %d (%d→%d)", w.Src, what, w.ID, w.Src, w.Dst)
	held := k.Pool.Worms[e.For].ID
	if e.Kind == model.WaitCredit {
		return fmt.Sprintf("%s waits for a credit of %s: the buffer beyond is full (front: worm %d)", at, vc, held)
	}
	return fmt.Sprintf("%s waits for %s, held by worm %d", at, vc, held)
}
