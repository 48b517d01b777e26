package xbar

import (
	"fmt"
	"math/bits"
)

// islip is BookSim2's iSLIP_Sparse (src/allocators/islip.cpp): iters rounds
// of grant and accept. Grant: every unmatched output offers itself to the
// first unmatched input that asked for it, scanning from its grant pointer.
// Accept: every input takes the first output that offered itself, scanning
// from its accept pointer. Pointers move to one past the partner only for
// pairs matched in the first round (what keeps iSLIP starvation-free);
// later rounds only fill in. Priorities are ignored, as in BookSim.
//
// The requests are bit sets, a row of w words per input (the outputs it
// asked for) and per output (the inputs that asked for it): a round-robin
// scan is then a mask and a count of trailing zeros, not a walk over a
// request list (the router's hot path; the grants are BookSim's all the
// same, checked by TestAllocatorsMatchBookSim).
type islip struct {
	inputs, outputs int
	iters           int
	w               int      // words a row of ports takes: ⌈max(inputs, outputs)/64⌉
	reqIn           []uint64 // in*w…: the outputs in asked for
	reqOut          []uint64 // out*w…: the inputs that asked for out
	offers          []uint64 // in*w…, in a round: the outputs that offered themselves to in
	ins, outs       []uint64 // the inputs, outputs that asked this cycle
	freeIn, freeOut []uint64 // scratch: those not yet matched
	offered         []uint64 // scratch: the inputs offered something in a round
	cand            []uint64 // scratch: an output's unmatched requesters
	inMatch         []int32  // per input: granted output or -1
	outMatch        []int32  // per output: granted input or -1
	gptr            []int32  // per output: the input it offers itself to first
	aptr            []int32  // per input: the output it accepts first
}

func newISLIP(inputs, outputs, iters int) *islip {
	w := (max(inputs, outputs) + 63) / 64
	a := &islip{inputs: inputs, outputs: outputs, iters: iters, w: w,
		reqIn: make([]uint64, inputs*w), reqOut: make([]uint64, outputs*w), offers: make([]uint64, inputs*w),
		ins: make([]uint64, w), outs: make([]uint64, w), freeIn: make([]uint64, w), freeOut: make([]uint64, w),
		offered: make([]uint64, w), cand: make([]uint64, w),
		inMatch: make([]int32, inputs), outMatch: make([]int32, outputs),
		gptr: make([]int32, outputs), aptr: make([]int32, inputs)}
	for i := range a.inMatch {
		a.inMatch[i] = -1
	}
	for o := range a.outMatch {
		a.outMatch[o] = -1
	}
	return a
}

func (a *islip) Clear() {
	if a.w == 1 {
		for x := a.ins[0]; x != 0; x &= x - 1 {
			in := bits.TrailingZeros64(x)
			a.reqIn[in], a.inMatch[in] = 0, -1
		}
		for x := a.outs[0]; x != 0; x &= x - 1 {
			out := bits.TrailingZeros64(x)
			a.reqOut[out], a.outMatch[out] = 0, -1
		}
		a.ins[0], a.outs[0] = 0, 0
		return
	}
	for k, x := range a.ins {
		for ; x != 0; x &= x - 1 {
			in := k<<6 + bits.TrailingZeros64(x)
			clear(a.reqIn[in*a.w : (in+1)*a.w])
			a.inMatch[in] = -1
		}
		a.ins[k] = 0
	}
	for k, x := range a.outs {
		for ; x != 0; x &= x - 1 {
			out := k<<6 + bits.TrailingZeros64(x)
			clear(a.reqOut[out*a.w : (out+1)*a.w])
			a.outMatch[out] = -1
		}
		a.outs[k] = 0
	}
}

func (a *islip) AddRequest(in, out, pri int) {
	if uint(in) >= uint(a.inputs) || uint(out) >= uint(a.outputs) { // (negatives wrap past the end)
		panic(fmt.Sprintf("xbar: allocator request %d→%d outside %d×%d", in, out, a.inputs, a.outputs))
	}
	a.reqIn[in*a.w+out>>6] |= 1 << (out & 63)
	a.reqOut[out*a.w+in>>6] |= 1 << (in & 63)
	a.ins[in>>6] |= 1 << (in & 63)
	a.outs[out>>6] |= 1 << (out & 63)
}

func (a *islip) AddRequestSet(in, first int, set uint64) {
	if set == 0 {
		return
	}
	if last := first + 63 - bits.LeadingZeros64(set); uint(in) >= uint(a.inputs) || first < 0 || last >= a.outputs {
		panic(fmt.Sprintf("xbar: allocator requests %d→%d…%d outside %d×%d", in, first, last, a.inputs, a.outputs))
	}
	if a.w == 1 {
		a.reqIn[in] |= set << first
		a.outs[0] |= set << first
		a.ins[0] |= 1 << in
		for x := set; x != 0; x &= x - 1 {
			a.reqOut[first+bits.TrailingZeros64(x)] |= 1 << in
		}
		return
	}
	k, sh := first>>6, uint(first&63)
	row := a.reqIn[in*a.w : (in+1)*a.w]
	row[k] |= set << sh
	a.outs[k] |= set << sh
	if sh != 0 && k+1 < a.w {
		row[k+1] |= set >> (64 - sh)
		a.outs[k+1] |= set >> (64 - sh)
	}
	a.ins[in>>6] |= 1 << (in & 63)
	for x := set; x != 0; x &= x - 1 {
		out := first + bits.TrailingZeros64(x)
		a.reqOut[out*a.w+in>>6] |= 1 << (in & 63)
	}
}

func (a *islip) GrantSingle(in, first int, set uint64) int {
	if last := first + 63 - bits.LeadingZeros64(set); set == 0 || uint(in) >= uint(a.inputs) || first < 0 || last >= a.outputs {
		panic(fmt.Sprintf("xbar: lone grant %d→%d+%#x outside %d×%d", in, first, set, a.inputs, a.outputs))
	}
	// The first output of the set from the accept pointer on (single's
	// choice), the set being outputs first … first+63.
	out := first + bits.TrailingZeros64(set)
	if rel := int(a.aptr[in]) - first; rel > 0 && rel < 64 {
		if hi := set >> uint(rel) << uint(rel); hi != 0 {
			out = first + bits.TrailingZeros64(hi)
		}
	}
	a.gptr[out] = After(int32(in), int32(a.inputs))
	a.aptr[in] = After(int32(out), int32(a.outputs))
	return out
}

func (a *islip) OutputFor(in int) int { return int(a.inMatch[in]) }
func (a *islip) InputFor(out int) int { return int(a.outMatch[out]) }

func (a *islip) Allocate() {
	if a.w == 1 {
		a.allocate1()
		return
	}
	if a.single() {
		return
	}
	copy(a.freeIn, a.ins)
	copy(a.freeOut, a.outs)
	for iter := 0; iter < a.iters; iter++ {
		// Grant: each free output that a free input asked offers itself.
		for k, x := range a.freeOut {
			for ; x != 0; x &= x - 1 {
				out := k<<6 + bits.TrailingZeros64(x)
				row := a.reqOut[out*a.w : (out+1)*a.w]
				for j := range a.cand {
					a.cand[j] = row[j] & a.freeIn[j]
				}
				if in := firstFrom(a.cand, int(a.gptr[out])); in >= 0 {
					a.offers[in*a.w+out>>6] |= 1 << (out & 63)
					a.offered[in>>6] |= 1 << (in & 63)
				}
			}
		}
		// Accept: each input offered something takes the first offer.
		matched := false
		for k, x := range a.offered {
			for ; x != 0; x &= x - 1 {
				in := k<<6 + bits.TrailingZeros64(x)
				row := a.offers[in*a.w : (in+1)*a.w]
				out := firstFrom(row, int(a.aptr[in]))
				clear(row)
				a.take(in, out, iter == 0)
				matched = true
			}
			a.offered[k] = 0
		}
		// A round that matched nothing leaves every later one the same.
		if !matched {
			return
		}
	}
}

// allocate1 is Allocate for at most 64 inputs and outputs, a set in one
// word (the router's switch allocator, and its VC allocator up to 12 VCs
// on a 5-port switch): what Allocate does, without the loops over words.
func (a *islip) allocate1() {
	ins, outs := a.ins[0], a.outs[0]
	if ins == 0 {
		return
	}
	// One input or one output asked: single's matching, in one word.
	if ins&(ins-1) == 0 || outs&(outs-1) == 0 {
		var in, out int
		if ins&(ins-1) == 0 {
			in = bits.TrailingZeros64(ins)
			out = first1(a.reqIn[in], a.aptr[in])
		} else {
			out = bits.TrailingZeros64(outs)
			in = first1(a.reqOut[out], a.gptr[out])
		}
		if a.inMatch[in] < 0 && a.outMatch[out] < 0 { // (Allocate again without Clear: matched already)
			a.inMatch[in], a.outMatch[out] = int32(out), int32(in)
			a.gptr[out] = After(int32(in), int32(a.inputs))
			a.aptr[in] = After(int32(out), int32(a.outputs))
		}
		return
	}
	freeIn, freeOut := ins, outs
	for iter := 0; iter < a.iters; iter++ {
		var offered uint64
		for x := freeOut; x != 0; x &= x - 1 {
			out := bits.TrailingZeros64(x)
			if c := a.reqOut[out] & freeIn; c != 0 {
				in := first1(c, a.gptr[out])
				a.offers[in] |= 1 << out
				offered |= 1 << in
			}
		}
		// A round that matched nothing leaves every later one the same.
		if offered == 0 {
			return
		}
		for x := offered; x != 0; x &= x - 1 {
			in := bits.TrailingZeros64(x)
			out := first1(a.offers[in], a.aptr[in])
			a.offers[in] = 0
			a.inMatch[in], a.outMatch[out] = int32(out), int32(in)
			freeIn &^= 1 << in
			freeOut &^= 1 << out
			if iter == 0 {
				a.gptr[out] = After(int32(in), int32(a.inputs))
				a.aptr[in] = After(int32(out), int32(a.outputs))
			}
		}
	}
}

// first1 is firstFrom of a one-word set that is not empty.
func first1(x uint64, ptr int32) int {
	if hi := x >> uint(ptr) << uint(ptr); hi != 0 {
		return bits.TrailingZeros64(hi)
	}
	return bits.TrailingZeros64(x)
}

// take matches in with out; a first-round pair moves both pointers.
func (a *islip) take(in, out int, first bool) {
	a.inMatch[in], a.outMatch[out] = int32(out), int32(in)
	a.freeIn[in>>6] &^= 1 << (in & 63)
	a.freeOut[out>>6] &^= 1 << (out & 63)
	if first {
		a.gptr[out] = After(int32(in), int32(a.inputs))
		a.aptr[in] = After(int32(out), int32(a.outputs))
	}
}

// single computes the matching when one input or one output asked (most
// cycles at low load), as the first round would, and reports whether it
// did: with one input every output it asked for offers itself to it and it
// accepts the first from its pointer; with one output the output offers
// itself to the first input from its pointer, which accepts the only offer.
func (a *islip) single() bool {
	var in, out int
	switch {
	case onlyOne(a.ins):
		in = firstFrom(a.ins, 0)
		out = firstFrom(a.reqIn[in*a.w:(in+1)*a.w], int(a.aptr[in]))
	case onlyOne(a.outs):
		out = firstFrom(a.outs, 0)
		in = firstFrom(a.reqOut[out*a.w:(out+1)*a.w], int(a.gptr[out]))
	default:
		return false
	}
	if a.inMatch[in] >= 0 || a.outMatch[out] >= 0 {
		return true // (Allocate again without Clear: the lone pair is matched already)
	}
	a.take(in, out, true)
	return true
}

// onlyOne reports whether set s holds exactly one port.
func onlyOne(s []uint64) bool {
	n := 0
	for _, x := range s {
		n += bits.OnesCount64(x)
	}
	return n == 1
}

// firstFrom is the first port of set s in a round-robin scan that starts
// at ptr (the one nearest at or after ptr, wrapping), or −1 when s is
// empty: BookSim's smallest distance from the pointer.
func firstFrom(s []uint64, ptr int) int {
	k, sh := ptr>>6, uint(ptr&63)
	if x := s[k] >> sh << sh; x != 0 {
		return k<<6 + bits.TrailingZeros64(x)
	}
	for j := k + 1; j < len(s); j++ {
		if s[j] != 0 {
			return j<<6 + bits.TrailingZeros64(s[j])
		}
	}
	for j := 0; j <= k; j++ {
		if s[j] != 0 {
			return j<<6 + bits.TrailingZeros64(s[j])
		}
	}
	return -1
}
