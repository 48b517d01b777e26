package kernel

import (
	"fmt"
	"slices"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/network/topology"
	xbar "github.com/flitsim/flitsim/switch"
	"github.com/flitsim/flitsim/switch/model"
)

// publicModel hosts a switch model written against the public seam
// (package switch/model) as a Stepper: the kernel keeps the terminals
// (source queues and registers, ejection, statistics, hooks), the channel
// counts, the tracer and the deadlock report; the model keeps its own
// buffers and decides its moves. It is also the model's Host.
type publicModel struct {
	k      *Kernel
	m      model.Model
	params model.Params
	// inBuf is, per global port (switch, input port), the kernel's input
	// buffer that names the port in traces and reports, or −1.
	inBuf []int32
	// far is, per global output port, where the model's moves through it
	// go in the kernel's terms: a terminal (≥ nb), the input buffer that
	// names the far input port, or −1.
	far    []int32
	moved  int     // flits moved in the cycle being stepped
	inside int     // flits taken from the sources and not yet delivered (InFlight)
	wormAt []int64 // per worm pool index: the last cycle a flit of it moved
	waits  []model.Wait
	member []bool       // deadlock check scratch, per worm pool index
	rq     *replyQueues // the terminals' reply queues (traffic.reply_queue), or nil
	// Escaped cycles (public_escape.go): the checks that found one, the
	// first, and scratch.
	escaped     int64
	firstEscape *EscapedCycle
	noEsc       []model.Wait
	escAll      []model.Wait
	movedWaits  []model.Wait // waits of packets some flit of which moved in the cycle
}

// newPublic builds the host of registered model info for kernel k, whose
// spec's Public carries the keys the kernel does not read itself.
func newPublic(k *Kernel, info model.Info) (Stepper, error) {
	s := k.spec
	p := &publicModel{k: k, params: s.Public}
	p.params.InputDepth, p.params.OutputDepth = s.InDepth, s.OutDepth
	p.params.LinkLatency, p.params.Seed = s.Latency, s.Seed
	if p.params.VCs == 0 {
		p.params.VCs = 1
	}
	k.fast = false // (the flit crossbar's fast path and lanes do not apply)
	k.srcFull = make([]uint64, (k.Topo.Terminals()+63)/64)
	for t, b := range k.srcBuf {
		if !k.bs[b].Empty() {
			k.srcFull[t>>6] |= 1 << uint(t&63)
		}
	}
	p.inBuf = fill(int(k.portBase[len(k.Topo.Switches)]), -1)
	for b := int32(0); b < k.nb; b++ {
		if k.bs[b].kind == kindIn {
			p.inBuf[k.portBase[k.bSw[b]]+k.bPort[b]] = b
		}
	}
	p.far = fill(len(p.inBuf), -1)
	for si, sw := range k.Topo.Switches {
		for o, e := range sw.Out {
			gp := k.portBase[si] + int32(o)
			switch {
			case e.Switch >= 0:
				p.far[gp] = p.inBuf[k.portBase[e.Switch]+e.Port]
			case e.Terminal >= 0:
				p.far[gp] = k.nb + e.Terminal
			}
		}
	}
	m, err := info.New(p)
	if err != nil {
		return nil, err
	}
	p.m = m
	return p, nil
}

func (p *publicModel) step(k *Kernel) {
	k.placeLater()
	p.moved = 0
	p.m.Step()
	k.nmoved = p.moved
	if k.Deadlock == nil && (k.CheckDeadlock || p.moved == 0 && k.Pool.Live() > 0) {
		k.Deadlock = p.detect()
	}
	if k.tr != nil {
		p.traceBlocked()
	}
	k.settle(&k.whole)
	if k.tr != nil {
		k.tr.EndCycle(k.now)
	}
	k.now++
}

// The kernel's own buffers hold only the source registers here: nothing
// the flit crossbar's detector or tracer could ask about.
func (p *publicModel) moves(*Kernel, int32) bool { return false }

func (p *publicModel) rule(*Kernel, int32, *holds) bool { return false }

// Host methods.

func (p *publicModel) Topology() *topology.Topology { return p.k.Topo }
func (p *publicModel) Params() model.Params         { return p.params }
func (p *publicModel) Now() int64                   { return p.k.now }
func (p *publicModel) Packet(wi int32) *flit.Worm   { return &p.k.Pool.Worms[wi] }

func (p *publicModel) Route(sw, in int, wi int32) xbar.PortSet {
	k := p.k
	w := &k.Pool.Worms[wi]
	if k.stateful != nil {
		return k.stateful.RouteHead(sw, in, w, &w.Route)
	}
	return k.Topo.Router.Route(sw, in, w)
}

func (p *publicModel) Source(t int) (flit.Flit, bool) {
	k := p.k
	x := &k.bs[k.srcBuf[t]]
	if x.Empty() || !x.Front().Ready(k.now) {
		return flit.Flit{}, false
	}
	return *x.Front(), true
}

func (p *publicModel) TakeSource(t int) {
	k := p.k
	now := k.now
	b := k.srcBuf[t]
	x := &k.bs[b]
	f := x.Pop()
	k.bs[b].moved = now
	p.enter(t, b, x, f, now)
	k.afterMove(b, x, &f, f.Kind >= flit.Tail, now)
	if x.Empty() { // (afterMove's refill sets the bit again)
		k.srcFull[t>>6] &^= 1 << uint(t&63)
	}
}

// enter is a flit of terminal t (a source's or a reply's) crossing its
// injection link, source register b, into the network: the packet's
// injection cycle, the link's use, the trace, the counts.
func (p *publicModel) enter(t int, b int32, x *bufState, f flit.Flit, now int64) {
	k := p.k
	if f.Seq == 0 {
		k.Pool.Worms[f.Worm].InjCycle = now
	}
	if x.ch >= 0 {
		k.whole.carry(&k.chans[x.ch], now)
	}
	if k.tr != nil {
		gp := k.portBase[k.Topo.InSwitch[t]] + k.Topo.InPort[t]
		k.tr.Move(now, f, b, p.inBuf[gp], x.ch, now+int64(x.lat))
	}
	p.note(f.Worm)
	p.inside++
}

// Offering is model.Offers: the terminals whose source register holds a
// flit (refill sets a bit, TakeSource clears it).
func (p *publicModel) Offering() []uint64 { return p.k.srcFull }

func (p *publicModel) Send(sw, in, out int, f *flit.Flit, at int64) {
	k := p.k
	gp := k.portBase[sw] + int32(out)
	if f.IsHead() {
		k.Pool.Worms[f.Worm].Hops++
		f.Hops++
	}
	k.FlitHops++
	k.whole.carry(&k.Links[gp], k.now)
	d := p.far[gp]
	if k.tr != nil {
		from := int32(-1) // (an input the model does not name)
		if in >= 0 {
			from = p.inBuf[k.portBase[sw]+int32(in)]
		}
		k.tr.Move(k.now, *f, from, d, gp, at)
	}
	p.note(f.Worm)
	if d >= k.nb {
		p.inside--
		if p.rq != nil && f.IsTail() {
			p.rq.delivered(f.Worm)
		}
		k.eject(d-k.nb, f, at)
	}
}

// flitsInside is what the model's buffers and pipelines hold: the flits it
// took from the sources less those it delivered (the kernel's buffers,
// which InFlight counts for the flit crossbar, are not the model's).
func (p *publicModel) flitsInside() int { return p.inside }

func (p *publicModel) Occupancy(flits int) { p.k.maxOcc = max(p.k.maxOcc, int32(flits)) }

// note counts a move of a flit of worm wi.
func (p *publicModel) note(wi int32) {
	p.moved++
	p.grow(wi)
	p.wormAt[wi] = p.k.now
}

// collectWaits asks the model for its waits (lasting ones only, each of a
// packet that did not move in this cycle, on another packet).
func (p *publicModel) collectWaits() []model.Wait {
	p.waits, p.movedWaits = p.waits[:0], p.movedWaits[:0]
	now := p.k.now
	p.m.Waits(func(w model.Wait) {
		wi := w.Flit.Worm
		if w.Kind == model.WaitTerminal {
			w.For = p.rq.waitsFor(p.terminalOf(w.AtSw, w.AtOut))
		}
		// (Without reply queues no packet waits for a source register,
		// so its waits close no cycle.)
		// (An escape VC that is free, For −1, is kept: it lets the
		// packet out of the set, and escapes() needs to know.)
		if w.Source && p.rq == nil || w.For < 0 && !w.Escape || w.For == wi {
			return
		}
		if int(wi) < len(p.wormAt) && p.wormAt[wi] == now {
			p.movedWaits = append(p.movedWaits, w) // (for escapes only)
			return
		}
		p.waits = append(p.waits, w)
	})
	slices.SortStableFunc(p.waits, func(a, b model.Wait) int { return int(a.Flit.Worm) - int(b.Flit.Worm) })
	return p.waits
}

// detect finds the largest set of packets that each wait only for packets
// of the set (the wait-for graph over packets: an edge P → Q when a flit
// of P waits for something Q holds; any one of P's waits ending lets P go,
// so P leaves the set when one of its edges leaves it), and reports a
// cycle in it, or nil.
func (p *publicModel) detect() *Deadlock {
	ws := p.collectWaits()
	esc := false
	for _, w := range ws {
		p.grow(max(w.Flit.Worm, w.For))
		p.member[w.Flit.Worm] = true
		esc = esc || w.Escape
	}
	for _, w := range p.movedWaits {
		esc = esc || w.Escape
	}
	p.settleMembers(ws)
	var dl *Deadlock
	for _, w := range ws {
		if p.member[w.Flit.Worm] {
			dl = p.report(ws)
			break
		}
	}
	for _, w := range ws {
		p.member[w.Flit.Worm] = false
	}
	if dl == nil && esc {
		p.escapes(ws)
	}
	return dl
}

// settleMembers takes out of the set (member) every packet one of whose
// waits ws is on a packet outside it, until none is left to take.
func (p *publicModel) settleMembers(ws []model.Wait) {
	for changed := true; changed; {
		changed = false
		for _, w := range ws {
			if p.member[w.Flit.Worm] && (w.For < 0 || !p.member[w.For]) {
				p.member[w.Flit.Worm] = false
				changed = true
			}
		}
	}
}

// grow makes the per-worm slices cover pool index wi.
func (p *publicModel) grow(wi int32) {
	for int(wi) >= len(p.member) {
		p.wormAt = append(p.wormAt, -1)
		p.member = append(p.member, false)
	}
}

// report names a cycle of the deadlocked set: its packets, and for each
// the wait on the next (maps only here, off the hot path).
func (p *publicModel) report(ws []model.Wait) *Deadlock {
	dl, _ := p.cycleReport(ws)
	return dl
}

// cycleReport is report, also giving the cycle's packets (pool indices).
func (p *publicModel) cycleReport(ws []model.Wait) (*Deadlock, []int32) {
	k := p.k
	next := map[int32][]int32{}
	first := map[[2]int32]model.Wait{}
	var worms []int32
	for _, w := range ws {
		a := w.Flit.Worm
		if w.For < 0 || !p.member[a] || !p.member[w.For] {
			continue
		}
		if len(next[a]) == 0 {
			worms = append(worms, a)
		}
		e := [2]int32{a, w.For}
		if _, dup := first[e]; !dup {
			first[e] = w
			next[a] = append(next[a], w.For)
		}
	}
	cycle := wormCycle(worms, next)
	dl := &Deadlock{Cycle: k.now}
	seen := map[string]bool{}
	for i, wi := range cycle {
		w := &k.Pool.Worms[wi]
		dl.Worms = append(dl.Worms, DeadlockWorm{ID: w.ID, Src: w.Src, Dst: k.dests(wi)})
		e := first[[2]int32{wi, cycle[(i+1)%len(cycle)]}]
		dl.Resources = append(dl.Resources, p.describe(e))
		for _, s := range []int{e.Sw, e.AtSw} {
			if l := k.Topo.Switches[s].Label; !seen[l] {
				seen[l] = true
				dl.Switches = append(dl.Switches, l)
			}
		}
		dl.Since = max(dl.Since, p.wormAt[wi]+1)
	}
	slices.Sort(dl.Switches)
	return dl, cycle
}

// describe words wait e: where the flit waits (switch, input port,
// virtual channel) and what for.
func (p *publicModel) describe(e model.Wait) string {
	k := p.k
	if e.Source {
		return p.describeSource(e)
	}
	w := &k.Pool.Worms[e.Flit.Worm]
	at := fmt.Sprintf("worm %d (%d→%d) at %s", w.ID, w.Src, w.Dst, k.Topo.Switches[e.Sw].Label)
	if e.In >= 0 {
		at += fmt.Sprintf(".in[%s] vc %d", k.portName(e.In), e.VC)
	}
	what := k.PortName(k.portBase[e.AtSw] + int32(e.AtOut))
	if e.AtVC >= 0 {
		what += fmt.Sprintf(" vc %d", e.AtVC)
	}
	held := k.Pool.Worms[e.For].ID
	switch e.Kind {
	case model.WaitTerminal:
		return p.describeTerminal(at, e)
	case model.WaitCredit:
		return fmt.Sprintf("%s waits for a credit of %s: the buffer beyond is full (front: worm %d)", at, what, held)
	case model.WaitVC:
		return fmt.Sprintf("%s waits for output VC %s, held by worm %d", at, what, held)
	}
	return fmt.Sprintf("%s waits for %s (%s), held by worm %d", at, what, e.Kind, held)
}

// traceBlocked tells the tracer about the waits the model reports.
func (p *publicModel) traceBlocked() {
	k := p.k
	now := k.now
	p.waits = p.waits[:0]
	p.m.Waits(func(w model.Wait) { p.waits = append(p.waits, w) })
	escFlit := flit.Flit{Worm: -1}
	for _, w := range p.waits {
		if w.Source || w.Flit == escFlit {
			continue // (no buffer of the tracer's holds it; or see below)
		}
		if w.Escape && w.For < 0 {
			// It passes by its free escape VC: one event, as a lost
			// arbitration, not the adaptive VCs' holders after it.
			escFlit, w.AtOut = w.Flit, -1
		}
		gp := k.portBase[w.AtSw] + int32(w.AtOut)
		reason, at := WaitArb, int32(-1)
		switch w.Kind {
		case model.WaitStage:
			reason = WaitLink // (the tracer's "still on the link or in the routing delay")
		case model.WaitVC, model.WaitPort, model.WaitTerminal:
			reason, at = WaitPort, gp
		case model.WaitCredit:
			reason, at = WaitSpace, p.far[gp]
		}
		from := int32(-1)
		if w.In >= 0 {
			from = p.inBuf[k.portBase[w.Sw]+int32(w.In)]
		}
		k.tr.Blocked(now, w.Flit, from, reason, w.For, at)
	}
}
