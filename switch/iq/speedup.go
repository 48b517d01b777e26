package iq

import (
	"math/bits"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/switch/model"
)

// MaxSpeedup is the largest router.input_speedup and router.output_speedup.
const MaxSpeedup = 16

// Speedups, as BookSim2's iq_router has them:
//
//   - router.input_speedup S: input port in's VCs are spread over S
//     crossbar inputs, VC v on crossbar input in·S + v mod S, each with
//     its own round-robin pointer over its VCs (moved to v + S past a
//     winner v, as BookSim's _sw_rr_offset). Up to S flits of one input
//     port cross the switch in a cycle, to different output ports.
//   - router.output_speedup S: output port o has S crossbar outputs, input
//     port in reaching it on o·S + in mod S; the flits that cross in one
//     cycle wait in the port's output buffer, which sends one a cycle to
//     the channel in the order they crossed (BookSim's output_buffer_size
//     = −1, its default: unbounded; the credits bound it all the same).
//
// With both 1 the switch allocator is the ports × ports one of the
// package documentation and no output buffer ever holds a flit a cycle.

// initSpeedups reads the speedups (0, from a Params that leaves them out,
// is 1) and makes their state.
func (r *router) initSpeedups(p model.Params) {
	r.inS, r.outS = int32(max(1, p.InputSpeedup)), int32(max(1, p.OutputSpeedup))
	r.speedup = r.inS > 1 || r.outS > 1
	r.subMask = make([]uint64, r.inS)
	for vc := range r.v {
		r.subMask[int32(vc)%r.inS] |= 1 << vc
	}
	r.saPtr = make([]int32, int(r.nGP)*int(r.inS))
	if r.outS > 1 {
		r.outFree = make([]int64, r.nGP)
	}
}

// swAllocSpeedup is swAlloc with speedups: each crossbar input of a port
// asks for the output ports its VCs ask for (on crossbar output o·outS +
// port mod outS), the allocator matches crossbar inputs to crossbar
// outputs, and each winner moves the flit of its crossbar input's VC that
// asked, round-robin from that input's pointer. (swAlloc keeps the
// speedup-1 case apart: that is the hot path.)
func (r *router) swAllocSpeedup(s int, now int64) {
	v, base := int32(r.v), r.base[s]
	r.saIn, r.saSub, r.saWant = r.saIn[:0], r.saSub[:0], r.saWant[:0]
	var asked uint64 // the output ports asked for
	disjoint := r.outS == 1
	for pm := r.swPorts[s]; pm != 0; pm &= pm - 1 {
		gp := base + int32(bits.TrailingZeros64(pm))
		var elig uint64 // its VCs that ask
		p := &r.ip[gp]
		for m := p.occ & p.act; m != 0; m &= m - 1 {
			vc := bits.TrailingZeros64(m)
			if r.eligible(base, &r.vc[gp*v+int32(vc)], now) {
				elig |= 1 << vc
			}
		}
		p.elig = elig
		for sub := range r.inS {
			var want uint64
			for m := elig & r.subMask[sub]; m != 0; m &= m - 1 {
				want |= 1 << r.vc[gp*v+int32(bits.TrailingZeros64(m))].out
			}
			if want != 0 {
				r.saIn = append(r.saIn, gp) // (one a statement: swAlloc says why)
				r.saSub = append(r.saSub, sub)
				r.saWant = append(r.saWant, want)
				disjoint = disjoint && want&asked == 0
				asked |= want
			}
		}
	}
	inS, outS := int(r.inS), int(r.outS)
	if disjoint && r.saOne[s] != nil {
		// Each crossbar input is alone on its outputs: granted as if alone.
		for i, gp := range r.saIn {
			xi := int(gp-r.base[s])*inS + int(r.saSub[i])
			r.grantSub(s, gp, r.saSub[i], int32(r.saOne[s].GrantSingle(xi, 0, r.saWant[i])), now)
		}
		return
	}
	a := r.sa[s]
	a.Clear()
	for i, gp := range r.saIn {
		in := int(gp - r.base[s])
		for want := r.saWant[i]; want != 0; want &= want - 1 {
			a.AddRequest(in*inS+int(r.saSub[i]), bits.TrailingZeros64(want)*outS+in%outS, 0)
		}
	}
	a.Allocate()
	for i, gp := range r.saIn {
		if o := a.OutputFor(int(gp-r.base[s])*inS + int(r.saSub[i])); o >= 0 {
			r.grantSub(s, gp, r.saSub[i], int32(o/outS), now)
		}
	}
}

// grantSub moves, from crossbar input sub of global input port gp of
// switch s, granted output port o, the flit of its VC that asked for o,
// round-robin: from the crossbar input's pointer on, then before it.
func (r *router) grantSub(s int, gp, sub, o int32, now int64) {
	m := r.ip[gp].elig & r.subMask[sub] // (what asked: nothing has moved at this crossbar input since)
	pi := gp*r.inS + sub
	ptr := uint(r.saPtr[pi])
	vc := r.pickVC(s, gp, m>>ptr<<ptr, o, now)
	if vc < 0 {
		vc = r.pickVC(s, gp, m&(1<<ptr-1), o, now)
	}
	r.saPtr[pi] = r.nextPtr(vc)
}

// nextPtr is the round-robin pointer of a crossbar input past its winner
// VC vc: vc + inS, around the port's VCs (BookSim's _sw_rr_offset).
func (r *router) nextPtr(vc int32) int32 {
	n := vc + r.inS
	if v := int32(r.v); n >= v {
		n %= v
	}
	return n
}

// queuedFlit is a flit in an output buffer behind others (output
// speedup): sent, and put into the buffer at the link's far end, in cycle
// due.
type queuedFlit struct {
	due, at    int64
	s          int
	gp, og, ov int32
	f          flit.Flit
}

// queue puts the flit move sends (r.moving), granted in this cycle from
// input VC c (global input port gp of switch s), into its output port's
// output buffer; without waiting it would reach the link's far end in cycle at.
// It reports whether the flit waits behind others: then it reaches the
// far end as many cycles later as it waits, and is sent (Send, and put
// into the VC beyond) that many cycles later than one that does not wait,
// so that the host sees one flit a cycle on the channel.
func (r *router) queue(s int, gp int32, c *inputVC, at int64) bool {
	og, ov := r.base[s]+c.out, c.ov
	leave := max(at, r.outFree[og]) // (counted at the far end)
	r.outFree[og] = leave + 1
	if leave == at {
		return false
	}
	if !r.eject[og] {
		r.cred[ov]-- // (sendQueued puts it into the VC beyond)
	}
	now := at - r.l - r.stf - r.sad
	r.outQ = append(r.outQ, queuedFlit{due: now + leave - at, at: leave, s: s, gp: gp, og: og, ov: ov, f: r.moving})
	return true
}

// sendQueued sends the queued flits due in cycle now, in the order they
// were queued (each output buffer's order).
func (r *router) sendQueued(now int64) {
	keep := r.outQ[:0]
	for i := range r.outQ {
		if q := &r.outQ[i]; q.due > now {
			keep = append(keep, *q)
		} else {
			// (move sends a flit that does not wait the same way)
			r.h.Send(q.s, int(q.gp-r.base[q.s]), int(q.og-r.base[q.s]), &q.f, q.at)
			if !r.eject[q.og] {
				r.arrive(r.downIn[q.og], q.ov-q.og*int32(r.v), &q.f, q.at)
			}
		}
	}
	r.outQ = keep
}
