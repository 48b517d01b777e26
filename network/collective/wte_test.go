package collective

import (
	"fmt"
	"math"
	"testing"
)

// The window TE's lower bound is never below (M−1)/d nor above the
// in-window TE's M/2; the allocation keeps at most d mini-packets a tag
// and uses at most the bound's window hops.
func TestWTEBound(t *testing.T) {
	for d := 2; d <= 10; d++ {
		for m := 1; m < d; m++ {
			mm := 1 << m
			lb, keep := wteBound(d, m)
			if lb < float64(mm-1)/float64(d)-1e-9 || lb > float64(mm)/2+1e-9 {
				t.Errorf("d=%d m=%d: bound %g outside [(M−1)/d, M/2]", d, m, lb)
			}
			hops := 0
			for x, k := range keep {
				if k < 0 || k > d {
					t.Fatalf("d=%d m=%d: tag %d keeps %d", d, m, x, k)
				}
				hops += k * popcount(x)
			}
			if float64(hops) > lb*float64(d*m)+1e-6 {
				t.Errorf("d=%d m=%d: %d window hops, more than the bound's %g", d, m, hops, lb*float64(d*m))
			}
		}
	}
	// d = 2, m = 1: one tag, distance 1; the window link and the exit link
	// share it: T·1 ≥ kept, T·1 ≥ the rest → T = 1/2.
	if lb, _ := wteBound(2, 1); math.Abs(lb-0.5) > 1e-9 {
		t.Errorf("d=2 m=1: bound %g, want 1/2", lb)
	}
}

func popcount(x int) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// On the router every mini-packet reaches its node once, never before the
// bound; with m ≥ 2 (with m = 1 a mini-packet's hops dominate) never past
// the TE inside the window alone (M/2; below it and within twice the bound
// for m ≥ 3), and the tuned allocation never slower than the bound's own.
func TestWTERuns(t *testing.T) {
	for d := 2; d <= 7; d++ {
		for m := 1; m < d; m++ {
			r := runSeed(t, d, "wte", map[string]string{"task.m": fmt.Sprint(m)}, 1)
			mm := 1 << m
			if r.Deliveries != int64(mm*(mm-1)*d) {
				t.Errorf("d=%d m=%d: %d deliveries, want %d", d, m, r.Deliveries, mm*(mm-1)*d)
			}
			if m >= 2 && (r.Slots > float64(mm)/2 || m >= 3 && r.Slots >= float64(mm)/2 || m >= 3 && r.Slots > 2*r.LowerBound || r.Slots > *r.Alternative) {
				t.Errorf("d=%d m=%d: %g, above the in-window TE's %d (or not below it, m ≥ 3), 2 × the bound %g or the unscaled allocation's %g", d, m, r.Slots, mm/2, r.LowerBound, *r.Alternative)
			}
		}
	}
}
