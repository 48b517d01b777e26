package traffic

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/flitsim/flitsim/inputerr"
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

// PatternInfo describes a pattern for `flitsim list`.
type PatternInfo struct {
	Name   string
	Params string
	Desc   string
}

var patternInfo = []PatternInfo{
	{"uniform", "", "uniformly random over all other terminals (never itself)"},
	{"bit-complement", "N a power of two", "complement every address bit"},
	{"bit-reversal", "N a power of two", "reverse the log2 N address bits"},
	{"perfect-shuffle", "N a power of two", "rotate the log2 N address bits left by one"},
	{"transpose", "even Digits, or N a power of two with an even bit count",
		"swap the high and low halves of the address digits ((x,y)→(y,x) on a 2-D mesh); when Digits is odd, swap the high and low halves of the address bits"},
	{"tornado", "", "every digit x → (x + ⌈Radix/2⌉ − 1) mod Radix"},
	{"neighbor", "", "digit 0 x → (x + 1) mod Radix (alias neighbour)"},
	{"random-permutation", "", "one uniformly random permutation of the terminals, fixed for the run (alias permutation)"},
	{"hotspot", "traffic.hotspots, traffic.hotspot_fraction",
		"with probability hotspot_fraction to one of the hotspots (chosen uniformly), otherwise uniform"},
}

var aliases = map[string]string{
	"neighbour":   "neighbor",
	"permutation": "random-permutation",
}

// Patterns lists the synthetic patterns NewPattern accepts (aliases are
// mentioned in the descriptions).
func Patterns() []PatternInfo {
	return append([]PatternInfo(nil), patternInfo...)
}

func patternNames() string {
	names := make([]string, 0, len(patternInfo)+len(aliases))
	for _, p := range patternInfo {
		names = append(names, p.Name)
	}
	return strings.Join(names, ", ") + " (aliases neighbour, permutation)"
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
	canon := strings.ToLower(strings.TrimSpace(name))
	if a, ok := aliases[canon]; ok {
		canon = a
	}
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
	pow2 := sh.N&(sh.N-1) == 0
	nbits := bits.TrailingZeros(uint(sh.N)) // log2 N when pow2
	needPow2 := func() error {
		if !pow2 {
			return bad("%s only when the number of terminals is a power of two (got %d)", canon, sh.N)
		}
		return nil
	}
	needDigits := func() error {
		if !digitsOK {
			return bad("%s only with an address shape Radix^Digits (got N=%d, Radix=%d, Digits=%d)", canon, sh.N, sh.Radix, sh.Digits)
		}
		return nil
	}
	n := sh.N
	switch canon {
	case "uniform":
		if n < 2 {
			return nil, bad("uniform only with at least 2 terminals (got %d)", n)
		}
		return &uniform{n: n}, nil
	case "bit-complement":
		if err := needPow2(); err != nil {
			return nil, err
		}
		return table(canon, n, func(x int) int { return x ^ (n - 1) }), nil
	case "bit-reversal":
		if err := needPow2(); err != nil {
			return nil, err
		}
		return table(canon, n, func(x int) int {
			if nbits == 0 {
				return 0
			}
			return int(bits.Reverse64(uint64(x)) >> (64 - nbits))
		}), nil
	case "perfect-shuffle":
		if err := needPow2(); err != nil {
			return nil, err
		}
		return table(canon, n, func(x int) int {
			if nbits == 0 {
				return 0
			}
			return (x<<1 | x>>(nbits-1)) & (n - 1)
		}), nil
	case "transpose":
		switch {
		case digitsOK && sh.Digits%2 == 0:
			h := sh.Digits / 2
			return table(canon, n, func(x int) int { return rotateDigits(x, sh.Radix, sh.Digits, h) }), nil
		case pow2 && nbits%2 == 0:
			h := nbits / 2
			return table(canon, n, func(x int) int { return (x>>h | x<<h) & (n - 1) }), nil
		}
		return nil, bad("transpose only with an even number of address digits, or a power-of-two number of terminals with an even number of address bits (got N=%d, Radix=%d, Digits=%d)", n, sh.Radix, sh.Digits)
	case "tornado":
		if err := needDigits(); err != nil {
			return nil, err
		}
		k := sh.Radix
		shift := (k+1)/2 - 1
		return table(canon, n, func(x int) int {
			y, p := 0, 1
			for i := 0; i < sh.Digits; i++ {
				y += ((x%k + shift) % k) * p
				x /= k
				p *= k
			}
			return y
		}), nil
	case "neighbor":
		if err := needDigits(); err != nil {
			return nil, err
		}
		k := sh.Radix
		return table(canon, n, func(x int) int { return x - x%k + (x%k+1)%k }), nil
	case "random-permutation":
		p := &perm{name: canon, to: make([]int32, n)}
		for i := range p.to {
			p.to[i] = int32(i)
		}
		rng.Shuffle(n, func(i, j int) { p.to[i], p.to[j] = p.to[j], p.to[i] })
		return p, nil
	case "hotspot":
		if n < 2 {
			return nil, bad("hotspot only with at least 2 terminals (got %d)", n)
		}
		if len(hotspots) == 0 {
			return nil, &inputerr.Error{Key: "traffic.hotspots", Value: "[]", Allowed: fmt.Sprintf("a non-empty list of terminals 0..%d", n-1)}
		}
		hs := make([]int, len(hotspots))
		for i, h := range hotspots {
			if h < 0 || h >= n {
				return nil, &inputerr.Error{Key: "traffic.hotspots", Value: strconv.Itoa(h), Allowed: fmt.Sprintf("terminals 0..%d", n-1)}
			}
			hs[i] = h
		}
		if !(hotFrac >= 0 && hotFrac <= 1) { // also rejects NaN
			return nil, &inputerr.Error{Key: "traffic.hotspot_fraction", Value: strconv.FormatFloat(hotFrac, 'g', -1, 64), Allowed: "a number from 0 to 1"}
		}
		return &hotspot{uniform: uniform{n: n}, hot: hs, frac: hotFrac}, nil
	}
	return nil, bad("%s", patternNames())
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
