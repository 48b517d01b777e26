package collective

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/network/topology"
)

func runFold(t *testing.T, d int, task string, params map[string]string) *Result {
	t.Helper()
	return runKind(t, "folded-cube", d, task, params, 1)
}

// runKind runs task, failing unless every packet reached every node it
// must exactly once and the slots are within the bounds.
func runKind(t *testing.T, kind string, d int, task string, params map[string]string, seed uint64) *Result {
	t.Helper()
	r, err := Run(topology.Spec{Kind: kind, D: d, Seed: seed}, task, params, seed)
	if err != nil {
		t.Fatalf("%s %s d=%d: %v", kind, task, d, err)
	}
	if !r.Delivered || r.Deliveries == 0 {
		t.Fatalf("%s %s d=%d: not delivered (missing %d, duplicates %d, stray %d)", kind, task, d, r.Missing, r.Duplicates, r.Stray)
	}
	if r.Slots < r.LowerBound {
		t.Fatalf("%s %s d=%d: %g slots beat the lower bound %g", kind, task, d, r.Slots, r.LowerBound)
	}
	if r.UpperBound != nil && r.Slots > *r.UpperBound {
		t.Fatalf("%s %s d=%d: %g slots above the upper bound %g", kind, task, d, r.Slots, *r.UpperBound)
	}
	return r
}

// Folded-cube TE: 2^{d−1} − ½·C(d,⌈d/2⌉) exactly where it is whole, its
// ceiling (3 and 47) for d = 3, 7 (digest 000b §5.4, §7 item 21); every
// link busy in every slot when exact; the greedy rule within + d − 1.
func TestFoldedTE(t *testing.T) {
	want := map[int]float64{2: 1, 3: 3, 4: 5, 5: 11, 6: 22, 7: 47, 8: 93, 9: 193}
	for d := 2; d <= 9; d++ {
		n := 1 << d
		r := runFold(t, d, "te", nil)
		if r.Slots != want[d] || r.LowerBound != math.Ceil(*r.Formula) || r.Deliveries != int64(n*(n-1)) {
			t.Errorf("te d=%d: %g slots (formula %g, lower bound %g, %d deliveries), want %g", d, r.Slots, *r.Formula, r.LowerBound, r.Deliveries, want[d])
		}
		if *r.Formula == want[d] && r.LinkUtilisation != 1 {
			t.Errorf("te d=%d: utilisation %g, want 1", d, r.LinkUtilisation)
		}
		g := runFold(t, d, "te-greedy", nil)
		if g.Slots > *g.UpperBound {
			t.Errorf("te-greedy d=%d: %g slots above %g", d, g.Slots, *g.UpperBound)
		}
	}
}

// The d = 4 task matrix (digest 000b §6 item 12): every column sums to 5,
// rows to at most 2; d = 5 (item 13): columns 11, rows at most 3.
func TestFoldedTags(t *testing.T) {
	for _, c := range []struct{ d, col, row int }{{4, 5, 2}, {5, 11, 3}, {6, 22, 3}} {
		tags := foldedTags(c.d)
		h, cols := critical(tags, c.d+1)
		for j, s := range cols {
			if s != c.col {
				t.Errorf("d=%d: column %d sums to %d, want %d", c.d, j, s, c.col)
			}
		}
		if h != c.col {
			t.Errorf("d=%d: critical sum %d, want %d", c.d, h, c.col)
		}
		for i, tag := range tags {
			if w := bits.OnesCount32(tag); w > c.row {
				t.Errorf("d=%d: row %d has %d entries", c.d, i, w)
			}
			if x := tagNode(c.d, tag); x != i+1 {
				t.Errorf("d=%d: tag %b leads to offset %d, want %d", c.d, tag, x, i+1)
			}
		}
	}
}

// edgeColour splits any 0/1 matrix into exactly h partial permutation
// matrices (h its critical sum) whose union is the matrix.
func TestEdgeColourRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 7))
	for trial := 0; trial < 200; trial++ {
		cols := 2 + rng.IntN(9)
		tags := make([]uint32, 1+rng.IntN(60))
		for i := range tags {
			tags[i] = rng.Uint32() & (1<<cols - 1) & rng.Uint32()
		}
		h, _ := critical(tags, cols)
		steps := edgeColour(tags, cols, h)
		if len(steps) != h {
			t.Fatalf("trial %d: %d steps, want h = %d", trial, len(steps), h)
		}
		got := make([]uint32, len(tags))
		for _, st := range steps {
			rows, cs := map[int32]bool{}, map[int32]bool{}
			for _, e := range st {
				if rows[e.Row] || cs[e.Dim] || got[e.Row]>>e.Dim&1 == 1 {
					t.Fatalf("trial %d: step %v is not a partial permutation of new entries", trial, st)
				}
				rows[e.Row], cs[e.Dim] = true, true
				got[e.Row] |= 1 << e.Dim
			}
		}
		for i := range tags {
			if got[i] != tags[i] {
				t.Fatalf("trial %d: row %d cleared %b, want %b", trial, i, got[i], tags[i])
			}
		}
	}
}

// MNB with splitting in exactly (N−1)/(d+1); without, the class algorithm
// d + Σ⌈M'/2^k⌉ within ⌈N/(d+1)⌉ + 2d − 1 (44 at d = 8, digest §6 item 16).
func TestFoldedMNB(t *testing.T) {
	for d := 2; d <= 8; d++ {
		n := 1 << d
		s := runFold(t, d, "mnb", map[string]string{"task.split": "true"})
		if f := float64(n-1) / float64(d+1); math.Abs(s.Slots-f) > 1e-9 || *s.MiniSlots != int64(n-1) || s.Deliveries != int64(n*(n-1)*(d+1)) {
			t.Errorf("mnb split d=%d: %g slots (%d mini-slots), want %g", d, s.Slots, *s.MiniSlots, f)
		}
		r := runFold(t, d, "mnb", nil)
		if r.Slots != *r.Formula {
			t.Errorf("mnb d=%d: %g slots, formula %g", d, r.Slots, *r.Formula)
		}
		if d == 8 && *r.UpperBound != 44 {
			t.Errorf("mnb d=8: upper bound %g, want 44", *r.UpperBound)
		}
	}
}

// PMNB and PMNA on random active sets: the class algorithm's exact length,
// within the paper's bounds; PMNA (reversed) takes as long.
func TestFoldedPMNBAndPMNA(t *testing.T) {
	for _, c := range []struct{ d, m int }{{3, 1}, {4, 5}, {5, 7}, {6, 40}, {7, 100}, {8, 256}} {
		for seed := uint64(1); seed <= 2; seed++ {
			p := runKind(t, "folded-cube", c.d, "pmnb", map[string]string{"task.m": fmt.Sprint(c.m)}, seed)
			a := runKind(t, "folded-cube", c.d, "pmna", map[string]string{"task.m": fmt.Sprint(c.m)}, seed)
			n := 1 << c.d
			if p.Slots != *p.Formula || a.Slots != p.Slots || a.Deliveries != int64(c.m*(n-1)) {
				t.Errorf("d=%d M=%d: pmnb %g (formula %g), pmna %g with %d contributions", c.d, c.m, p.Slots, *p.Formula, a.Slots, a.Deliveries)
			}
		}
	}
}

// SNB and SNA in ⌈d/2⌉ from any root; SNG and SNS deliver every packet
// within the MNB's bound.
func TestFoldedSingleNode(t *testing.T) {
	for d := 2; d <= 8; d++ {
		n := 1 << d
		for _, root := range []int{0, 5 % n, n - 1} {
			p := map[string]string{"task.root": fmt.Sprint(root)}
			for _, task := range []string{"snb", "sna"} {
				if r := runFold(t, d, task, p); r.Slots != float64((d+1)/2) || r.Deliveries != int64(n-1) {
					t.Errorf("%s d=%d root %d: %g slots, %d deliveries, want ⌈d/2⌉", task, d, root, r.Slots, r.Deliveries)
				}
			}
			for _, task := range []string{"sng", "sns"} {
				if r := runFold(t, d, task, p); r.Deliveries != int64(n-1) {
					t.Errorf("%s d=%d root %d: %d deliveries", task, d, root, r.Deliveries)
				}
			}
		}
	}
}

// Bad task keys are refused with the key, the value and what is allowed.
func TestFoldedBadInput(t *testing.T) {
	for _, c := range []struct {
		d      int
		task   string
		params map[string]string
		want   string
	}{
		{4, "mnb", map[string]string{"task.split": "maybe"}, "task.split"},
		{4, "snb", map[string]string{"task.root": "16"}, "task.root"},
		{4, "te", map[string]string{"task.m": "3"}, "task.m"},
		{4, "banded", nil, "--task"},
		{11, "te", nil, "topology.d"},
	} {
		_, err := Run(topology.Spec{Kind: "folded-cube", D: c.d}, c.task, c.params, 1)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v: error %v, want one naming %s", c.task, c.params, err, c.want)
		}
	}
}

// Random isotropic tasks on the folded cube finish in exactly their
// critical sum (Theorem 1's bound) by the edge-colouring schedule.
func TestFoldedRandomIsotropic(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 3))
	for d := 2; d <= 7; d++ {
		for trial := 0; trial < 8; trial++ {
			var offs []int
			for x := 1; x < 1<<d; x++ {
				if rng.IntN(3) == 0 {
					offs = append(offs, x)
				}
			}
			if len(offs) == 0 {
				offs = []int{1}
			}
			r, err := RunFoldedOffsets(d, offs, 1)
			if err != nil {
				t.Fatal(err)
			}
			if !r.Delivered || r.Slots != r.LowerBound {
				t.Fatalf("d=%d offsets %v: %g slots, critical sum %g, delivered %v", d, offs, r.Slots, r.LowerBound, r.Delivered)
			}
		}
	}
}
