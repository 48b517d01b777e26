package collective

import (
	"fmt"
	"testing"

	"github.com/flitsim/flitsim/network/topology"
)

// Theorem 7's r and bound, worked by hand: d = 6, B = 9: 1 + 6 < 9 ≤ 1 +
// 6 + 15, r = 2, 9·1/12; d = 10, B = 65: 1 + 10 + 45 < 65 ≤ 176, r = 3,
// 65·2/20; B = 3 ≤ 1 + d: r = 1, no bound; a full 4-cube (B = 16): r = 4.
func TestTheorem7(t *testing.T) {
	for _, c := range []struct {
		B, d, m, r int
		want       float64
	}{{9, 6, 1, 2, 0.75}, {65, 10, 1, 3, 6.5}, {3, 8, 1, 1, 0}, {16, 4, 1, 4, 6}, {9, 6, 3, 2, 2.25}} {
		got, r := theorem7(c.B, c.d, c.m)
		if got != c.want || r != c.r {
			t.Errorf("theorem7(B=%d, d=%d, %d) = %g, r = %d; want %g, r = %d", c.B, c.d, c.m, got, r, c.want, c.r)
		}
	}
}

// The hardware never beats the universal bound, and the table names it.
func TestBandedAboveTheorem7(t *testing.T) {
	for d := 4; d <= 8; d++ {
		for beta := 0; beta <= d-2; beta++ {
			for _, task := range []string{"banded", "banded-multi"} {
				if task == "banded-multi" && beta == 0 {
					continue
				}
				r, err := Run(topology.Spec{Kind: "hypercube", D: d}, task, map[string]string{"task.beta": fmt.Sprint(beta)}, 1)
				if err != nil {
					t.Fatal(err)
				}
				if r.UniversalBound == nil || r.Slots < *r.UniversalBound || r.UniversalText == "" {
					t.Errorf("%s d=%d β=%d: %g slots, universal bound %v (%s)", task, d, beta, r.Slots, r.UniversalBound, r.UniversalText)
				}
			}
		}
	}
}
