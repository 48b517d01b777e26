package collective

import (
	"errors"
	"fmt"
	"testing"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/network/topology"
)

// The banded transposition by the digest's construction takes exactly
// 2^β slots (Theorem 6; digest §8 item 5), equal to Theorem 1's bound,
// with every band element delivered once; the per-node greedy reading is
// measured alongside and is slower for β ≥ 3 (digest §4.7, §9 item 4).
func TestBandedExact(t *testing.T) {
	for d := 2; d <= 7; d++ {
		for beta := 0; beta <= d-2; beta++ {
			r := runSeed(t, d, "banded", map[string]string{"task.beta": fmt.Sprint(beta)}, 1)
			n, nb := 1<<d, 1<<beta
			if r.Slots != float64(nb) || *r.Formula != float64(nb) || r.Deliveries != int64(n*2*nb) {
				t.Errorf("banded d=%d β=%d: %g slots, %d deliveries, want 2^β = %d and %d", d, beta, r.Slots, r.Deliveries, nb, n*2*nb)
			}
			if beta >= 1 && r.LowerBound != float64(nb) {
				t.Errorf("banded d=%d β=%d: lower bound %g, want 2^β (every β-link busy every slot)", d, beta, r.LowerBound)
			}
			if r.Alternative == nil || *r.Alternative < r.Slots || beta >= 3 && *r.Alternative == r.Slots {
				t.Errorf("banded d=%d β=%d: greedy reading %v slots, want more than 2^β for β ≥ 3", d, beta, r.Alternative)
			}
			g := runSeed(t, d, "banded", map[string]string{"task.beta": fmt.Sprint(beta), "task.schedule": "greedy"}, 1)
			if g.Slots != *r.Alternative || *g.Alternative != r.Slots {
				t.Errorf("banded d=%d β=%d: greedy %g (alongside %g), construction %g", d, beta, g.Slots, *r.Alternative, r.Slots)
			}
		}
	}
}

// Destination counts of node c_1G_{c_2} (digest §8 item 6): 2^β − c_1 to
// the predecessor column, 2^β to its own (with itself), c_1 + 1 to the
// successor; and the τ order of the β = 3 test vector (§4.7).
func TestBandedLayout(t *testing.T) {
	lay := bandLayout{d: 5, beta: 2, lo: 3}
	for c := 0; c < 32; c++ {
		if lay.column(lay.node(c)) != c {
			t.Fatalf("column %d: node %d maps back to %d", c, lay.node(c), lay.column(lay.node(c)))
		}
		c1, p := c&3, lay.node(c)
		pd, sd := lay.grayDims(p)
		var pred, own, succ int
		for _, j := range lay.band(c) {
			switch x := p ^ lay.node(j); {
			case x&7 == 0:
				own++
			case x&7 == 1<<pd:
				pred++
			case x&7 == 1<<sd:
				succ++
			}
		}
		if pred != 4-c1 || own+1 != 4 || succ != c1+1 {
			t.Errorf("column %d (c_1 = %d): %d, %d, %d packets, want %d, 4, %d", c, c1, pred, own+1, succ, 4-c1, c1+1)
		}
	}
	want := []uint32{7, 3, 5, 6, 1, 2, 4}
	if got := bandOrder(3); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("τ order %v, want %v (111, 011, 101, 110, 001, 010, 100)", got, want)
	}
}

// ⌊d/β⌋ simultaneous transpositions (§2.7): every element of every matrix
// delivered once, phase 1 exactly 2^β, never below Theorem 1; the total
// against the seed's 2^{β+1}+1 is what the verify row reports.
func TestBandedMulti(t *testing.T) {
	for d := 3; d <= 7; d++ {
		for beta := 1; beta <= d-2; beta++ {
			r := runSeed(t, d, "banded-multi", map[string]string{"task.beta": fmt.Sprint(beta)}, 1)
			n, nb := 1<<d, 1<<beta
			if r.Deliveries != int64(d/beta*n*2*nb) || r.Slots <= float64(nb) {
				t.Errorf("banded-multi d=%d β=%d: %g slots, %d deliveries", d, beta, r.Slots, r.Deliveries)
			}
		}
	}
	if r := runSeed(t, 3, "banded-multi", map[string]string{"task.beta": "1"}, 1); r.Slots != 5 {
		t.Errorf("banded-multi d=3 β=1 (one matrix): %g slots, want 2^{β+1}+1 = 5", r.Slots)
	}
}

func TestHcubeBadInput(t *testing.T) {
	for _, c := range []struct {
		d    int
		task string
		p    map[string]string
		key  string
	}{
		{4, "banded", map[string]string{"task.beta": "3"}, "task.beta"},
		{4, "banded", map[string]string{"task.schedule": "fast"}, "task.schedule"},
		{1, "banded", nil, "topology.d"},
		{4, "banded-multi", map[string]string{"task.beta": "0"}, "task.beta"},
		{4, "pmnb", map[string]string{"task.algorithm": "iv"}, "task.algorithm"},
		{4, "pmnb", map[string]string{"task.tp": "-1"}, "task.tp"},
		{4, "pmnb", map[string]string{"task.tp": "x", "task.algorithm": "iii"}, "task.tp"},
	} {
		_, err := Run(topology.Spec{Kind: "hypercube", D: c.d}, c.task, c.p, 1)
		var ie *inputerr.Error
		if !errors.As(err, &ie) || ie.Key != c.key {
			t.Errorf("%s d=%d %v: error %v, want an input error for %s", c.task, c.d, c.p, err, c.key)
		}
	}
}
