package xbar

// islip is BookSim2's iSLIP_Sparse (src/allocators/islip.cpp): iters rounds
// of grant and accept. Grant: every unmatched output offers itself to the
// first unmatched input that asked for it, scanning from its grant pointer.
// Accept: every input takes the first output that offered itself, scanning
// from its accept pointer. Pointers move to one past the partner only for
// pairs matched in the first round (what keeps iSLIP starvation-free);
// later rounds only fill in. Priorities are ignored, as in BookSim.
type islip struct {
	requests
	iters  int
	gptr   []int32 // per output: the input it offers itself to first
	aptr   []int32 // per input: the output it accepts first
	grants []int32 // per output, this round: the input offered, or -1
}

func newISLIP(inputs, outputs, iters int) *islip {
	return &islip{
		requests: newRequests(inputs, outputs),
		iters:    iters,
		gptr:     make([]int32, outputs),
		aptr:     make([]int32, inputs),
		grants:   make([]int32, outputs),
	}
}

func (a *islip) AddRequest(in, out, pri int) { a.add(in, out, pri) }

func (a *islip) Allocate() {
	ins, outs := int32(a.inputs), int32(a.outputs)
	if a.single(ins, outs) {
		return
	}
	// Once every input or every output that asked is matched no later
	// round can match more: stopping then changes nothing.
	left := min(len(a.inOcc), len(a.outOcc))
	for iter := 0; iter < a.iters && left > 0; iter++ {
		for _, out := range a.outOcc {
			a.grants[out] = -1
			if a.outMatch[out] >= 0 {
				continue
			}
			best := int32(-1)
			for _, in := range a.inputsOf(out) {
				if a.inMatch[in] < 0 && (best < 0 || rrDist(in, a.gptr[out], ins) < rrDist(best, a.gptr[out], ins)) {
					best = in
				}
			}
			a.grants[out] = best
		}
		matched := false
		for _, in := range a.inOcc {
			if a.inMatch[in] >= 0 {
				continue
			}
			best := int32(-1)
			for _, out := range a.outputsOf(in) {
				if a.grants[out] == in && (best < 0 || rrDist(out, a.aptr[in], outs) < rrDist(best, a.aptr[in], outs)) {
					best = out
				}
			}
			if best < 0 {
				continue
			}
			a.match(in, best)
			matched = true
			left--
			if iter == 0 {
				a.gptr[best] = After(in, ins)
				a.aptr[in] = After(best, outs)
			}
		}
		// A round that matched nothing leaves every later one the same.
		if !matched {
			return
		}
	}
}

// single computes the matching when one input or one output asked (most
// cycles at low load), as the first round would, and reports whether it
// did: with one input every output it asked for offers itself to it and it
// accepts the first from its pointer; with one output the output offers
// itself to the first input from its pointer, which accepts the only offer.
func (a *islip) single(ins, outs int32) bool {
	var in, out int32
	switch {
	case len(a.inOcc) == 1:
		in, out = a.inOcc[0], -1
		for _, o := range a.outputsOf(in) {
			if out < 0 || rrDist(o, a.aptr[in], outs) < rrDist(out, a.aptr[in], outs) {
				out = o
			}
		}
	case len(a.outOcc) == 1:
		in, out = -1, a.outOcc[0]
		for _, i := range a.inputsOf(out) {
			if in < 0 || rrDist(i, a.gptr[out], ins) < rrDist(in, a.gptr[out], ins) {
				in = i
			}
		}
	default:
		return false
	}
	if a.inMatch[in] >= 0 || a.outMatch[out] >= 0 {
		return true // (Allocate again without Clear: the lone pair is matched already)
	}
	a.match(in, out)
	a.gptr[out] = After(in, ins)
	a.aptr[in] = After(out, outs)
	return true
}
