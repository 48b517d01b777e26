package traffic

import (
	"math/rand/v2"
	"slices"
	"testing"
)

type countEmit struct{ uni, multi int }

func (c *countEmit) Emit(src, dst, flits int)                  { c.uni++ }
func (c *countEmit) EmitMulticast(src int, d []int, flits int) { c.multi++ }

func init() {
	// A pattern registered from outside the built-ins, as a new file would.
	RegisterPattern(PatternSpec{Name: "test-reverse", Aliases: []string{"test-rev"},
		Desc: "terminal x sends to N−1−x (a test pattern)",
		New: func(a PatternArgs) (Pattern, error) {
			return table("test-reverse", a.Shape.N, func(x int) int { return a.Shape.N - 1 - x }), nil
		}})
}

// TestEveryPatternGenerates builds every registered pattern through
// NewWorkload (as the network does) on an 8×8 mesh's address space and
// checks that it generates packets of the right cast, and that its names
// and aliases look it up.
func TestEveryPatternGenerates(t *testing.T) {
	all := AllPatterns()
	if !slices.ContainsFunc(all, func(p PatternSpec) bool { return p.Name == "test-reverse" }) {
		t.Fatal("a registered pattern is not listed")
	}
	for _, p := range all {
		for _, name := range append([]string{p.Name}, p.Aliases...) {
			if q, ok := LookupPattern(name); !ok || q.Name != p.Name {
				t.Errorf("LookupPattern(%q) = %q, %v", name, q.Name, ok)
			}
		}
		if p.Desc == "" {
			t.Errorf("%s: no description", p.Name)
		}
		g, err := NewWorkload(PatternArgs{Name: p.Name, Shape: Shape{64, 8, 2}, Load: 0.3, Length: Length{Min: 4, Max: 4},
			Hotspots: []int{5}, HotspotFraction: 0.5, Ratio: 0.5, Rng: rand.New(rand.NewPCG(1, 1))})
		if p.BatchOnly { // (the network builds it: network/multi.go)
			if err == nil {
				t.Errorf("%s: a batch-only pattern built as open traffic", p.Name)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		var c countEmit
		for now := int64(0); now < 200; now++ {
			if g.NextAt(now) == now {
				g.Generate(now, &c)
			}
		}
		if p.Multicast && (c.multi == 0 || c.uni != 0) || !p.Multicast && (c.uni == 0 || c.multi != 0) {
			t.Errorf("%s: %d unicasts, %d multicasts in 200 cycles", p.Name, c.uni, c.multi)
		}
		if (p.New == nil) == (p.NewGenerator == nil) {
			t.Errorf("%s: want exactly one constructor", p.Name)
		}
	}
}
