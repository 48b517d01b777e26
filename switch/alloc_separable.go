package xbar

// separable is BookSim2's SeparableInputFirstAllocator and
// SeparableOutputFirstAllocator (src/allocators/separable*.cpp) with
// round-robin arbiters (arb_type = round_robin, BookSim's default): one
// arbiter per input and one per output, a single pass. Input-first: each
// input's arbiter picks one of its requests (highest priority, then round
// robin from its pointer), then each output's arbiter picks among the inputs
// that picked it. Output-first is the mirror image. Only the arbiters of a
// granted pair move their pointers, to one past the winner, as BookSim's
// UpdateState after a grant does; an input that lost at its output keeps its
// pointer. Not maximal: an input refused by the output it picked gets nothing
// this cycle even if another of its outputs stays idle.
type separable struct {
	requests
	inputFirst bool
	inPtr      []int32 // per input arbiter: the output with top priority
	outPtr     []int32 // per output arbiter: the input with top priority
	// second-stage arbiters' running winners this cycle: per output (input
	// first) or per input (output first), the port that leads, or -1.
	best    []int32
	bestPri []int
}

func newSeparable(inputs, outputs int, inputFirst bool) *separable {
	s := &separable{
		requests:   newRequests(inputs, outputs),
		inputFirst: inputFirst,
		inPtr:      make([]int32, inputs),
		outPtr:     make([]int32, outputs),
		best:       make([]int32, max(inputs, outputs)),
		bestPri:    make([]int, max(inputs, outputs)),
	}
	for i := range s.best {
		s.best[i] = -1
	}
	return s
}

func (s *separable) AddRequest(in, out, pri int) { s.add(in, out, pri) }

func (s *separable) Allocate() {
	if s.inputFirst {
		s.allocate(s.inOcc, s.outOcc, s.inPtr, s.outPtr, int32(s.outputs), int32(s.inputs), false)
	} else {
		s.allocate(s.outOcc, s.inOcc, s.outPtr, s.inPtr, int32(s.inputs), int32(s.outputs), true)
	}
}

// allocate runs the two stages from the side that picks first (first, its
// pointers fPtr over fSize ports on the other side) to the side that
// decides (second, sPtr over sSize ports). swapped says first is the output
// side, so pairs are (second, first).
func (s *separable) allocate(first, second, fPtr, sPtr []int32, fSize, sSize int32, swapped bool) {
	for _, f := range first {
		var cands []int32
		if swapped {
			cands = s.inputsOf(f)
		} else {
			cands = s.outputsOf(f)
		}
		pick, pp := int32(-1), 0
		for _, c := range cands {
			p := s.pairPri(f, c, swapped)
			if pick < 0 || supersedes(c, p, pick, pp, fPtr[f], fSize) {
				pick, pp = c, p
			}
		}
		// The second-stage arbiter sees the request at the same
		// priority (in_pri = out_pri in every BookSim router call).
		if b := s.best[pick]; b < 0 || supersedes(f, pp, b, s.bestPri[pick], sPtr[pick], sSize) {
			s.best[pick], s.bestPri[pick] = f, pp
		}
	}
	for _, sc := range second {
		f := s.best[sc]
		if f < 0 {
			continue
		}
		s.best[sc] = -1
		if swapped {
			s.match(sc, f)
		} else {
			s.match(f, sc)
		}
		fPtr[f] = After(sc, fSize)
		sPtr[sc] = After(f, sSize)
	}
}

func (s *separable) pairPri(f, c int32, swapped bool) int {
	if swapped {
		return s.pri[int(c)*s.outputs+int(f)]
	}
	return s.pri[int(f)*s.outputs+int(c)]
}
