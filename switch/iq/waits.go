package iq

import "github.com/flitsim/flitsim/switch/model"

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
				b := &r.vc[iv].buf
				if b.Empty() || r.vc[iv].mvAt == now || !b.Front().Ready(now) || r.vc[iv].state == stIdle {
					continue
				}
				w := model.Wait{Flit: *b.Front(), Sw: s, In: int(gp - r.base[s]), VC: int(iv % v),
					AtSw: s, AtOut: int(r.vc[iv].out), AtVC: -1, For: -1, Kind: model.WaitArb}
				switch {
				case r.vc[iv].state == stVA && r.vc[iv].refused == now:
					w.Kind = model.WaitTerminal
					report(w)
				case r.vc[iv].state == stVA:
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
	if r.vc[iv].esc >= 0 {
		adaptive -= int(r.vc[iv].escHi - r.vc[iv].escLo)
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
		down := &r.vc[gin*v+u].buf
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
		if !r.ovs[ob+u].tailOut {
			return r.ovs[ob+u].holder
		}
		if down := &r.vc[gin*v+u].buf; !down.Empty() {
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
	if !r.ovs[ov].tailOut {
		return r.ovs[ov].holder
	}
	down := &r.vc[r.downIn[og]*int32(r.v)+ov%int32(r.v)].buf
	if down.Empty() {
		return -1
	}
	return down.Front().Worm
}

func (r *router) creditWait(w model.Wait, iv int32, now int64, report func(model.Wait)) {
	ov := r.vc[iv].ov
	og := ov / int32(r.v)
	w.AtVC = int(ov % int32(r.v))
	if now < r.vc[iv].saAt {
		w.Kind = model.WaitStage // (the VC allocation's delay)
		report(w)
		return
	}
	if r.eject[og] || r.cred[ov] > 0 {
		report(w) // lost the switch allocation
		return
	}
	down := &r.vc[r.downIn[og]*int32(r.v)+ov%int32(r.v)].buf
	if down.Len() < r.d {
		return // a credit is on its way back
	}
	w.Kind, w.For = model.WaitCredit, down.Front().Worm
	report(w)
}
