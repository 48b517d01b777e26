package han

import (
	"errors"
	"testing"
)

// k-strip H delivers within §4.6.3's bound and k + 1 buffers (k after a
// move); its static counting phases are the digest's: (1/k + 1/2)s − 2 and
// 3s/(2k) − 2 a stage on s = n, n/k, …, k (the last stage's squares are
// single processors, not smoothed).
func TestKStrip(t *testing.T) {
	for _, c := range [][2]int{{16, 4}, {64, 4}, {36, 6}, {64, 8}} {
		n, k := c[0], c[1]
		var integer int64
		for s := n; s >= k; s /= k {
			integer += int64(s/k + s/2 - 2)
			if s > k {
				integer += int64(3*s/(2*k) - 2)
			}
		}
		for _, perm := range []string{"random", "rot180", "transpose"} {
			p, err := Permutation(perm, n, 1)
			if err != nil {
				t.Fatal(err)
			}
			for _, sched := range Schedules {
				r, err := RunKStrip(n, k, k+1, Lists(p), sched, nil)
				if err != nil {
					t.Fatalf("n=%d k=%d %s %s: %v", n, k, perm, sched, err)
				}
				b := r.Bound
				if float64(r.DataSteps) > b.DataSteps || float64(r.IntegerSteps) > b.IntegerSteps || r.MaxBuffer > k+1 || r.MaxBufferAfterMove > k {
					t.Errorf("n=%d k=%d %s %s: %d + %d steps, buffers %d/%d; bound %g + %g, %d/%d", n, k, perm, sched, r.DataSteps, r.IntegerSteps, r.MaxBuffer, r.MaxBufferAfterMove, b.DataSteps, b.IntegerSteps, k+1, k)
				}
				if r.IntegerSteps != integer {
					t.Errorf("n=%d k=%d %s %s: %d integer steps, want %d", n, k, perm, sched, r.IntegerSteps, integer)
				}
			}
		}
	}
	if b := KStripBound(100, 4); b.DataSteps != 405 || b.IntegerSteps != 150 || b.MaxBuffer != 5 {
		t.Errorf("k = 4 bound at n = 100: %g + %g, %d buffers; want 4.05n + 1.5n, 5", b.DataSteps, b.IntegerSteps, b.MaxBuffer)
	}
}

// On k buffers a processor has no room for the k + 1 messages a move can
// gather: the machine refuses the step.
func TestKStripRefusedOnKBuffers(t *testing.T) {
	p, err := Permutation("random", 64, 1)
	if err != nil {
		t.Fatal(err)
	}
	var ref *Refusal
	if _, err := RunKStrip(64, 4, 4, Lists(p), Actual, nil); !errors.As(err, &ref) {
		t.Errorf("4 buffers: %v, want a refused step", err)
	}
}

func TestKStripSides(t *testing.T) {
	for _, c := range []struct {
		n, k int
		ok   bool
	}{{16, 4, true}, {36, 6, true}, {1024, 4, true}, {32, 4, false}, {4, 4, false}, {16, 2, false}, {27, 3, false}, {4096, 4, false}} {
		if got := KStripSides(c.n, c.k) == ""; got != c.ok {
			t.Errorf("n=%d k=%d: allowed %v, want %v (%s)", c.n, c.k, got, c.ok, KStripSides(c.n, c.k))
		}
	}
}
