package han

import (
	"math"
	"testing"
)

// Fig. 3.10 (§3.4, digest 002 §3.4.6): the layout behind the lower bound of
// smoothing, run step by step on a 16×16 machine's first stage of Q. The
// text states: the n/2×n/2 quadrant's messages, n²/4 of them, four a
// processor, fill the hatched triangle at its lower-left corner (n²/16
// processors); after smoothing every processor holds one message, the
// upper-right corner too; the nearest message is (1 − 1/(2√2))n from that
// corner, a bound on smoothing. The figure's drawing did not survive OCR:
// the triangle is reconstructed as TriangleInput's q²/4 positions nearest
// the corner (a staircase, whole processors), whose nearest message is 9
// steps away at n = 16 against the continuous 10.3; the 9 + 3 = 12 steps
// of row and column movement are the digest's measured figures (§5.4).
func TestFig310TriangleSmoothing(t *testing.T) {
	const n, q = 16, 8
	p := func(r, c int) int32 { return int32(r*n + c) }
	r, err := newRouter(n, n, 5, Lists(TriangleInput(n)), Actual)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.m.Messages(); got != n*n/4 {
		t.Fatalf("%d messages, want n²/4 = %d", got, n*n/4)
	}
	if err := r.move(n, n, q, q, n); err != nil {
		t.Fatal(err)
	}
	// After the move: quadrant II (rows and columns 0…q−1) holds them all,
	// four in each of n²/16 processors packed towards its lower-left corner.
	held, nearest := 0, 2*q
	for i := range n {
		for j := range n {
			k := r.m.Len(p(i, j))
			switch {
			case k == 0:
				continue
			case i >= q || j >= q || k != 4:
				t.Fatalf("(%d,%d) holds %d after the move, want 4 and only in quadrant II", i, j, k)
			case i+1 < q && r.m.Len(p(i+1, j)) == 0, j > 0 && r.m.Len(p(i, j-1)) == 0:
				t.Errorf("(%d,%d) holds messages but a processor between it and the lower-left corner is empty", i, j)
			}
			held++
			nearest = min(nearest, i+(q-1-j))
		}
	}
	bound := (1 - 1/(2*math.Sqrt2)) * n
	if held != n*n/16 || nearest != 9 || math.Abs(float64(nearest)-bound) > 2 {
		t.Errorf("%d processors hold messages (want %d); nearest is %d from the corner (want 9, about %.1f)", held, n*n/16, nearest, bound)
	}
	// Smoothing, step by step: the data step at which the upper-right corner
	// first holds a message can be no earlier than its distance.
	corner, steps, reached := p(0, q-1), 0, 0
	r.m.Log = func(kind string, _ []Move, _ []IntSend) {
		if kind != "data" {
			return
		}
		steps++
		if reached == 0 && r.m.Len(corner) > 0 {
			reached = steps
		}
	}
	if err := r.smooth(q, q, 4); err != nil {
		t.Fatal(err)
	}
	if reached < nearest || reached > steps {
		t.Errorf("the corner first holds a message after smoothing step %d of %d (0: never), want no sooner than its distance %d", reached, steps, nearest)
	}
	for i := range q {
		for j := range q {
			if k := r.m.Len(p(i, j)); k != 1 {
				t.Errorf("(%d,%d) holds %d after smoothing, want 1", i, j, k)
			}
		}
	}
	var got [4]int64 // move, count, row, column
	for i, ph := range r.stage.Phases[:min(4, len(r.stage.Phases))] {
		got[i] = ph.Actual
	}
	if len(r.stage.Phases) != 4 || got != [4]int64{16, 10, 9, 3} || float64(got[2]+got[3]) < bound || steps != 12 {
		t.Errorf("move, count, row, column = %v (%d data steps smoothing), want [16 10 9 3]: 12 ≥ %.1f", got, steps, bound)
	}
	for _, ph := range r.stage.Phases {
		if ph.Phase != "move" && ph.MaxBuffer > 4 {
			t.Errorf("a processor held %d messages in the %s phase, past Thm 3.2's four", ph.MaxBuffer, ph.Phase)
		}
	}
}
