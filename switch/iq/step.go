package iq

import (
	"math/bits"

	"github.com/flitsim/flitsim/flit"
	xbar "github.com/flitsim/flitsim/switch"
	"github.com/flitsim/flitsim/switch/model"
)

// Step simulates one cycle (the package documentation states its rule).
func (r *router) Step() {
	now := r.h.Now()
	for ov := r.credits.pop(now); ov >= 0; ov = r.credits.pop(now) {
		r.cred[ov]++
		if r.tailOut[ov] && r.cred[ov] == int32(r.d) {
			r.free(ov)
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
	} else {
		for term := range r.nTerm {
			r.inject(term, term, now)
		}
	}
	for s := range r.occ {
		if r.occ[s] > 0 {
			if r.needVA[s] > 0 {
				r.vcAlloc(s, now)
			}
			r.swAlloc(s, now)
		}
	}
}

func (r *router) free(ov int32) {
	r.owner[ov], r.holder[ov], r.tailOut[ov] = -1, -1, false
}

// release gives up output VC ov after its tail has been sent: at once
// with vc.release: tail, when its credits are all back with tail-credit
// (an ejection VC, whose credits never run out, at once in both; an escape
// VC at once under adaptive routing's default: escTail).
func (r *router) release(ov int32, eject bool) {
	if r.tailCr && !eject && !(r.escTail && int(ov%int32(r.v))%r.share < r.nEsc) {
		r.tailOut[ov] = true
		return
	}
	r.free(ov)
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
	ob := (r.nGP + int32(term)) * int32(r.v)
	if r.injVC[lane] < 0 {
		// A head takes a free VC of routing class 0 in its message
		// class's share, round-robin.
		share := int32(r.share / r.classes)
		mb := int32(r.h.Packet(f.Worm).Class) * int32(r.share)
		for i := range share {
			u := mb + (r.injPtr[term]+i)%share
			if r.owner[ob+u] == -1 {
				r.owner[ob+u], r.holder[ob+u] = terminalOwner, f.Worm
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
		r.release(ob+u, false)
	}
	return true
}

// refuses reports whether the routed head (packet wi) at input VC iv of
// switch s is bound for a terminal that refuses it in cycle now (Accept):
// it asks for no VC, and Waits reports it as WaitTerminal.
func (r *router) refuses(s int, iv, wi int32, now int64) bool {
	og := r.base[s] + r.out[iv]
	if !r.eject[og] || r.h.Accept(int(r.term[og]), wi) {
		return false
	}
	r.refused[iv] = now
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
	iv := gp*int32(r.v) + vc
	b := &r.buf[iv]
	if b.Empty() {
		r.since[iv] = at
		r.occVC[gp] |= 1 << vc
		r.needVA[r.swOf[gp]]++ // (its state is idle: a head)
	}
	b.PushReady(f, at)
	r.occ[r.swOf[gp]]++
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
		r.escLo[iv], r.escHi[iv] = uint8(mb), uint8(mb+r.nEsc)
		if r.cr != nil {
			// The escape VCs are the dateline's classes, one VC each; a
			// packet on an adaptive VC enters them as if injected at s.
			cls := -1
			if local < r.nEsc {
				cls = local
			}
			c := r.cr.Class(s, in, int(esc), cls, r.h.Packet(f.Worm))
			r.escLo[iv], r.escHi[iv] = uint8(mb+c), uint8(mb+c+1)
		}
	case r.cr != nil:
		share := r.share / r.classes
		c := r.cr.Class(s, in, o, local/share, r.h.Packet(f.Worm))
		lo, hi = mb+c*share, mb+(c+1)*share
	}
	r.out[iv], r.cand[iv], r.esc[iv] = int32(o), ps, esc
	r.lo[iv], r.hi[iv] = uint8(lo), uint8(hi)
	r.state[iv] = stVA
}

// candidates lists in r.cbuf the output VCs (global) the routed head of
// input VC iv at switch s may take.
func (r *router) candidates(s int, iv int32) []int32 {
	v := int32(r.v)
	r.cbuf = r.cbuf[:0]
	for m := r.cand[iv]; m != 0; {
		ob := (r.base[s] + int32(m.Next())) * v
		for u := int32(r.lo[iv]); u < int32(r.hi[iv]); u++ {
			r.cbuf = append(r.cbuf, ob+u)
		}
	}
	if e := r.esc[iv]; e >= 0 {
		for u := int32(r.escLo[iv]); u < int32(r.escHi[iv]); u++ {
			r.cbuf = append(r.cbuf, (r.base[s]+e)*v+u)
		}
	}
	return r.cbuf
}

// vcAlloc routes the heads that are due and allocates output VCs at
// switch s. Under adaptive routing a request's priority is the room the
// VC has downstream (its credits), the adaptive choice by credits.
func (r *router) vcAlloc(s int, now int64) {
	a, v := r.va[s], int32(r.v)
	r.reqs = r.reqs[:0]
	for gp := r.base[s]; gp < r.base[s+1]; gp++ {
		in := int(gp - r.base[s])
		for m := r.occVC[gp] &^ r.act[gp]; m != 0; m &= m - 1 {
			iv := gp*v + int32(bits.TrailingZeros64(m))
			f := r.buf[iv].Front()
			if r.state[iv] == stIdle {
				if now-r.rd < r.since[iv] || !f.Ready(now-r.rd) {
					continue
				}
				r.route(s, in, iv, f)
			}
			if r.replyQ && r.refuses(s, iv, f.Worm, now) {
				continue
			}
			for _, ov := range r.asks(s, iv) {
				if r.owner[ov] != -1 {
					continue
				}
				if len(r.reqs) == 0 {
					a.Clear()
				}
				if len(r.reqs) == 0 || r.reqs[len(r.reqs)-1] != iv {
					r.reqs = append(r.reqs, iv)
				}
				pri := 0
				if r.ar != nil {
					pri = int(r.cred[ov])
				}
				a.AddRequest(int(iv-r.base[s]*v), int(ov-r.base[s]*v), pri)
			}
		}
	}
	if len(r.reqs) == 0 {
		return
	}
	a.Allocate()
	for _, iv := range r.reqs {
		g := a.OutputFor(int(iv - r.base[s]*v))
		if g < 0 {
			continue
		}
		ov := r.base[s]*v + int32(g)
		r.owner[ov], r.holder[ov] = iv, r.buf[iv].Front().Worm
		r.ov[iv], r.out[iv], r.state[iv], r.saAt[iv] = ov, int32(g)/v, stActive, now+r.vad
		r.act[iv/v] |= 1 << (iv % v)
		r.needVA[s]--
	}
}

// eligible reports whether active, occupied input VC iv's front flit may
// ask for the switch in cycle now.
func (r *router) eligible(iv int32, now int64) bool {
	if now < r.saAt[iv] || !r.buf[iv].Front().Ready(now) {
		return false
	}
	return r.cred[r.ov[iv]] > 0 || r.eject[r.ov[iv]/int32(r.v)]
}

// swAlloc allocates switch s's crossbar and moves the winners.
func (r *router) swAlloc(s int, now int64) {
	a, v := r.sa[s], int32(r.v)
	r.saIn = r.saIn[:0] // the input ports that ask
	for gp := r.base[s]; gp < r.base[s+1]; gp++ {
		var want, elig uint64 // outputs this input asked for; its VCs that asked
		for m := r.occVC[gp] & r.act[gp]; m != 0; m &= m - 1 {
			vc := bits.TrailingZeros64(m)
			iv := gp*v + int32(vc)
			if !r.eligible(iv, now) {
				continue
			}
			elig |= 1 << vc
			if o := r.out[iv]; want>>o&1 == 0 {
				if len(r.saIn) == 0 {
					a.Clear()
				}
				if want == 0 {
					r.saIn = append(r.saIn, gp)
				}
				want |= 1 << o
				a.AddRequest(int(gp-r.base[s]), int(o), 0)
			}
		}
		r.elig[gp] = elig
	}
	if len(r.saIn) == 0 {
		return
	}
	a.Allocate()
	for _, gp := range r.saIn {
		o := a.OutputFor(int(gp - r.base[s]))
		if o < 0 {
			continue
		}
		// The input's VC for that output, round-robin: the occupied VCs
		// from the pointer on, then those before it.
		m := r.elig[gp] // (what asked: nothing has moved at this input since)
		ptr := uint(r.saPtr[gp])
		for _, part := range [2]uint64{m >> ptr << ptr, m & (1<<ptr - 1)} {
			if r.pickVC(s, gp, part, int32(o), now) {
				break
			}
		}
	}
}

// pickVC moves the first VC of set part (of global input port gp; VCs that
// asked for the switch) whose front asks for output o, and reports whether
// there was one.
func (r *router) pickVC(s int, gp int32, part uint64, o int32, now int64) bool {
	v := int32(r.v)
	for ; part != 0; part &= part - 1 {
		vc := int32(bits.TrailingZeros64(part))
		iv := gp*v + vc
		if r.out[iv] == o {
			r.saPtr[gp] = xbar.After(vc, v)
			r.move(s, gp, iv, now)
			return true
		}
	}
	return false
}

// move sends the front flit of input VC iv (global input port gp of
// switch s) out through its output VC.
func (r *router) move(s int, gp, iv int32, now int64) {
	b := &r.buf[iv]
	r.moving = b.Pop() // (a field: a local passed to the host would escape, a heap object per flit)
	f := &r.moving
	r.occ[s]--
	vc := iv - gp*int32(r.v)
	if b.Empty() {
		r.occVC[gp] &^= 1 << vc
	}
	r.mvAt[iv], r.saAt[iv] = now, now+r.sad
	r.credits.push(r.upOV[gp]+vc, now+r.l+r.cd)
	ov := r.ov[iv]
	og := r.base[s] + r.out[iv] // (the port of ov)
	at := now + r.sad + r.stf + r.l
	r.h.Send(s, int(gp-r.base[s]), int(r.out[iv]), f, at)
	if !r.eject[og] {
		r.cred[ov]--
		r.arrive(r.downIn[og], ov-og*int32(r.v), f, at)
	}
	if f.IsTail() {
		r.state[iv], r.ov[iv] = stIdle, -1
		r.act[gp] &^= 1 << vc
		r.release(ov, r.eject[og])
		if !b.Empty() {
			r.since[iv] = now + 1
			r.needVA[s]++
		}
	}
}

// Waits reports, for every ready front flit that did not move this cycle,
// the lasting reasons: every output VC it may take held (WaitVC, by each
// holder), no credit while the buffer downstream is full (WaitCredit, by
// the packet at its front); a lost arbitration is reported with For −1.
func (r *router) Waits(report func(model.Wait)) {
	now := r.h.Now()
	v := int32(r.v)
	for s := range r.occ {
		if r.occ[s] == 0 {
			continue
		}
		for gp := r.base[s]; gp < r.base[s+1]; gp++ {
			for iv := gp * v; iv < (gp+1)*v; iv++ {
				b := &r.buf[iv]
				if b.Empty() || r.mvAt[iv] == now || !b.Front().Ready(now) || r.state[iv] == stIdle {
					continue
				}
				w := model.Wait{Flit: *b.Front(), Sw: s, In: int(gp - r.base[s]), VC: int(iv % v),
					AtSw: s, AtOut: int(r.out[iv]), AtVC: -1, For: -1, Kind: model.WaitArb}
				switch {
				case r.state[iv] == stVA && r.refused[iv] == now:
					w.Kind = model.WaitTerminal
					report(w)
				case r.state[iv] == stVA:
					r.vcWaits(w, iv, report)
				default:
					r.creditWait(w, iv, now, report)
				}
			}
		}
	}
	if r.replyQ {
		for term := range r.nTerm {
			r.sourceWaits(term, term, report)
			r.sourceWaits(term, r.nTerm+term, report)
		}
	}
}

func (r *router) vcWaits(w model.Wait, iv int32, report func(model.Wait)) {
	v := int32(r.v)
	w.Kind = model.WaitVC
	cands := r.candidates(w.Sw, iv)
	// The escape VCs come last (candidates).
	adaptive := len(cands)
	if r.esc[iv] >= 0 {
		adaptive -= int(r.escHi[iv] - r.escLo[iv])
	}
	escFree := -1
	for i, ov := range cands {
		switch {
		case r.vcHolder(ov/v, ov) >= 0:
		case i < adaptive:
			w.Kind, w.For, w.AtVC = model.WaitArb, -1, -1
			report(w) // a free VC, or one freed when its credits are back: it passes
			return
		case escFree < 0:
			escFree = i
		}
	}
	if escFree >= 0 {
		// Every adaptive VC held, an escape VC free: it goes on by the
		// escape path, and says so first (For −1), with the holders.
		ov := cands[escFree]
		w.Kind, w.For, w.AtOut, w.AtVC, w.Escape = model.WaitArb, -1, int(ov/v-r.base[w.Sw]), int(ov%v), true
		report(w)
		cands, w.Kind, w.Escape = cands[:adaptive], model.WaitVC, false
	}
	for i, ov := range cands {
		w.For, w.AtOut, w.AtVC = r.vcHolder(ov/v, ov), int(ov/v-r.base[w.Sw]), int(ov%v)
		w.Escape = i >= adaptive
		report(w)
	}
}

// sourceWaits reports the wait of the ready flit in terminal term's
// register lane (inject's) that did not go in this cycle: every injection
// VC of its class's share held (WaitVC, by each holder), or no credit
// while the input VC beyond is full (WaitCredit); one that lost to the
// terminal's other register, or whose credit is on its way, passes.
func (r *router) sourceWaits(term, lane int, report func(model.Wait)) {
	f, ok := r.src(term, lane)
	if !ok {
		return
	}
	v := int32(r.v)
	s, in := r.t.InSwitch[term], r.t.InPort[term]
	gin := r.base[s] + in
	ob := (r.nGP + int32(term)) * v
	w := model.Wait{Flit: f, Sw: int(s), In: int(in), VC: -1, Source: true, AtSw: int(s), AtOut: -1, Kind: model.WaitVC}
	if u := r.injVC[lane]; u >= 0 {
		down := &r.buf[gin*v+u]
		if r.cred[ob+u] > 0 || down.Len() < r.d {
			return
		}
		w.Kind, w.For, w.AtVC = model.WaitCredit, down.Front().Worm, int(u)
		report(w)
		return
	}
	share := int32(r.share / r.classes)
	mb := int32(r.h.Packet(f.Worm).Class) * int32(r.share)
	holder := func(u int32) int32 { // (vcHolder's, for an injection VC)
		if !r.tailOut[ob+u] {
			return r.holder[ob+u]
		}
		if down := &r.buf[gin*v+u]; !down.Empty() {
			return down.Front().Worm
		}
		return -1
	}
	for u := mb; u < mb+share; u++ {
		if holder(u) < 0 {
			return
		}
	}
	for u := mb; u < mb+share; u++ {
		w.For, w.AtVC = holder(u), int(u)
		report(w)
	}
}

// vcHolder is the packet whose progress frees output VC ov of global port
// og: its holder, or, once the holder's tail has left (tail-credit), the
// packet at the front of the VC it leads to, whose flits keep its credits
// (−1 when that is empty: the credits are on their way, or the VC is free).
func (r *router) vcHolder(og, ov int32) int32 {
	if !r.tailOut[ov] {
		return r.holder[ov]
	}
	down := &r.buf[r.downIn[og]*int32(r.v)+ov%int32(r.v)]
	if down.Empty() {
		return -1
	}
	return down.Front().Worm
}

func (r *router) creditWait(w model.Wait, iv int32, now int64, report func(model.Wait)) {
	ov := r.ov[iv]
	og := ov / int32(r.v)
	w.AtVC = int(ov % int32(r.v))
	if now < r.saAt[iv] {
		w.Kind = model.WaitStage // (the VC allocation's delay)
		report(w)
		return
	}
	if r.eject[og] || r.cred[ov] > 0 {
		report(w) // lost the switch allocation
		return
	}
	down := &r.buf[r.downIn[og]*int32(r.v)+ov%int32(r.v)]
	if down.Len() < r.d {
		return // a credit is on its way back
	}
	w.Kind, w.For = model.WaitCredit, down.Front().Worm
	report(w)
}
