package xbar

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func mustAlloc(t testing.TB, kind string, in, out, iters int) Allocator {
	t.Helper()
	a, err := NewAllocator(kind, in, out, iters)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestAllocatorNames(t *testing.T) {
	want := []string{"round-robin", "islip", "wavefront", "separable-input-first", "separable-output-first"}
	if got := AllocatorNames(); !slices.Equal(got, want) {
		t.Fatalf("AllocatorNames() = %v, want %v", got, want)
	}
	for _, k := range want {
		if _, err := NewAllocator(k, 5, 5, 1); err != nil {
			t.Errorf("NewAllocator(%q): %v", k, err)
		}
		if BookSimAllocator(k) == "" {
			t.Errorf("BookSimAllocator(%q) is empty", k)
		}
	}
	for _, bad := range []struct {
		kind           string
		in, out, iters int
		says           string
	}{
		{"maxsize", 5, 5, 1, "allowed: round-robin, islip, wavefront"},
		{"islip", 5, 5, 0, "0 iterations"},
		{"wavefront", 0, 5, 1, "0×5"},
		{"round-robin", 5, -1, 1, "5×-1"},
	} {
		_, err := NewAllocator(bad.kind, bad.in, bad.out, bad.iters)
		if err == nil || !strings.Contains(err.Error(), bad.says) {
			t.Errorf("NewAllocator(%q, %d, %d, %d) error %v, want one saying %q", bad.kind, bad.in, bad.out, bad.iters, err, bad.says)
		}
	}
}

// randomCycle fills a with a random request set and returns it as a
// matrix (in*out+o: asked).
func randomCycle(r *rand.Rand, a Allocator, in, out int, density float64, maxPri int) []bool {
	a.Clear()
	asked := make([]bool, in*out)
	for _, i := range r.Perm(in * out) {
		if r.Float64() < density {
			asked[i] = true
			a.AddRequest(i/out, i%out, r.IntN(maxPri+1))
		}
	}
	return asked
}

// checkMatching fails unless a's grants are a matching made of requests,
// and (when maximal) no requested pair is left with both ends free.
func checkMatching(t *testing.T, a Allocator, asked []bool, in, out int, maximal bool) {
	t.Helper()
	matched := 0
	for i := range in {
		o := a.OutputFor(i)
		if o < 0 {
			continue
		}
		matched++
		if o >= out || !asked[i*out+o] || a.InputFor(o) != i {
			t.Fatalf("input %d granted output %d (asked %v, InputFor %d)", i, o, o < out && asked[i*out+o], a.InputFor(o))
		}
	}
	anyAsked, granted := false, false
	for i := range in {
		granted = granted || a.OutputFor(i) >= 0
		for o := range out {
			anyAsked = anyAsked || asked[i*out+o]
			if maximal && asked[i*out+o] && a.OutputFor(i) < 0 && a.InputFor(o) < 0 {
				t.Fatalf("not maximal: %d→%d asked, both free", i, o)
			}
		}
	}
	if anyAsked && !granted {
		t.Fatalf("requests but no grant")
	}
}

// TestAllocatorMatchingFuzz runs every allocator on random request sets of
// several shapes: always a matching of requested pairs, at least one grant
// when anything asked; maximal for wavefront, and for islip with as many
// iterations as the smaller side (each round adds a pair while one is
// possible).
func TestAllocatorMatchingFuzz(t *testing.T) {
	shapes := [][2]int{{1, 1}, {5, 5}, {10, 10}, {7, 3}, {3, 7}, {80, 80}}
	for _, kind := range AllocatorNames() {
		for _, sh := range shapes {
			in, out := sh[0], sh[1]
			iters := 2
			maximal := kind == "wavefront"
			if kind == "islip" && in == out && in <= 10 {
				iters, maximal = min(in, out), true
			}
			t.Run(fmt.Sprintf("%s/%dx%d", kind, in, out), func(t *testing.T) {
				r := rand.New(rand.NewPCG(uint64(in), uint64(out)))
				a := mustAlloc(t, kind, in, out, iters)
				for c := range 300 {
					asked := randomCycle(r, a, in, out, []float64{0.05, 0.3, 0.8}[c%3], c%2*3)
					a.Allocate()
					checkMatching(t, a, asked, in, out, maximal)
				}
				a.Clear()
				for i := range in {
					if a.OutputFor(i) != -1 {
						t.Fatalf("after Clear input %d still holds %d", i, a.OutputFor(i))
					}
				}
			})
		}
	}
}

// grantsOf lists OutputFor of every input.
func grantsOf(a Allocator, in int) []int {
	g := make([]int, in)
	for i := range g {
		g[i] = a.OutputFor(i)
	}
	return g
}

// cycle runs one allocation of pairs (in, out, pri triples) and returns the
// grants per input.
func cycle(a Allocator, in int, reqs ...int) []int {
	a.Clear()
	for k := 0; k < len(reqs); k += 3 {
		a.AddRequest(reqs[k], reqs[k+1], reqs[k+2])
	}
	a.Allocate()
	return grantsOf(a, in)
}

func expectGrants(t *testing.T, step string, got []int, want ...int) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s: grants %v, want %v", step, got, want)
	}
}

// iSLIP moves its pointers only for pairs matched in the first round: a pair
// filled in by the second round leaves them alone.
func TestISLIPPointersMoveOnFirstRoundOnly(t *testing.T) {
	a := mustAlloc(t, "islip", 3, 2, 2).(*islip)
	// Round 1: both outputs offer to input 0, which takes output 0;
	// round 2: output 1 offers to input 1.
	expectGrants(t, "cycle 1", cycle(a, 3, 0, 0, 0, 0, 1, 0, 1, 1, 0), 0, 1, -1)
	if !slices.Equal(a.gptr, []int32{1, 0}) || !slices.Equal(a.aptr, []int32{1, 0, 0}) {
		t.Fatalf("after cycle 1 gptr %v aptr %v, want [1 0] and [1 0 0] (the round-2 pair 1→1 moves nothing)", a.gptr, a.aptr)
	}
	// Output 1 still offers to input 0 first, which now takes it
	// (accept pointer 1); input 1 gets nothing.
	expectGrants(t, "cycle 2", cycle(a, 3, 0, 0, 0, 0, 1, 0, 1, 1, 0), 1, -1, -1)
	// One round only: the second-round fill-in is gone.
	b := mustAlloc(t, "islip", 3, 2, 1)
	expectGrants(t, "1 iteration", cycle(b, 3, 0, 0, 0, 0, 1, 0, 1, 1, 0), 0, -1, -1)
}

// Wavefront on a full 3×3 request matrix: the priority diagonal 0 gives
// 0→0, 2→1, 1→2 (cells with in+out ≡ 0 mod 3); next cycle diagonal 1.
func TestWavefrontDiagonals(t *testing.T) {
	a := mustAlloc(t, "wavefront", 3, 3, 1)
	full := []int{}
	for i := range 3 {
		for o := range 3 {
			full = append(full, i, o, 0)
		}
	}
	expectGrants(t, "diagonal 0", cycle(a, 3, full...), 0, 2, 1)
	expectGrants(t, "diagonal 1", cycle(a, 3, full...), 1, 0, 2)
	expectGrants(t, "diagonal 2", cycle(a, 3, full...), 2, 1, 0)
	// A cycle without requests leaves the diagonal where it was.
	cycle(a, 3)
	expectGrants(t, "diagonal 0 again", cycle(a, 3, full...), 0, 2, 1)
	// A higher priority is swept first: 1→1 at priority 1 is granted
	// although diagonal 1 would have given input 1 output 0.
	expectGrants(t, "priority", cycle(a, 3, 1, 0, 0, 1, 1, 1, 0, 1, 0), -1, 1, -1)
}

// Separable input-first: both inputs pick output 0 (pointers at 0), its
// arbiter takes input 0, and input 1 goes without although output 1 is idle
// (not maximal). The winners' pointers move, so the next cycle matches both.
func TestSeparableInputFirst(t *testing.T) {
	for _, kind := range []string{"separable-input-first", "round-robin"} {
		a := mustAlloc(t, kind, 2, 2, 1)
		all := []int{0, 0, 0, 0, 1, 0, 1, 0, 0, 1, 1, 0}
		expectGrants(t, kind+" cycle 1", cycle(a, 2, all...), 0, -1)
		expectGrants(t, kind+" cycle 2", cycle(a, 2, all...), 1, 0)
		// Priority first: input 0's request for output 1 at priority 2
		// beats its round-robin turn (output 0).
		expectGrants(t, kind+" priority", cycle(a, 2, 0, 1, 2, 0, 0, 0, 1, 0, 0), 1, 0)
	}
}

// Separable output-first, the mirror image: both outputs offer to input 0,
// which takes output 0; next cycle output 0 offers to input 1.
func TestSeparableOutputFirst(t *testing.T) {
	a := mustAlloc(t, "separable-output-first", 2, 2, 1)
	all := []int{0, 0, 0, 0, 1, 0, 1, 0, 0, 1, 1, 0}
	expectGrants(t, "cycle 1", cycle(a, 2, all...), 0, -1)
	expectGrants(t, "cycle 2", cycle(a, 2, all...), 1, 0)
}

// A cycle allocates nothing, whatever the allocator.
func TestAllocatorNoAllocation(t *testing.T) {
	for _, kind := range AllocatorNames() {
		a := mustAlloc(t, kind, 10, 10, 2)
		r := rand.New(rand.NewPCG(1, 2))
		reqs := make([][3]int, 0, 100)
		for i := range 10 {
			for o := range 10 {
				if r.IntN(3) == 0 {
					reqs = append(reqs, [3]int{i, o, r.IntN(2)})
				}
			}
		}
		n := testing.AllocsPerRun(100, func() {
			a.Clear()
			for _, q := range reqs {
				a.AddRequest(q[0], q[1], q[2])
			}
			a.Allocate()
		})
		if n != 0 {
			t.Errorf("%s: %v allocations per cycle, want 0", kind, n)
		}
	}
}

// The grants do not depend on the order the requests are added: two
// allocators fed the same requests in different orders, cycle after cycle,
// agree (pointers included, or they would drift apart).
func TestAllocatorOrderIndependent(t *testing.T) {
	for _, kind := range AllocatorNames() {
		a, b := mustAlloc(t, kind, 8, 6, 2), mustAlloc(t, kind, 8, 6, 2)
		r := rand.New(rand.NewPCG(7, 8))
		for c := range 500 {
			var reqs [][3]int
			for i := range 8 {
				for o := range 6 {
					if r.IntN(3) == 0 {
						reqs = append(reqs, [3]int{i, o, r.IntN(2)})
					}
				}
			}
			a.Clear()
			b.Clear()
			for _, q := range reqs {
				a.AddRequest(q[0], q[1], q[2])
			}
			for _, k := range r.Perm(len(reqs)) {
				b.AddRequest(reqs[k][0], reqs[k][1], reqs[k][2])
			}
			a.Allocate()
			b.Allocate()
			if ga, gb := grantsOf(a, 8), grantsOf(b, 8); !slices.Equal(ga, gb) {
				t.Fatalf("%s cycle %d: grants %v in one order, %v in another", kind, c, ga, gb)
			}
		}
	}
}

// refISLIP is iSLIP written plainly over a request matrix (what
// alloc_islip.go computes with bit sets, as it did before them): the
// reference for shapes wider than one 64-bit word, which the BookSim
// streams do not reach.
type refISLIP struct {
	in, out, iters int
	req            [][]bool
	gptr, aptr     []int
	inM, outM      []int
}

func (r *refISLIP) allocate() {
	for i := range r.inM {
		r.inM[i] = -1
	}
	for o := range r.outM {
		r.outM[o] = -1
	}
	for iter := range r.iters {
		grant := make([]int, r.out)
		for o := range grant {
			grant[o] = -1
			for d := 0; d < r.in && r.outM[o] < 0; d++ {
				if i := (r.gptr[o] + d) % r.in; r.req[i][o] && r.inM[i] < 0 {
					grant[o] = i
					break
				}
			}
		}
		for i := range r.in {
			for d := 0; d < r.out && r.inM[i] < 0; d++ {
				if o := (r.aptr[i] + d) % r.out; grant[o] == i {
					r.inM[i], r.outM[o] = o, i
					if iter == 0 {
						r.gptr[o], r.aptr[i] = (i+1)%r.in, (o+1)%r.out
					}
				}
			}
		}
	}
}

// TestISLIPWideMatchesReference runs the bit-set iSLIP and refISLIP on the
// same random requests, cycle after cycle, on shapes of one, two and three
// words (a 16-VC router's 80×80 VC allocator among them).
func TestISLIPWideMatchesReference(t *testing.T) {
	for _, sh := range [][3]int{{80, 80, 2}, {70, 130, 3}, {150, 65, 1}, {64, 64, 2}} {
		in, out, iters := sh[0], sh[1], sh[2]
		a := mustAlloc(t, "islip", in, out, iters)
		ref := &refISLIP{in: in, out: out, iters: iters, gptr: make([]int, out), aptr: make([]int, in),
			inM: make([]int, in), outM: make([]int, out)}
		r := rand.New(rand.NewPCG(uint64(in), uint64(out)))
		for c := range 200 {
			ref.req = make([][]bool, in)
			a.Clear()
			p := []float64{0.002, 0.02, 0.2}[c%3]
			for i := range in {
				ref.req[i] = make([]bool, out)
				for o := range out {
					if r.Float64() < p {
						ref.req[i][o] = true
						a.AddRequest(i, o, 0)
					}
				}
			}
			a.Allocate()
			ref.allocate()
			if got := grantsOf(a, in); !slices.Equal(got, ref.inM) {
				t.Fatalf("%d×%d cycle %d: grants %v, reference %v", in, out, c, got, ref.inM)
			}
		}
	}
}

// AddRequestSet is AddRequest for each output of the set: two iSLIPs fed
// the same requests, one by sets and one pair by pair, agree cycle after
// cycle, on one word and across a word boundary.
func TestISLIPRequestSet(t *testing.T) {
	for _, n := range []int{10, 80, 130} {
		a, b := mustAlloc(t, "islip", n, n, 2), mustAlloc(t, "islip", n, n, 2)
		sr := a.(SetRequester)
		r := rand.New(rand.NewPCG(5, uint64(n)))
		for c := range 300 {
			a.Clear()
			b.Clear()
			for in := range n {
				if r.IntN(3) != 0 {
					continue
				}
				first := r.IntN(n)
				set := r.Uint64() >> r.IntN(64)
				set &= ^uint64(0) >> max(0, 64-(n-first)) // (outputs up to n−1)
				sr.AddRequestSet(in, first, set)
				for x := set; x != 0; x &= x - 1 {
					b.AddRequest(in, first+bits.TrailingZeros64(x), 0)
				}
			}
			a.Allocate()
			b.Allocate()
			if ga, gb := grantsOf(a, n), grantsOf(b, n); !slices.Equal(ga, gb) {
				t.Fatalf("%d×%d cycle %d: grants %v by sets, %v pair by pair", n, n, c, ga, gb)
			}
		}
	}
}

// GrantSingle is Clear, AddRequestSet and Allocate for a lone input: two
// iSLIPs, one granting lone inputs at once, the other allocating every
// cycle, agree cycle after cycle (pointers included) when lone-input
// cycles mix with crowded ones.
func TestISLIPGrantSingle(t *testing.T) {
	for _, n := range []int{10, 80} {
		a, b := mustAlloc(t, "islip", n, n, 2), mustAlloc(t, "islip", n, n, 2)
		r := rand.New(rand.NewPCG(9, uint64(n)))
		lone := 0
		for c := range 600 {
			asking := 1 + r.IntN(3)*r.IntN(2)*n/4
			a.Clear()
			b.Clear()
			var in, first int
			var set uint64
			for range asking {
				in, first = r.IntN(n), r.IntN(n)
				set = (r.Uint64() | 1) & (^uint64(0) >> max(0, 64-(n-first)))
				a.(SetRequester).AddRequestSet(in, first, set)
				b.(SetRequester).AddRequestSet(in, first, set)
			}
			b.Allocate()
			if asking > 1 {
				a.Allocate()
				if ga, gb := grantsOf(a, n), grantsOf(b, n); !slices.Equal(ga, gb) {
					t.Fatalf("%d×%d cycle %d: grants %v and %v", n, n, c, ga, gb)
				}
				continue
			}
			lone++
			if got := a.(SingleGranter).GrantSingle(in, first, set); got != b.OutputFor(in) {
				t.Fatalf("%d×%d cycle %d: lone input %d granted %d, Allocate %d", n, n, c, in, got, b.OutputFor(in))
			}
		}
		if lone < 100 {
			t.Fatalf("%d×%d: %d lone-input cycles, want at least 100", n, n, lone)
		}
	}
}

// A cycle whose inputs ask for pairwise disjoint sets of outputs is a
// GrantSingle per input (SingleGranter's promise): an iSLIP granting so
// and one allocating agree cycle after cycle, pointers included.
func TestISLIPGrantSingleDisjoint(t *testing.T) {
	for _, n := range []int{10, 80} {
		a, b := mustAlloc(t, "islip", n, n, 2), mustAlloc(t, "islip", n, n, 2)
		r := rand.New(rand.NewPCG(11, uint64(n)))
		for c := range 500 {
			b.Clear()
			ins := r.Perm(n)[:1+r.IntN(4)]
			outs := r.Perm(n) // dealt out: disjoint sets
			var grants [][2]int
			for k, in := range ins {
				share := outs[k*n/len(ins) : (k+1)*n/len(ins)]
				first, set := share[0], uint64(0)
				for _, o := range share[:1+r.IntN(len(share))] {
					if o >= first && o-first < 64 {
						set |= 1 << (o - first)
					}
				}
				b.(SetRequester).AddRequestSet(in, first, set)
				grants = append(grants, [2]int{in, a.(SingleGranter).GrantSingle(in, first, set)})
			}
			b.Allocate()
			for _, g := range grants {
				if got := b.OutputFor(g[0]); got != g[1] {
					t.Fatalf("%d×%d cycle %d: input %d granted %d alone, %d by Allocate", n, n, c, g[0], g[1], got)
				}
			}
		}
	}
}
