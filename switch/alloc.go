package xbar

import (
	"fmt"
	"strings"
)

// An Allocator matches inputs to outputs once per cycle (BookSim2's Allocator,
// src/allocators/allocator.hpp): every input gets at most one output and every
// output at most one input.
//
// A cycle is Clear, AddRequest for each request, Allocate, then OutputFor /
// InputFor. The matching does not depend on the order the requests were
// added (BookSim keeps them in port-ordered maps; these allocators rank by
// port wherever BookSim's iteration order matters), so a caller may add them
// in any order. Asking twice for the same pair in one cycle keeps the higher
// priority (BookSim asserts instead). No method allocates memory.
type Allocator interface {
	Clear()                      // forget the last cycle's requests and grants
	AddRequest(in, out, pri int) // input in asks for output out; pri: higher first where the allocator uses priorities (0 for plain use)
	Allocate()                   // compute the matching (and advance the allocator's round-robin pointers as BookSim does)
	OutputFor(in int) int        // the output granted to in, or -1
	InputFor(out int) int        // the input granted out, or -1
}

// A SetRequester takes several requests of one input at once: an
// allocator that keeps its requests as bit sets adds a set in a few word
// operations.
type SetRequester interface {
	// AddRequestSet asks, for input in, for output first+b for every bit b
	// of set, at priority 0: what AddRequest(in, first+b, 0) for each
	// would.
	AddRequestSet(in, first int, set uint64)
}

// A SingleGranter grants at once when one input asks: GrantSingle(in,
// first, set) returns the output that Clear, AddRequestSet(in, first, set)
// and Allocate would grant it, and moves the allocator's pointers as they
// would, without filling the request matrix (OutputFor and InputFor then
// answer for an earlier cycle: do not ask them). set must not be empty.
// An allocator implements it only if, in a cycle where the inputs that ask
// ask for pairwise disjoint sets of outputs, each input is granted what it
// would be granted alone, pointers included (iSLIP: each output has one
// requester, which it offers itself to; each input accepts as if alone),
// so that such a cycle may be a GrantSingle per input.
type SingleGranter interface {
	GrantSingle(in, first int, set uint64) int
}

// allocKinds is the one list of allocator names: NewAllocator's switch,
// AllocatorNames and the error message read it.
var allocKinds = []struct {
	name, booksim string
}{
	// BookSim has no allocator named round_robin: a separable allocator
	// with round-robin arbiters is its separable_input_first with
	// arb_type = round_robin (BookSim's default arb_type), and that is
	// what this is.
	{"round-robin", "separable_input_first (arb_type = round_robin)"},
	{"islip", "islip"},
	{"wavefront", "wavefront"},
	{"separable-input-first", "separable_input_first"},
	{"separable-output-first", "separable_output_first"},
}

// AllocatorNames lists the names NewAllocator accepts, in order:
// round-robin, islip, wavefront, separable-input-first, separable-output-first.
func AllocatorNames() []string {
	s := make([]string, len(allocKinds))
	for i, k := range allocKinds {
		s[i] = k.name
	}
	return s
}

// BookSimAllocator names the BookSim2 allocator (its vc_allocator /
// sw_allocator value) that an allocator kind reproduces, or "" for an
// unknown kind.
func BookSimAllocator(kind string) string {
	for _, k := range allocKinds {
		if k.name == kind {
			return k.booksim
		}
	}
	return ""
}

// NewAllocator builds one by name for inputs×outputs with iters iterations (islip; ignored by the others).
func NewAllocator(kind string, inputs, outputs, iters int) (Allocator, error) {
	if inputs < 1 || outputs < 1 {
		return nil, fmt.Errorf("allocator %s: %d×%d ports (want at least 1×1)", kind, inputs, outputs)
	}
	switch kind {
	case "round-robin", "separable-input-first":
		return newSeparable(inputs, outputs, true), nil
	case "separable-output-first":
		return newSeparable(inputs, outputs, false), nil
	case "islip":
		if iters < 1 {
			return nil, fmt.Errorf("allocator islip: %d iterations (want at least 1)", iters)
		}
		return newISLIP(inputs, outputs, iters), nil
	case "wavefront":
		return newWavefront(inputs, outputs), nil
	}
	return nil, fmt.Errorf("unknown allocator %q (allowed: %s)", kind, strings.Join(AllocatorNames(), ", "))
}

// requests is the request matrix and matching every allocator shares
// (BookSim's SparseAllocator and DenseAllocator in one): a dense priority
// matrix for look-ups, per-port request lists for sparse scans, and the lists
// of ports that asked, so that Clear undoes only what the cycle touched.
type requests struct {
	inputs, outputs int
	has             []uint32 // in*outputs+out: asked this cycle when equal to epoch
	epoch           uint32   // this cycle's mark: Clear moves it on instead of wiping has
	pri             []int    // in*outputs+out: its priority, valid where has
	inReq           []int32  // in*outputs+k: the k-th output in asked for
	inN             []int32  // per input: its requests
	outReq          []int32  // out*inputs+k: the k-th input that asked out
	outN            []int32  // per output: its requests
	inOcc, outOcc   []int32  // ports with requests, in order of first request
	inMatch         []int32  // per input: granted output or -1
	outMatch        []int32  // per output: granted input or -1
}

func newRequests(inputs, outputs int) requests {
	r := requests{
		inputs: inputs, outputs: outputs,
		has:      make([]uint32, inputs*outputs),
		epoch:    1,
		pri:      make([]int, inputs*outputs),
		inReq:    make([]int32, inputs*outputs),
		inN:      make([]int32, inputs),
		outReq:   make([]int32, outputs*inputs),
		outN:     make([]int32, outputs),
		inOcc:    make([]int32, 0, inputs),
		outOcc:   make([]int32, 0, outputs),
		inMatch:  make([]int32, inputs),
		outMatch: make([]int32, outputs),
	}
	for i := range r.inMatch {
		r.inMatch[i] = -1
	}
	for o := range r.outMatch {
		r.outMatch[o] = -1
	}
	return r
}

func (r *requests) Clear() {
	if r.epoch++; r.epoch == 0 { // (wrapped: a stale mark could read as this cycle's)
		clear(r.has)
		r.epoch = 1
	}
	for _, in := range r.inOcc {
		r.inN[in] = 0
		r.inMatch[in] = -1
	}
	for _, out := range r.outOcc {
		r.outN[out] = 0
		r.outMatch[out] = -1
	}
	r.inOcc = r.inOcc[:0]
	r.outOcc = r.outOcc[:0]
}

// add records a request and reports whether the pair is new this cycle.
func (r *requests) add(in, out, pri int) bool {
	if uint(in) >= uint(r.inputs) || uint(out) >= uint(r.outputs) { // (negatives wrap past the end)
		r.outside(in, out)
	}
	i := in*r.outputs + out
	if r.has[i] == r.epoch {
		r.pri[i] = max(r.pri[i], pri)
		return false
	}
	r.has[i], r.pri[i] = r.epoch, pri
	n, m := r.inN[in], r.outN[out]
	if n == 0 {
		r.inOcc = append(r.inOcc, int32(in))
	}
	if m == 0 {
		r.outOcc = append(r.outOcc, int32(out))
	}
	r.inReq[i-out+int(n)] = int32(out)
	r.inN[in] = n + 1
	r.outReq[out*r.inputs+int(m)] = int32(in)
	r.outN[out] = m + 1
	return true
}

// outside panics on a request outside the allocator (a caller's bug).
func (r *requests) outside(in, out int) {
	panic(fmt.Sprintf("xbar: allocator request %d→%d outside %d×%d", in, out, r.inputs, r.outputs))
}

// outputsOf lists the outputs in asked for this cycle (unordered).
func (r *requests) outputsOf(in int32) []int32 {
	row := int(in) * r.outputs
	return r.inReq[row : row+int(r.inN[in])]
}

// inputsOf lists the inputs that asked for out this cycle (unordered).
func (r *requests) inputsOf(out int32) []int32 {
	row := int(out) * r.inputs
	return r.outReq[row : row+int(r.outN[out])]
}

func (r *requests) match(in, out int32) {
	r.inMatch[in] = out
	r.outMatch[out] = in
}

func (r *requests) OutputFor(in int) int { return int(r.inMatch[in]) }
func (r *requests) InputFor(out int) int { return int(r.outMatch[out]) }

// rrDist is a port's place in a round-robin scan of size ports that starts
// at ptr: 0 for ptr itself.
func rrDist(port, ptr, size int32) int32 {
	d := port - ptr
	if d < 0 {
		d += size
	}
	return d
}

// supersedes is BookSim's RoundRobinArbiter::Supersedes: a request from
// port a at priority pa beats one from b at pb when its priority is higher,
// or equal and a comes first in the scan from ptr.
func supersedes(a int32, pa int, b int32, pb int, ptr, size int32) bool {
	return pa > pb || pa == pb && rrDist(a, ptr, size) < rrDist(b, ptr, size)
}

// After is the port after p in a round of size ports (a pointer's move
// past a winner), without a division: tens of cycles saved per grant.
func After(p, size int32) int32 {
	if p++; p == size {
		return 0
	}
	return p
}
