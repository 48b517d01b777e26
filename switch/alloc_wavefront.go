package xbar

// wavefront is BookSim2's Wavefront (src/allocators/wavefront.cpp, without
// rr_wavefront's diagonal skipping): the request matrix is padded to a
// square n = max(inputs, outputs) and swept diagonal by diagonal (cells
// with in+out ≡ d mod n), starting at the priority diagonal; a cell whose
// input and output are both still free is granted. Priority levels are
// swept one after the other, highest first. Every free pair that asked is
// looked at once, so the matching is maximal. After a cycle with requests
// the priority diagonal moves on by one. A lone request is granted at once.
type wavefront struct {
	requests
	square  int
	diag    int   // BookSim's _pri: the diagonal swept first
	n       int   // distinct requests this cycle
	lastIn  int   // the last request, for the lone-request case
	lastOut int   //
	levels  []int // distinct priorities this cycle, highest first
}

func newWavefront(inputs, outputs int) *wavefront {
	return &wavefront{
		requests: newRequests(inputs, outputs),
		square:   max(inputs, outputs),
		levels:   make([]int, 0, 4),
	}
}

func (w *wavefront) Clear() {
	w.requests.Clear()
	w.n = 0
	w.levels = w.levels[:0]
}

func (w *wavefront) AddRequest(in, out, pri int) {
	if !w.add(in, out, pri) {
		pri = w.pri[in*w.outputs+out] // a repeat may have raised it
	} else {
		w.n++
		w.lastIn, w.lastOut = in, out
	}
	i := 0
	for i < len(w.levels) && w.levels[i] > pri {
		i++
	}
	if i == len(w.levels) || w.levels[i] != pri {
		w.levels = append(w.levels, 0) // grows only past 4 levels
		copy(w.levels[i+1:], w.levels[i:])
		w.levels[i] = pri
	}
}

func (w *wavefront) Allocate() {
	switch w.n {
	case 0:
		return // BookSim bypasses the allocator, the diagonal stays
	case 1:
		w.match(int32(w.lastIn), int32(w.lastOut))
	default:
		for _, lv := range w.levels {
			w.sweep(lv)
		}
	}
	w.diag = (w.diag + 1) % w.square
}

// sweep grants, at priority level lv, every free requested pair, diagonal by
// diagonal from w.diag, in BookSim's order within a diagonal (output 0 up).
func (w *wavefront) sweep(lv int) {
	sq := w.square
	for p := 0; p < sq; p++ {
		for out := 0; out < sq; out++ {
			in := (w.diag + p + sq - out) % sq
			if in >= w.inputs || out >= w.outputs || w.inMatch[in] >= 0 || w.outMatch[out] >= 0 {
				continue
			}
			if i := in*w.outputs + out; w.has[i] == w.epoch && w.pri[i] == lv {
				w.match(int32(in), int32(out))
			}
		}
	}
}
