package traffic

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"strconv"

	"github.com/flitsim/flitsim/configs/inputerr"
)

// Shape is the terminal address space: N terminals numbered 0..N-1, each
// address Digits digits in base Radix (N = Radix^Digits). Digit 0 is the
// least significant: in a k-ary 2-mesh node (x, y) is x + k·y, so digit 0 is
// x. Examples: an 8×8 mesh is {64, 8, 2}, a 10-cube {1024, 2, 10}, a MIN of
// 4×4 switches in 3 stages {64, 4, 3}.
type Shape struct{ N, Radix, Digits int }

// Pattern chooses a packet's destination.
type Pattern interface {
	// Name is the canonical pattern name (aliases are resolved).
	Name() string
	// Dest is the destination of a packet from terminal src (0 ≤ src < N).
	// Dest does not allocate. Only uniform and hotspot draw from rng.
	Dest(src int, rng *rand.Rand) int
}

// NewPattern builds the named pattern for the shape. Names are
// case-insensitive; "neighbour" is an alias of "neighbor" and "permutation"
// of "random-permutation". hotspots and hotFrac are used only by "hotspot".
// random-permutation draws its permutation from rng here; the other patterns
// do not use rng at construction.
//
// Several deterministic patterns map some terminals to themselves
// (bit-reversal of palindromes, transpose on the diagonal, perfect-shuffle of
// 0 and N−1, tornado when Radix is 2, fixed points of a random permutation,
// and a hotspot's own packets); Dest returns src for those, and it is up to
// the caller what to do with them.
//
// Errors are *inputerr.Error with Key "traffic.pattern", "traffic.hotspots" or
// "traffic.hotspot_fraction".
func NewPattern(name string, sh Shape, hotspots []int, hotFrac float64, rng *rand.Rand) (Pattern, error) {
	bad := func(allowed string, args ...any) error {
		return &inputerr.Error{Key: "traffic.pattern", Value: name, Allowed: fmt.Sprintf(allowed, args...)}
	}
	if sh.N < 1 {
		return nil, bad("a network with at least one terminal (got N=%d)", sh.N)
	}
	digitsOK := sh.Radix >= 2 && sh.Digits >= 1 && pow(sh.Radix, sh.Digits) == sh.N
	if (sh.Radix != 0 || sh.Digits != 0) && !digitsOK {
		return nil, bad("a shape with N = Radix^Digits (got N=%d, Radix=%d, Digits=%d)", sh.N, sh.Radix, sh.Digits)
	}
	p, ok := LookupPattern(name)
	if !ok || p.New == nil {
		return nil, bad("%s", patternNames())
	}
	return p.New(PatternArgs{Name: name, Shape: sh, Hotspots: hotspots, HotspotFraction: hotFrac, Rng: rng})
}

// The built-in destination patterns, in the order `flitsim list` shows them.
func init() {
	for _, p := range []PatternSpec{
		{Name: "uniform", New: newUniform,
			Desc: "uniformly random over all other terminals (never itself)"},
		{Name: "bit-complement", Aliases: []string{"complement"}, Needs: "N a power of two", New: permutation(pow2Only(func(n, _ int) func(int) int {
			return func(x int) int { return x ^ (n - 1) }
		})), Desc: "complement every address bit (alias complement)"},
		{Name: "bit-reversal", Needs: "N a power of two", New: permutation(pow2Only(func(_, nbits int) func(int) int {
			return func(x int) int {
				if nbits == 0 {
					return 0
				}
				return int(bits.Reverse64(uint64(x)) >> (64 - nbits))
			}
		})), Desc: "reverse the log2 N address bits"},
		{Name: "perfect-shuffle", Needs: "N a power of two", New: permutation(pow2Only(func(n, nbits int) func(int) int {
			return func(x int) int {
				if nbits == 0 {
					return 0
				}
				return (x<<1 | x>>(nbits-1)) & (n - 1)
			}
		})), Desc: "rotate the log2 N address bits left by one"},
		{Name: "transpose", Needs: "even Digits, or N a power of two with an even bit count", New: permutation(transpose),
			Desc: "swap the high and low halves of the address digits ((x,y)→(y,x) on a 2-D mesh); when Digits is odd, swap the high and low halves of the address bits"},
		{Name: "tornado", New: permutation(digitsOnly(tornado)),
			Desc: "every digit x → (x + ⌈Radix/2⌉ − 1) mod Radix"},
		{Name: "neighbor", Aliases: []string{"neighbour"}, New: permutation(digitsOnly(func(sh Shape) func(int) int {
			k := sh.Radix
			return func(x int) int { return x - x%k + (x%k+1)%k }
		})), Desc: "digit 0 x → (x + 1) mod Radix (alias neighbour)"},
		{Name: "random-permutation", Aliases: []string{"permutation"}, New: newRandomPermutation,
			Desc: "one uniformly random permutation of the terminals, fixed for the run (alias permutation)"},
		{Name: "hotspot", Params: []PatternParam{{Key: "traffic.hotspots"}, {Key: "traffic.hotspot_fraction"}}, New: newHotspot,
			Desc: "with probability hotspot_fraction to one of the hotspots (chosen uniformly), otherwise uniform"},
	} {
		RegisterPattern(p)
	}
}

func newUniform(a PatternArgs) (Pattern, error) {
	if a.Shape.N < 2 {
		return nil, a.bad("uniform only with at least 2 terminals (got %d)", a.Shape.N)
	}
	return &uniform{n: a.Shape.N}, nil
}

// permutation makes a pattern that tabulates the mapping f builds.
func permutation(f func(a PatternArgs) (func(int) int, error)) func(PatternArgs) (Pattern, error) {
	return func(a PatternArgs) (Pattern, error) {
		m, err := f(a)
		if err != nil {
			return nil, err
		}
		return table(a.canon(), a.Shape.N, m), nil
	}
}

// pow2Only builds a bit permutation of N = 2^nbits terminals.
func pow2Only(f func(n, nbits int) func(int) int) func(PatternArgs) (func(int) int, error) {
	return func(a PatternArgs) (func(int) int, error) {
		n := a.Shape.N
		if n&(n-1) != 0 {
			return nil, a.bad("%s only when the number of terminals is a power of two (got %d)", a.canon(), n)
		}
		return f(n, bits.TrailingZeros(uint(n))), nil
	}
}

// shapeText says what address shape a network has, as an error shows it:
// "N = 32 terminals, addresses of 2 digits in radix 4", or "no k^n
// address shape" (a rectangular grid, or a network without digits).
func (sh Shape) shapeText() string {
	if sh.digitsOK() {
		return fmt.Sprintf("N = %d terminals, addresses of %d digits in radix %d", sh.N, sh.Digits, sh.Radix)
	}
	return fmt.Sprintf("N = %d terminals, no k^n address shape", sh.N)
}

// digitsOnly builds a digit permutation of a Radix^Digits address space.
func digitsOnly(f func(sh Shape) func(int) int) func(PatternArgs) (func(int) int, error) {
	return func(a PatternArgs) (func(int) int, error) {
		if !a.Shape.digitsOK() {
			return nil, a.bad("%s only on a network whose addresses are k^n digits (this one has %s)", a.canon(), a.Shape.shapeText())
		}
		return f(a.Shape), nil
	}
}

func (sh Shape) digitsOK() bool {
	return sh.Radix >= 2 && sh.Digits >= 1 && pow(sh.Radix, sh.Digits) == sh.N
}

func transpose(a PatternArgs) (func(int) int, error) {
	sh, n := a.Shape, a.Shape.N
	nbits := bits.TrailingZeros(uint(n))
	switch {
	case sh.digitsOK() && sh.Digits%2 == 0:
		h := sh.Digits / 2
		return func(x int) int { return rotateDigits(x, sh.Radix, sh.Digits, h) }, nil
	case n&(n-1) == 0 && nbits%2 == 0:
		h := nbits / 2
		return func(x int) int { return (x>>h | x<<h) & (n - 1) }, nil
	}
	return nil, a.bad("transpose only with an even number of address digits, or a power-of-two number of terminals with an even number of address bits (this network has %s)", sh.shapeText())
}

func tornado(sh Shape) func(int) int {
	k := sh.Radix
	shift := (k+1)/2 - 1
	return func(x int) int {
		y, p := 0, 1
		for i := 0; i < sh.Digits; i++ {
			y += ((x%k + shift) % k) * p
			x /= k
			p *= k
		}
		return y
	}
}

func newRandomPermutation(a PatternArgs) (Pattern, error) {
	n := a.Shape.N
	p := &perm{name: "random-permutation", to: make([]int32, n)}
	for i := range p.to {
		p.to[i] = int32(i)
	}
	a.Rng.Shuffle(n, func(i, j int) { p.to[i], p.to[j] = p.to[j], p.to[i] })
	return p, nil
}

func newHotspot(a PatternArgs) (Pattern, error) {
	n := a.Shape.N
	if n < 2 {
		return nil, a.bad("hotspot only with at least 2 terminals (got %d)", n)
	}
	if len(a.Hotspots) == 0 {
		return nil, &inputerr.Error{Key: "traffic.hotspots", Value: "[]", Allowed: fmt.Sprintf("a non-empty list of terminals 0..%d", n-1),
			Alt: []*inputerr.Error{{Key: "traffic.pattern", Value: a.Name, Allowed: fmt.Sprintf("hotspot only with traffic.hotspots, a non-empty list of terminals 0..%d", n-1)}}}
	}
	hs := make([]int, len(a.Hotspots))
	for i, h := range a.Hotspots {
		if h < 0 || h >= n {
			return nil, &inputerr.Error{Key: "traffic.hotspots", Value: strconv.Itoa(h), Allowed: fmt.Sprintf("terminals 0..%d", n-1)}
		}
		hs[i] = h
	}
	if f := a.HotspotFraction; !(f >= 0 && f <= 1) { // also rejects NaN
		return nil, &inputerr.Error{Key: "traffic.hotspot_fraction", Value: strconv.FormatFloat(f, 'g', -1, 64), Allowed: "a number from 0 to 1"}
	}
	return &hotspot{uniform: uniform{n: n}, hot: hs, frac: a.HotspotFraction}, nil
}

// pow is b^e, or -1 if it overflows an int.
func pow(b, e int) int {
	r := 1
	for i := 0; i < e; i++ {
		if r > math.MaxInt/b {
			return -1
		}
		r *= b
	}
	return r
}

// rotateDigits moves digit i of x (base k, d digits) to digit (i − h) mod d,
// i.e. swaps the high h digits with the low d − h when d = 2h.
func rotateDigits(x, k, d, h int) int {
	p := pow(k, h)
	return x/p + (x%p)*pow(k, d-h)
}

// perm is a fixed mapping src → to[src].
type perm struct {
	name string
	to   []int32
}

func (p *perm) Name() string                   { return p.name }
func (p *perm) Dest(src int, _ *rand.Rand) int { return int(p.to[src]) }

func table(name string, n int, f func(int) int) *perm {
	p := &perm{name: name, to: make([]int32, n)}
	for i := range p.to {
		p.to[i] = int32(f(i))
	}
	return p
}

type uniform struct{ n int }

func (u *uniform) Name() string { return "uniform" }
func (u *uniform) Dest(src int, rng *rand.Rand) int {
	d := rng.IntN(u.n - 1)
	if d >= src {
		d++
	}
	return d
}

type hotspot struct {
	uniform
	hot  []int
	frac float64
}

func (h *hotspot) Name() string { return "hotspot" }
func (h *hotspot) Dest(src int, rng *rand.Rand) int {
	if rng.Float64() < h.frac {
		if len(h.hot) == 1 {
			return h.hot[0]
		}
		return h.hot[rng.IntN(len(h.hot))]
	}
	return h.uniform.Dest(src, rng)
}
