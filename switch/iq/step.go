package iq

import (
	"math"
	"math/bits"

	"github.com/flitsim/flitsim/flit"
	xbar "github.com/flitsim/flitsim/switch"
)

// Step simulates one cycle (the package documentation states its rule).
func (r *router) Step() {
	now := r.h.Now()
	if len(r.outQ) > 0 {
		r.sendQueued(now)
	}
	for ov := r.credits.pop(now); ov >= 0; ov = r.credits.pop(now) {
		r.cred[ov]++
		if r.ovs[ov].tailOut && r.cred[ov] == int32(r.d) {
			v := int32(r.v)
			r.free(ov/v, ov%v) // (a division, once a packet and hop)
		}
	}
	if r.replyQ {
		for term := range r.nTerm {
			// A terminal sends one flit a cycle: a reply first (its tail
			// frees a place in the reply queue), else its own packet.
			if !r.inject(term, r.nTerm+term, now) {
				r.inject(term, term, now)
			}
		}
	} else if r.offer != nil {
		// Only the terminals with a flit in their register (in terminal
		// order, as below): an inject changes no other terminal's bit.
		for i, w := range r.offer {
			for ; w != 0; w &= w - 1 {
				term := i<<6 | bits.TrailingZeros64(w)
				r.inject(term, term, now)
			}
		}
	} else {
		for term := range r.nTerm {
			r.inject(term, term, now)
		}
	}
	for s := range r.occ {
		if r.occ[s] > 0 {
			if r.needVA[s] > 0 && now >= r.vaAt[s] {
				r.vcAlloc(s, now)
			}
			r.swAlloc(s, now)
		}
	}
}

// hold gives VC vc of output port op (a global output port, or nGP +
// terminal for an injection port) to input VC (or terminalOwner) owner
// and packet p.
func (r *router) hold(op, vc, owner, p int32) {
	ov := op*int32(r.v) + vc
	r.ovs[ov].owner, r.ovs[ov].holder = owner, p
	r.freeOV[op] &^= 1 << vc
}

// free makes VC vc of output port op free again.
func (r *router) free(op, vc int32) {
	ov := op*int32(r.v) + vc
	r.ovs[ov].owner, r.ovs[ov].holder, r.ovs[ov].tailOut = -1, -1, false
	r.freeOV[op] |= 1 << vc
}

// release gives up VC vc of output port op after its tail has been sent:
// at once with vc.release: tail, when its credits are all back with
// tail-credit (an ejection VC, whose credits never run out, at once in
// both; an escape VC at once under adaptive routing's default: escTail).
func (r *router) release(op, vc int32, eject bool) {
	if r.tailCr && !eject && !(r.escTail && int(vc)%r.share < r.nEsc) {
		r.ovs[op*int32(r.v)+vc].tailOut = true
		return
	}
	r.free(op, vc)
}

// inject sends terminal term's ready flit of register lane (term: its
// source register; nTerm + term: its reply register) into its router, and
// reports whether it did.
func (r *router) inject(term, lane int, now int64) bool {
	var f flit.Flit
	var ok bool
	if lane == term { // (src's, written out: a call per terminal and cycle)
		f, ok = r.h.Source(term)
	} else {
		f, ok = r.h.ReplySource(term)
	}
	if !ok {
		return false
	}
	op := r.nGP + int32(term)
	ob := op * int32(r.v)
	if r.injVC[lane] < 0 {
		// A head takes a free VC of routing class 0 in its message
		// class's share, round-robin.
		share := int32(r.share / r.classes)
		mb := int32(r.h.Packet(f.Worm).Class) * int32(r.share)
		for i := range share {
			u := mb + (r.injPtr[term]+i)%share
			if r.ovs[ob+u].owner == -1 {
				r.hold(op, u, terminalOwner, f.Worm)
				r.injVC[lane], r.injPtr[term] = u, (u-mb+1)%share
				break
			}
		}
		if r.injVC[lane] < 0 {
			return false
		}
	}
	u := r.injVC[lane]
	if r.cred[ob+u] <= 0 {
		return false
	}
	if lane == term {
		r.h.TakeSource(term)
	} else {
		r.h.TakeReply(term)
	}
	r.cred[ob+u]--
	in := r.base[r.t.InSwitch[term]] + r.t.InPort[term]
	r.arrive(in, u, &f, now+r.l)
	if f.IsTail() {
		r.injVC[lane] = -1
		r.release(op, u, false)
	}
	return true
}

// refuses reports whether the routed head (packet wi) at input VC iv of
// switch s is bound for a terminal that refuses it in cycle now (Accept):
// it asks for no VC, and Waits reports it as WaitTerminal.
func (r *router) refuses(s int, iv, wi int32, now int64) bool {
	og := r.base[s] + r.vc[iv].out
	if !r.eject[og] || r.h.Accept(int(r.term[og]), wi) {
		return false
	}
	r.vc[iv].refused = now
	return true
}

// src is the flit in terminal term's register lane (inject's).
func (r *router) src(term, lane int) (flit.Flit, bool) {
	if lane == term {
		return r.h.Source(term)
	}
	return r.h.ReplySource(term)
}

// arrive puts flit f into VC vc of global input port gp, ready at cycle
// at. (The hot paths pass port and VC apart: a division by a VC count
// that is not a constant costs tens of cycles.)
func (r *router) arrive(gp, vc int32, f *flit.Flit, at int64) {
	c := &r.vc[gp*int32(r.v)+vc]
	b := &c.buf
	s := r.swOf[gp]
	if b.Empty() {
		c.since = at
		r.ip[gp].occ |= 1 << vc
		r.needVA[s]++ // (its state is idle: a head)
		r.vaAt[s] = min(r.vaAt[s], at+r.rd)
		r.syncPort(int(s), gp)
	}
	b.PushReady(f, at)
	r.occ[s]++
	if b.Len() > r.maxOcc {
		r.maxOcc = b.Len()
		r.h.Occupancy(r.maxOcc)
	}
}

// route gives the head at the front of input VC iv (input port in of
// switch s) the output ports and VCs it may take: its routed port's VCs
// (all, or its class's share under a dateline); under adaptive routing
// the adaptive VCs of every port Route gives and the escape VCs of the
// escape port.
func (r *router) route(s, in int, iv int32, f *flit.Flit) {
	if r.ug != nil {
		r.choose(s, in, f.Worm)
	}
	ps := r.h.Route(s, in, f.Worm)
	o := ps.First()
	// Everything below is within the packet's message class: VCs mb …
	// mb+share−1, numbered from 0 there (local).
	mb := int(r.h.Packet(f.Worm).Class) * r.share
	local := int(iv%int32(r.v)) - mb
	lo, hi, esc := mb, mb+r.share, int32(-1)
	switch {
	case r.eject[r.base[s]+int32(o)]:
		ps = xbar.Port(o) // (all VCs of its class at the ejection port)
	case r.ar != nil:
		lo, esc = mb+r.nEsc, int32(r.ar.Escape(s, in, r.h.Packet(f.Worm)))
		if r.noEscape {
			esc = -1 // (a test's router without Duato's escape path)
		}
		r.vc[iv].escLo, r.vc[iv].escHi = uint8(mb), uint8(mb+r.nEsc)
		if r.cr != nil {
			// The escape VCs are the dateline's classes, one VC each; a
			// packet on an adaptive VC enters them as if injected at s.
			cls := -1
			if local < r.nEsc {
				cls = local
			}
			c := r.cr.Class(s, in, int(esc), cls, r.h.Packet(f.Worm))
			r.vc[iv].escLo, r.vc[iv].escHi = uint8(mb+c), uint8(mb+c+1)
		}
	case r.cr != nil:
		share := r.share / r.classes
		c := r.cr.Class(s, in, o, local/share, r.h.Packet(f.Worm))
		lo, hi = mb+c*share, mb+(c+1)*share
	}
	r.vc[iv].out, r.vc[iv].cand, r.vc[iv].esc = int32(o), ps, esc
	r.vc[iv].lo, r.vc[iv].hi = uint8(lo), uint8(hi)
	r.vc[iv].state = stVA
}

// candidates lists in r.cbuf the output VCs (global) the routed head of
// input VC iv at switch s may take.
func (r *router) candidates(s int, iv int32) []int32 {
	v := int32(r.v)
	r.cbuf = r.cbuf[:0]
	for m := r.vc[iv].cand; m != 0; {
		ob := (r.base[s] + int32(m.Next())) * v
		for u := int32(r.vc[iv].lo); u < int32(r.vc[iv].hi); u++ {
			r.cbuf = append(r.cbuf, ob+u)
		}
	}
	if e := r.vc[iv].esc; e >= 0 {
		for u := int32(r.vc[iv].escLo); u < int32(r.vc[iv].escHi); u++ {
			r.cbuf = append(r.cbuf, (r.base[s]+e)*v+u)
		}
	}
	return r.cbuf
}

// vcAlloc routes the heads that are due and allocates output VCs at
// switch s. Under adaptive routing a request's priority is the room the
// VC has downstream (its credits), the adaptive choice by credits. It
// leaves in r.vaAt[s] the first cycle it may have work again, so that
// Step skips the cycles before (the heads that arrive meanwhile lower it).
func (r *router) vcAlloc(s int, now int64) {
	a, v := r.va[s], int32(r.v)
	r.reqs, r.vaQ = r.reqs[:0], r.vaQ[:0]
	next := int64(math.MaxInt64)
	for pm := r.vaPorts[s]; pm != 0; pm &= pm - 1 {
		in := bits.TrailingZeros64(pm)
		gp := r.base[s] + int32(in)
		for m := r.ip[gp].occ &^ r.ip[gp].act; m != 0; m &= m - 1 {
			iv := gp*v + int32(bits.TrailingZeros64(m))
			f := r.vc[iv].buf.Front()
			if r.vc[iv].state == stIdle {
				if now-r.rd < r.vc[iv].since || !f.Ready(now-r.rd) {
					// (its ready cycle, from ReadyAt's wrapped distance to now)
					at := max(r.vc[iv].since, now+int64(int32(f.ReadyAt-uint32(now)))) + r.rd
					next = min(next, at)
					continue
				}
				r.route(s, in, iv, f)
			}
			next = now + 1 // (routed: it asks until it is granted)
			if r.replyQ && r.refuses(s, iv, f.Worm, now) {
				continue
			}
			r.askVCs(s, iv)
		}
	}
	r.vaAt[s] = next
	switch {
	case len(r.vaQ) == 0:
		return
	case r.vaOne[s] != nil && r.vaDisjoint():
		for _, q := range r.vaQ {
			r.grantVC(s, q.iv, r.vaOne[s].GrantSingle(int(q.iv-r.base[s]*v), int(q.o*v), q.set), now)
		}
		return
	}
	a.Clear()
	for _, q := range r.vaQ {
		r.addVA(s, q)
	}
	a.Allocate()
	for _, iv := range r.reqs {
		if g := a.OutputFor(int(iv - r.base[s]*v)); g >= 0 {
			r.grantVC(s, iv, g, now)
		}
	}
}

// vaDisjoint reports whether the VC allocation's requests come from
// distinct input VCs, one port each, for disjoint sets of output VCs (so
// that each is granted as if alone: xbar.SingleGranter). Only a few are
// compared, pair by pair; more take the allocator's path.
func (r *router) vaDisjoint() bool {
	q := r.vaQ
	if len(r.reqs) != len(q) || len(q) > 4 {
		return false
	}
	for i := range q {
		for j := i + 1; j < len(q); j++ {
			if q[i].o == q[j].o && q[i].set&q[j].set != 0 {
				return false
			}
		}
	}
	return true
}

// grantVC gives input VC iv of switch s the output VC numbered g there
// (port·V + VC).
func (r *router) grantVC(s int, iv int32, g int, now int64) {
	v := int32(r.v)
	ov := r.base[s]*v + int32(g)
	o, u := r.portOf[g], int32(g)-r.portOf[g]*v
	r.hold(r.base[s]+o, u, iv, r.vc[iv].buf.Front().Worm)
	r.vc[iv].ov, r.vc[iv].out, r.vc[iv].state, r.vc[iv].saAt = ov, o, stActive, now+r.vad
	gp := r.base[s] + r.portOf[iv-r.base[s]*v]
	r.ip[gp].act |= 1 << (iv - gp*v)
	r.syncPort(s, gp)
	r.needVA[s]--
}

// askPort asks for the free VCs lo … hi−1 of switch s's output port o
// (noted in r.vaQ: when it is the only request, an allocator that grants
// a lone input at once needs no request matrix).
func (r *router) askPort(s int, iv, o int32, lo, hi uint8) {
	set := r.freeOV[r.base[s]+o] & (uint64(1)<<hi - 1) >> lo << lo
	if set == 0 {
		return
	}
	if len(r.reqs) == 0 || r.reqs[len(r.reqs)-1] != iv {
		r.reqs = append(r.reqs, iv)
	}
	r.vaQ = append(r.vaQ, vaReq{iv, o, set})
}

// addVA adds request q to switch s's VC allocator.
func (r *router) addVA(s int, q vaReq) {
	v := int32(r.v)
	in := int(q.iv - r.base[s]*v)
	if sr := r.vaSet[s]; sr != nil && r.ar == nil {
		sr.AddRequestSet(in, int(q.o*v), q.set)
		return
	}
	// One by one: adaptive routing's priority is the VC's credits.
	ob := (r.base[s] + q.o) * v
	for set := q.set; set != 0; set &= set - 1 {
		u := int32(bits.TrailingZeros64(set))
		pri := 0
		if r.ar != nil {
			pri = int(r.cred[ob+u])
		}
		r.va[s].AddRequest(in, int(q.o*v+u), pri)
	}
}

// eligible reports whether active, occupied input VC c's front flit (at
// the switch whose first global port is base) may ask for the switch in
// cycle now. (base, not the switch: its callers load it once, not a VC.)
func (r *router) eligible(base int32, c *inputVC, now int64) bool {
	if now < c.saAt || !c.buf.Front().Ready(now) {
		return false
	}
	return r.cred[c.ov] > 0 || r.eject[base+c.out]
}

// syncPort keeps bit gp−base[s] of r.swPorts[s] set exactly when a VC
// of global input port gp holds a flit and an output VC (the ports whose
// VCs may ask for the switch), and of r.vaPorts[s] when one holds a flit
// and no output VC (those whose VCs may ask for one).
func (r *router) syncPort(s int, gp int32) {
	bit := uint64(1) << uint(gp-r.base[s])
	p := &r.ip[gp]
	if p.occ&p.act != 0 {
		r.swPorts[s] |= bit
	} else {
		r.swPorts[s] &^= bit
	}
	if p.occ&^p.act != 0 {
		r.vaPorts[s] |= bit
	} else {
		r.vaPorts[s] &^= bit
	}
}

// swAlloc allocates switch s's crossbar and moves the winners.
func (r *router) swAlloc(s int, now int64) {
	if r.speedup {
		r.swAllocSpeedup(s, now) // (speedup.go)
		return
	}
	a, v, base := r.sa[s], int32(r.v), r.base[s]
	r.saIn, r.saWant = r.saIn[:0], r.saWant[:0] // the input ports that ask, and their outputs
	var asked uint64                            // the outputs asked for
	disjoint := true                            // no output asked for twice
	for pm := r.swPorts[s]; pm != 0; pm &= pm - 1 {
		in := bits.TrailingZeros64(pm)
		gp := base + int32(in)
		var want, elig uint64 // outputs this input asks for; its VCs that ask
		p := &r.ip[gp]
		for m := p.occ & p.act; m != 0; m &= m - 1 {
			vc := bits.TrailingZeros64(m)
			if c := &r.vc[gp*v+int32(vc)]; r.eligible(base, c, now) {
				elig |= 1 << vc
				want |= 1 << c.out
			}
		}
		p.elig = elig
		if want != 0 {
			// (One append a statement: the compiler then stores only the
			// length back, no pointer, so no GC write barrier a request.)
			r.saIn = append(r.saIn, gp)
			r.saWant = append(r.saWant, want)
			disjoint = disjoint && want&asked == 0
			asked |= want
		}
	}
	switch {
	case len(r.saIn) == 0:
		return
	case disjoint && r.saOne[s] != nil:
		// Each input is alone on its outputs: granted as if alone.
		for i, gp := range r.saIn {
			r.grantSwitch(s, gp, r.saOne[s].GrantSingle(int(gp-r.base[s]), 0, r.saWant[i]), now)
		}
		return
	}
	a.Clear()
	for i, gp := range r.saIn {
		// (An input asks for one output nearly always: one request at a
		// time costs less than a set.)
		for want := r.saWant[i]; want != 0; want &= want - 1 {
			a.AddRequest(int(gp-r.base[s]), bits.TrailingZeros64(want), 0)
		}
	}
	a.Allocate()
	for _, gp := range r.saIn {
		if o := a.OutputFor(int(gp - r.base[s])); o >= 0 {
			r.grantSwitch(s, gp, o, now)
		}
	}
}

// grantSwitch moves, from global input port gp of switch s, granted
// output o, the flit of the VC that asked for o, round-robin: the VCs
// that asked from the port's pointer on, then those before it.
func (r *router) grantSwitch(s int, gp int32, o int, now int64) {
	p := &r.ip[gp]
	m := p.elig // (what asked: nothing has moved at this input since)
	ptr := uint(p.saPtr)
	vc := r.pickVC(s, gp, m>>ptr<<ptr, int32(o), now)
	if vc < 0 {
		vc = r.pickVC(s, gp, m&(1<<ptr-1), int32(o), now)
	}
	p.saPtr = xbar.After(vc, int32(r.v))
}

// pickVC moves the first VC of set part (of global input port gp; VCs that
// asked for the switch) whose front asks for output o, and returns it (−1:
// none).
func (r *router) pickVC(s int, gp int32, part uint64, o int32, now int64) int32 {
	v := int32(r.v)
	for ; part != 0; part &= part - 1 {
		vc := int32(bits.TrailingZeros64(part))
		iv := gp*v + vc
		if c := &r.vc[iv]; c.out == o {
			r.move(s, gp, iv, c, now)
			return vc
		}
	}
	return -1
}

// move sends the front flit of input VC iv (global input port gp of
// switch s) out through its output VC.
func (r *router) move(s int, gp, iv int32, c *inputVC, now int64) {
	b := &c.buf
	r.moving = b.Pop() // (a field: a local passed to the host would escape, a heap object per flit)
	f := &r.moving
	r.occ[s]--
	vc := iv - gp*int32(r.v)
	if b.Empty() {
		r.ip[gp].occ &^= 1 << vc
		r.syncPort(s, gp)
	}
	c.mvAt, c.saAt = now, now+r.sad
	r.credits.push(r.upOV[gp]+vc, now+r.l+r.cd)
	ov := c.ov
	og := r.base[s] + c.out // (the port of ov)
	at := now + r.sad + r.stf + r.l
	if r.outS == 1 || !r.queue(s, gp, c, at) {
		r.h.Send(s, int(gp-r.base[s]), int(c.out), f, at)
		if !r.eject[og] {
			r.cred[ov]--
			r.arrive(r.downIn[og], ov-og*int32(r.v), f, at)
		}
	}
	if f.IsTail() {
		c.state, c.ov = stIdle, -1
		r.ip[gp].act &^= 1 << vc
		r.syncPort(s, gp)
		r.release(og, ov-og*int32(r.v), r.eject[og])
		if !b.Empty() {
			c.since = now + 1
			r.needVA[s]++
			r.vaAt[s] = min(r.vaAt[s], now+1+r.rd)
		}
	}
}
