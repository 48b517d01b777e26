package collective

import (
	"fmt"
	"testing"
)

// PMNG is PE time-reversed on the router: for every d and M it takes
// exactly PE's slots on the same active set, delivers every packet to its
// gatherer once, never beats Theorem 1's bound and quotes PE's bound.
func TestPMNGIsPEReversed(t *testing.T) {
	for d := 2; d <= 7; d++ {
		n := 1 << d
		for _, m := range []int{1, 2, 3, 1 << (d / 2), n/2 + 1, n} {
			p := map[string]string{"task.m": fmt.Sprint(m)}
			pe := runSeed(t, d, "pe", p, uint64(d))
			g := runSeed(t, d, "pmng", p, uint64(d))
			if g.Slots != pe.Slots || *g.Formula != pe.Slots {
				t.Errorf("d=%d M=%d: pmng %g slots, pe %g", d, m, g.Slots, pe.Slots)
			}
			if !g.Delivered || g.Deliveries != int64(m*(n-1)) || g.Transmissions != pe.Transmissions {
				t.Errorf("d=%d M=%d: delivered %v, %d deliveries (want %d), %d transmissions (pe %d)", d, m, g.Delivered, g.Deliveries, m*(n-1), g.Transmissions, pe.Transmissions)
			}
			if g.Slots < g.LowerBound || *g.UpperBound != *pe.UpperBound {
				t.Errorf("d=%d M=%d: %g slots outside [%g, %g]", d, m, g.Slots, g.LowerBound, *g.UpperBound)
			}
		}
	}
}

// The replay refuses nothing: each slot's link use is PE's, reversed.
func TestPMNGPerSlotMirrorsPE(t *testing.T) {
	p := map[string]string{"task.m": "5"}
	pe := runSeed(t, 5, "pe", p, 3)
	g := runSeed(t, 5, "pmng", p, 3)
	for i, x := range g.PerSlot {
		if y := pe.PerSlot[len(pe.PerSlot)-1-i]; x != y {
			t.Fatalf("slot %d: %d links, PE's slot %d used %d", i, x, len(pe.PerSlot)-1-i, y)
		}
	}
}
