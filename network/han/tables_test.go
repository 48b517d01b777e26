package han

import (
	"math"
	"testing"
)

// Every built row of Tables 5.1 and 5.2 stays within its Tier B bound, and
// neither lower bound is beaten; the figures are the machine's own.
func TestTables(t *testing.T) {
	for _, n := range []int{16, 32} {
		rows, err := Tables(n)
		if err != nil {
			t.Fatal(err)
		}
		built := 0
		for _, r := range rows {
			if !r.Built {
				continue
			}
			built++
			if !r.OK && r.Deviations == 0 { // (rows whose moves outran the thesis's claim: their own tests)
				t.Errorf("n=%d %s: %d+%d measured, %d+%d static, buffer %d; bound %g + %g, %d", n, r.Variant, r.Data, r.Integer, r.StaticData, r.StaticInteger, r.MaxBuffer, r.BoundData, r.BoundInteger, r.BoundBuffer)
			}
			if !r.Lower && (r.Inputs < 5 || r.Data == 0 || r.Data > r.StaticData) {
				t.Errorf("n=%d %s: %d inputs, %d data steps measured against %d static", n, r.Variant, r.Inputs, r.Data, r.StaticData)
			}
		}
		if built != 12 {
			t.Errorf("n=%d: %d rows built, want 12 (Q, Q on k², Q and H on an odd square, H, four-strip H, Q and H on K-D, both rectangles, two lower bounds)", n, built)
		}
		// The Q and H rows' static schedules are the digest §5.3 figures.
		want := map[int][4]int64{16: {55, 15, 73, 37}, 32: {118, 37, 159, 89}}[n]
		got := [4]int64{rows[0].StaticData, rows[0].StaticInteger, rows[5].StaticData, rows[5].StaticInteger}
		if rows[0].Variant != "Q" || rows[5].Variant != "H" || got != want {
			t.Errorf("n=%d: %s/%s static %v, want %v", n, rows[0].Variant, rows[5].Variant, got, want)
		}
	}
	if _, err := Tables(8); err == nil {
		t.Error("Tables(8): no error")
	}
}

// Fig. 3.10's triangle: n²/4 messages, four a processor in quadrant II
// after the move, in the q²/4 positions nearest its lower-left corner; the
// upper-right corner (0, q−1), which smoothing fills, is then about
// (1 − 1/(2√2))n from every message (within 2: whole steps), and
// smoothing takes at least that.
func TestTriangleInput(t *testing.T) {
	for _, n := range []int{16, 32, 64} {
		q := n / 2
		r, err := Run(AlgQ, n, 5, TriangleInput(n), Actual)
		if err != nil {
			t.Fatal(err)
		}
		if r.Messages != n*n/4 || r.MaxBufferAfterMove != 4 {
			t.Errorf("n=%d: %d messages, %d at most after a move", n, r.Messages, r.MaxBufferAfterMove)
		}
		var smooth int64
		for _, p := range r.Stages[0].Phases[2:4] {
			smooth += p.Actual
		}
		nearest := 2 * q
		for i, d := range TriangleInput(n) {
			if d >= 0 {
				pr, pc := i/n%q, i%n%q
				nearest = min(nearest, pr+(q-1-pc))
			}
		}
		if math.Abs(float64(nearest)-(1-1/(2*math.Sqrt2))*float64(n)) > 2 || smooth < int64(nearest) {
			t.Errorf("n=%d: smoothing %d steps, nearest message %d from the corner", n, smooth, nearest)
		}
	}
}
