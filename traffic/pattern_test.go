package traffic

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/configs/inputerr"
)

func newRng(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5eed)) }

func mustPattern(t *testing.T, name string, sh Shape) Pattern {
	t.Helper()
	p, err := NewPattern(name, sh, nil, 0, newRng(1))
	if err != nil {
		t.Fatalf("NewPattern(%q, %v): %v", name, sh, err)
	}
	return p
}

func dests(p Pattern, n int) []int {
	d := make([]int, n)
	for i := range d {
		d[i] = p.Dest(i, nil)
	}
	return d
}

func TestDeterministicPatterns(t *testing.T) {
	cases := []struct {
		name string
		sh   Shape
		want []int
	}{
		// 3-bit addresses.
		{"bit-complement", Shape{8, 2, 3}, []int{7, 6, 5, 4, 3, 2, 1, 0}},
		{"bit-reversal", Shape{8, 2, 3}, []int{0, 4, 2, 6, 1, 5, 3, 7}},
		{"perfect-shuffle", Shape{8, 2, 3}, []int{0, 2, 4, 6, 1, 3, 5, 7}},
		// Power-of-two N without digits given.
		{"bit-reversal", Shape{N: 16}, []int{0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15}},
		// 3×3 mesh: (x,y) = x + 3y → (y,x).
		{"transpose", Shape{9, 3, 2}, []int{0, 3, 6, 1, 4, 7, 2, 5, 8}},
		// 4-cube: swap bit pairs (b1b0) and (b3b2) = digit swap in base 2 with 4 digits.
		{"transpose", Shape{16, 2, 4}, []int{0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15}},
		// 3 digits base 4 (odd) → bits: 6 bits, swap low 3 and high 3 bits.
		{"transpose", Shape{64, 4, 3}, func() []int {
			w := make([]int, 64)
			for x := range w {
				w[x] = (x&7)<<3 | x>>3
			}
			return w
		}()},
		// tornado k=8, 1 digit: +3.
		{"tornado", Shape{8, 8, 1}, []int{3, 4, 5, 6, 7, 0, 1, 2}},
		// tornado k=5, 1 digit: ⌈5/2⌉−1 = 2.
		{"tornado", Shape{5, 5, 1}, []int{2, 3, 4, 0, 1}},
		// tornado k=3, 2 digits: +1 on each digit.
		{"tornado", Shape{9, 3, 2}, []int{4, 5, 3, 7, 8, 6, 1, 2, 0}},
		// tornado on a hypercube is the identity (⌈2/2⌉−1 = 0).
		{"tornado", Shape{4, 2, 2}, []int{0, 1, 2, 3}},
		{"neighbor", Shape{9, 3, 2}, []int{1, 2, 0, 4, 5, 3, 7, 8, 6}},
		{"neighbour", Shape{4, 2, 2}, []int{1, 0, 3, 2}},
	}
	for _, c := range cases {
		p := mustPattern(t, c.name, c.sh)
		if got := dests(p, c.sh.N); !slices.Equal(got, c.want) {
			t.Errorf("%s %v: got %v, want %v", c.name, c.sh, got, c.want)
		}
	}
}

func TestExamplesFromSpec(t *testing.T) {
	if d := mustPattern(t, "bit-reversal", Shape{8, 2, 3}).Dest(1, nil); d != 4 {
		t.Errorf("bit-reversal 1 of 8 = %d, want 4", d)
	}
	// 4×4 mesh: (1,2) = 1+4·2 = 9 → (2,1) = 2+4·1 = 6.
	if d := mustPattern(t, "transpose", Shape{16, 4, 2}).Dest(9, nil); d != 6 {
		t.Errorf("transpose (1,2) on 4×4 = %d, want 6", d)
	}
	// 8×8 mesh: (0,0) → (3,3); (5,7) → (0,2).
	tor := mustPattern(t, "tornado", Shape{64, 8, 2})
	if d := tor.Dest(0, nil); d != 3+8*3 {
		t.Errorf("tornado 0 on 8×8 = %d, want 27", d)
	}
	if d := tor.Dest(5+8*7, nil); d != 0+8*2 {
		t.Errorf("tornado (5,7) on 8×8 = %d, want 16", d)
	}
	// 4×4×4 transposes digits? Digits 3 is odd, N = 64 = 2^6: bits.
	if d := mustPattern(t, "transpose", Shape{64, 4, 3}).Dest(1, nil); d != 8 {
		t.Errorf("transpose 1 on {64,4,3} = %d, want 8", d)
	}
}

func TestNamesAndAliases(t *testing.T) {
	for in, want := range map[string]string{"neighbour": "neighbor", "permutation": "random-permutation", " Uniform ": "uniform"} {
		if got := mustPattern(t, in, Shape{16, 4, 2}).Name(); got != want {
			t.Errorf("Name of %q = %q, want %q", in, got, want)
		}
	}
	for _, info := range Patterns() {
		sh := Shape{16, 4, 2}
		var hs []int
		if info.Name == "hotspot" {
			hs = []int{3}
		}
		p, err := NewPattern(info.Name, sh, hs, 0.5, newRng(1))
		if err != nil {
			t.Errorf("listed pattern %q: %v", info.Name, err)
			continue
		}
		if p.Name() != info.Name {
			t.Errorf("pattern %q names itself %q", info.Name, p.Name())
		}
	}
}

func isPerm(d []int) bool {
	s := slices.Clone(d)
	slices.Sort(s)
	for i, v := range s {
		if v != i {
			return false
		}
	}
	return true
}

func TestPermutations(t *testing.T) {
	for _, sh := range []Shape{{64, 8, 2}, {64, 4, 3}, {1024, 2, 10}, {16, 4, 2}, {27, 3, 3}, {256, 16, 2}} {
		for _, name := range []string{"bit-complement", "bit-reversal", "perfect-shuffle", "transpose", "tornado", "neighbor", "random-permutation"} {
			p, err := NewPattern(name, sh, nil, 0, newRng(7))
			if err != nil {
				continue // e.g. bit patterns on 27 nodes
			}
			if d := dests(p, sh.N); !isPerm(d) {
				t.Errorf("%s on %v is not a permutation: %v", name, sh, d)
			}
		}
	}
	// random-permutation is deterministic per seed and differs across seeds.
	a, _ := NewPattern("random-permutation", Shape{N: 64}, nil, 0, newRng(1))
	b, _ := NewPattern("random-permutation", Shape{N: 64}, nil, 0, newRng(1))
	c, _ := NewPattern("random-permutation", Shape{N: 64}, nil, 0, newRng(2))
	if !slices.Equal(dests(a, 64), dests(b, 64)) {
		t.Error("random-permutation differs for the same seed")
	}
	if slices.Equal(dests(a, 64), dests(c, 64)) {
		t.Error("random-permutation equal for different seeds")
	}
}

func TestUniform(t *testing.T) {
	const n, per = 16, 16000
	p := mustPattern(t, "uniform", Shape{n, 4, 2})
	rng := newRng(3)
	for src := 0; src < n; src++ {
		var hist [n]int
		for i := 0; i < per; i++ {
			d := p.Dest(src, rng)
			if d == src || d < 0 || d >= n {
				t.Fatalf("uniform from %d gave %d", src, d)
			}
			hist[d]++
		}
		// Each of the 15 others expects per/15 ≈ 1067, sd ≈ 31.5; allow 5 sd.
		exp := float64(per) / (n - 1)
		for d, c := range hist {
			if d != src && math.Abs(float64(c)-exp) > 5*math.Sqrt(exp) {
				t.Errorf("uniform %d→%d: %d hits, expected ≈ %.0f", src, d, c, exp)
			}
		}
	}
}

func TestHotspot(t *testing.T) {
	const n, trials = 64, 100000
	p, err := NewPattern("hotspot", Shape{n, 8, 2}, []int{5, 9}, 0.3, newRng(1))
	if err != nil {
		t.Fatal(err)
	}
	rng := newRng(4)
	hits := 0
	for i := 0; i < trials; i++ {
		d := p.Dest(20, rng)
		if d == 5 || d == 9 {
			hits++
		}
		if d == 20 {
			t.Fatal("hotspot: uniform part returned src")
		}
	}
	// P(hit) = 0.3 + 0.7·2/63 ≈ 0.3222; sd over 1e5 ≈ 0.0015.
	if got := float64(hits) / trials; math.Abs(got-0.3222) > 0.006 {
		t.Errorf("hotspot hit rate %.4f, want ≈ 0.3222", got)
	}
	all, _ := NewPattern("hotspot", Shape{N: n}, []int{7}, 1, newRng(1))
	for i := 0; i < 100; i++ {
		if d := all.Dest(i%n, rng); d != 7 {
			t.Fatalf("hotspot fraction 1 gave %d", d)
		}
	}
}

func TestPatternErrors(t *testing.T) {
	cases := []struct {
		name    string
		sh      Shape
		hs      []int
		frac    float64
		key     string
		message string // substring
	}{
		{"nonesuch", Shape{64, 8, 2}, nil, 0, "traffic.pattern", "traffic.pattern: nonesuch is not allowed (allowed: uniform, "},
		{"bit-reversal", Shape{27, 3, 3}, nil, 0, "traffic.pattern", "power of two"},
		{"bit-complement", Shape{N: 12}, nil, 0, "traffic.pattern", "power of two"},
		{"perfect-shuffle", Shape{N: 12}, nil, 0, "traffic.pattern", "power of two"},
		{"transpose", Shape{8, 2, 3}, nil, 0, "traffic.pattern", "even number"},
		{"transpose", Shape{27, 3, 3}, nil, 0, "traffic.pattern", "even number"},
		{"tornado", Shape{N: 64}, nil, 0, "traffic.pattern", "no k^n address shape"},
		{"uniform", Shape{64, 8, 3}, nil, 0, "traffic.pattern", "N = Radix^Digits"},
		{"uniform", Shape{1, 0, 0}, nil, 0, "traffic.pattern", "at least 2"},
		{"hotspot", Shape{N: 64}, nil, 0.5, "traffic.hotspots", "traffic.hotspots: [] is not allowed (allowed: a non-empty list of terminals 0..63)"},
		{"hotspot", Shape{N: 64}, []int{3, 64}, 0.5, "traffic.hotspots", "traffic.hotspots: 64 is not allowed (allowed: terminals 0..63)"},
		{"hotspot", Shape{N: 64}, []int{-1}, 0.5, "traffic.hotspots", "-1"},
		{"hotspot", Shape{N: 64}, []int{3}, 1.5, "traffic.hotspot_fraction", "traffic.hotspot_fraction: 1.5 is not allowed (allowed: a number from 0 to 1)"},
		{"hotspot", Shape{N: 64}, []int{3}, -0.1, "traffic.hotspot_fraction", "-0.1"},
		{"hotspot", Shape{N: 64}, []int{3}, math.NaN(), "traffic.hotspot_fraction", "NaN"},
	}
	for _, c := range cases {
		_, err := NewPattern(c.name, c.sh, c.hs, c.frac, newRng(1))
		var e *inputerr.Error
		if !errors.As(err, &e) {
			t.Errorf("%s %v: error %v is not *inputerr.Error", c.name, c.sh, err)
			continue
		}
		if e.Key != c.key || !strings.Contains(e.Error(), c.message) || strings.Contains(e.Error(), "\n") {
			t.Errorf("%s %v: got %q (key %q), want key %q containing %q", c.name, c.sh, e.Error(), e.Key, c.key, c.message)
		}
	}
}

func TestDestDoesNotAllocate(t *testing.T) {
	rng := newRng(1)
	for _, info := range Patterns() {
		p, err := NewPattern(info.Name, Shape{64, 8, 2}, []int{1, 2}, 0.5, newRng(1))
		if err != nil {
			t.Fatal(err)
		}
		src := 0
		if a := testing.AllocsPerRun(1000, func() { src = p.Dest(src, rng) }); a != 0 {
			t.Errorf("%s Dest allocates %v per call", info.Name, a)
		}
	}
}
