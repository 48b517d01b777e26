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
	r.subMask = make([]uint64, r.inS)
	for vc := range r.v {
		r.subMask[int32(vc)%r.inS] |= 1 << vc
	}
	r.saPtr = make([]int32, int(r.nGP)*int(r.inS))
	if r.outS > 1 {
		r.outFree = make([]int64, r.nGP)
	}
}

// askSubs notes the switch requests of global input port gp whose VCs elig
// ask (input speedup above 1): one per crossbar input with a VC that asks,
// for the outputs its VCs ask for. It adds them to asked and reports
// whether none asked for an output already in asked.
func (r *router) askSubs(gp int32, elig uint64, asked *uint64) bool {
	v, disjoint := gp*int32(r.v), true
	for sub := range r.inS {
		var want uint64
		for m := elig & r.subMask[sub]; m != 0; m &= m - 1 {
			want |= 1 << r.vc[v+int32(bits.TrailingZeros64(m))].out
		}
		if want != 0 {
			r.saIn, r.saSub, r.saWant = append(r.saIn, gp), append(r.saSub, sub), append(r.saWant, want)
			disjoint = disjoint && want&*asked == 0
			*asked |= want
		}
	}
	return disjoint
}

// nextPtr is the round-robin pointer of a crossbar input past its winner
// VC vc: vc + inS, around the port's VCs (vc + 1 without speedup).
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

// queue puts flit f, granted from global input port gp of switch s to
// output VC ov of global output port og, into og's output buffer, which
// it reaches in cycle dep; it reports whether the flit waits there behind
// others (it leaves later than dep). A flit that waits is sent (Send,
// arrive) dep − (its departure) cycles later than one that does not, so
// that the host sees one flit a cycle on the channel.
func (r *router) queue(s int, gp, og, ov int32, f *flit.Flit, dep int64) bool {
	leave := max(dep, r.outFree[og])
	r.outFree[og] = leave + 1
	if leave == dep {
		return false
	}
	now := dep - r.sad - r.stf
	r.outQ = append(r.outQ, queuedFlit{due: now + leave - dep, at: leave + r.l, s: s, gp: gp, og: og, ov: ov, f: *f})
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
			r.send(q.s, q.gp, q.og, q.ov, &q.f, q.at)
		}
	}
	r.outQ = keep
}
