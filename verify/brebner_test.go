package verify

import (
	"math"
	"math/bits"
	"strings"
	"testing"
)

// TestBrebnerEntries: the embedded tables parse to the 829 rows less Table
// 3-6's 11 (the multinomial, not a network); the digest's exclusions
// (§8.1) select what it lists; every full-tier row has a quick twin only
// for the CI subset.
func TestBrebnerEntries(t *testing.T) {
	es, err := brebnerEntries()
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 829-11 {
		t.Fatalf("%d entries, want 818", len(es))
	}
	count := map[string]int{}
	refs, outside := 0, 0
	for _, e := range es {
		if !inFamily(e) {
			outside++
		}
		if why := exclusion(e); why != "" {
			count[strings.SplitN(why, ":", 2)[0]]++
		}
		if e.ref != nil {
			refs++
		}
		if _, err := e.setup(1).config(1, 1); err != nil {
			t.Errorf("%s: %v", e.id("brebner"), err)
		}
	}
	want := map[string]int{
		"CCC phase 2 for s ≥ 3":               18, // 3-17, 3-18, 3-22 for s = 3..8
		"CCC phase-2 population for s ≥ 5":    4,
		"shuffle-exchange phase-1 population": 11,
		"torus of odd side":                   18, // times only: 3-44..3-49 for n = 5, 15, 25
		"suspected copy between the phase tables (identical rows; digest §8.1 item 9)": 2,
		"torus 10×10, random strategy, phase 2 (and its total)":                        2,
	}
	for k, n := range want {
		if count[k] != n {
			t.Errorf("%q: %d entries excluded, want %d (all: %v)", k, count[k], n, count)
		}
	}
	if outside != 55+24 { // the exclusions and the odd torus's populations and queues
		t.Errorf("%d entries outside the family rule, want 79", outside)
	}
	if refs < 400 {
		t.Errorf("only %d entries matched a reference-model figure", refs)
	}
}

// TestBrebnerTiers: plain verify runs the quick subset, --only brebner the
// full set and not the quick one.
func TestBrebnerTiers(t *testing.T) {
	full, quick := 0, 0
	for _, c := range Claims() {
		switch {
		case strings.HasPrefix(c.ID, "brebner-ci-"):
			if c.Tier != TierQuick {
				t.Errorf("%s: tier %q", c.ID, c.Tier)
			}
			quick++
		case strings.HasPrefix(c.ID, "brebner-"):
			if c.Tier != TierFull {
				t.Errorf("%s: tier %q", c.ID, c.Tier)
			}
			full++
		}
	}
	if full != 818+8+len(brebnerHistograms)+2 || len(brebnerHistograms) != 106 || quick < 40 || quick > 80 {
		t.Errorf("%d full rows (818 entries + 8 families + 106 histogram rows + 2 adversary rows), %d quick", full, quick)
	}
}

// TestAdversaryPairs: Theorem 2.3's partial permutation for n = 16, r = 2
// pairs all 105 2-subsets of dimensions 1..15 with disjoint ones, every
// destination once; each packet crosses the edge with probability 1/30.
func TestAdversaryPairs(t *testing.T) {
	count, p := adversaryExpected(16, 2)
	if count != 105 || math.Abs(p*float64(count)-3.5) > 1e-12 {
		t.Fatalf("%d packets, p %g", count, p)
	}
	pairs := adversaryPairs(16, 2)
	seen := map[uint32]bool{}
	for _, ab := range pairs {
		if ab[0]&ab[1] != 0 || ab[0]&1 != 0 || ab[1]&1 != 0 || bits.OnesCount32(ab[0]) != 2 || bits.OnesCount32(ab[1]) != 2 || seen[ab[1]] {
			t.Fatalf("pair %b → %b", ab[0], ab[1])
		}
		seen[ab[1]] = true
	}
	if len(pairs) != 105 {
		t.Fatalf("%d pairs", len(pairs))
	}
}

// TestExplainMakesDeviation: a measurement outside tolerance is Deviation
// when Explain gives a reason, Fail when it gives none; a pass never asks.
func TestExplainMakesDeviation(t *testing.T) {
	asked := 0
	for _, c := range []struct {
		ok     bool
		reason string
		want   string
	}{{false, "the reference model agrees", Deviation}, {false, "", Fail}, {true, "unused", Pass}} {
		r := measure(Claim{ID: "x", Measure: func() (string, bool, error) { return "1", c.ok, nil },
			Explain: func() string { asked++; return c.reason }})
		if r.Status != c.want || r.Reason != map[bool]string{true: "", false: c.reason}[c.ok] {
			t.Errorf("ok %v, reason %q: %s (%q)", c.ok, c.reason, r.Status, r.Reason)
		}
	}
	if asked != 2 {
		t.Errorf("Explain asked %d times, want 2", asked)
	}
}

// TestAdversaryRunsBothWays keeps the full-tier Theorem 2.3 rows runnable
// (CI does not run them): a small cube, both routings, real counts.
func TestAdversaryRunsBothWays(t *testing.T) {
	for _, valiant := range []string{"off", "merged"} {
		m, err := adversaryMean(8, 2, 20, valiant)
		if err != nil {
			t.Fatalf("valiant %s: %v", valiant, err)
		}
		if m < 0 || m > 21 {
			t.Fatalf("valiant %s: mean %.3f packets through the edge, outside 0..21", valiant, m)
		}
	}
}
