package analytic

import (
	"math"
	"testing"
)

// Table 6.1 (d = 7): the analytic column's throughput (round numbers) and
// the attempt rate the thesis printed beside it.
var table61 = [][2]float64{
	{0.14, 0.011666}, {0.28, 0.027465}, {0.42, 0.048996}, {0.56, 0.078620}, {0.70, 0.119931},
	{0.84, 0.178584}, {0.98, 0.263852}, {1.12, 0.391796}, {1.26, 0.592309}, {1.40, 0.927213},
}

// TestCSRReproducesTable61: fixing R gives the printed p0 to 6 digits, the
// printed p0 gives R back, and p0 = 1 gives 1.4221.
func TestCSRReproducesTable61(t *testing.T) {
	for _, row := range table61 {
		c, ok := CSRAtThroughput(7, row[0])
		if !ok || math.Abs(c.Attempt-row[1]) > 5e-7 {
			t.Errorf("R %g: p0 %.6f (ok %v), the thesis prints %.6f", row[0], c.Attempt, ok, row[1])
		}
		m, err := CSRModel(7, row[1])
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(m.ThroughputPerNode-row[0]) > 2e-5 {
			t.Errorf("p0 %g: R %.6f, want %g", row[1], m.ThroughputPerNode, row[0])
		}
	}
	m, _ := CSRModel(7, 1)
	if math.Abs(m.ThroughputPerNode-1.4221) > 5e-5 {
		t.Errorf("p0 = 1: R %.5f, the thesis prints 1.4221", m.ThroughputPerNode)
	}
}

// TestCSRCurves: R at p0 = 1 for d = 2 … 15 and Fig. 6.4's d = 11 curve
// (digest 000b §5.5d, derived from the same equations), R rising with p0,
// p_{i+1} ≤ p_i, and eq. 6.6 holding at the solution.
func TestCSRCurves(t *testing.T) {
	atOne := []float64{1.8564, 1.7290, 1.6319, 1.5520, 1.4831, 1.4221, 1.3672, 1.3174, 1.2717, 1.2298, 1.1909, 1.1549, 1.1213, 1.0899}
	for i, want := range atOne {
		m, _ := CSRModel(i+2, 1)
		if math.Abs(m.ThroughputPerNode-want) > 6e-5 {
			t.Errorf("d %d, p0 = 1: R %.5f, want %.4f", i+2, m.ThroughputPerNode, want)
		}
	}
	fig64 := [][2]float64{{0.01, 0.1671}, {0.02, 0.2762}, {0.05, 0.4750}, {0.1, 0.6539}, {0.2, 0.8411}, {0.3, 0.9485}, {0.5, 1.0767}, {0.7, 1.1546}}
	last := 0.0
	for _, pt := range fig64 {
		m, _ := CSRModel(11, pt[0])
		if math.Abs(m.ThroughputPerNode-pt[1]) > 6e-5 || m.ThroughputPerNode <= last {
			t.Errorf("d 11, p0 %g: R %.5f, want %.4f (rising)", pt[0], m.ThroughputPerNode, pt[1])
		}
		last = m.ThroughputPerNode
		p := m.PType
		for i := 1; i < 11; i++ {
			s := 0.0
			for j := i; j < 10; j++ {
				s += p[j] * p[10] / p[j+1]
			}
			want := p[i-1] * (1 - s/2 - p[i-1]/4)
			if p[i] > p[i-1] || math.Abs(p[i]-want) > 1e-12 {
				t.Errorf("p0 %g: p_%d = %g, eq. 6.6 gives %g (p_%d = %g)", pt[0], i+1, p[i], want, i, p[i-1])
			}
		}
	}
}

// TestCSRStable: Fig. 6.4's stable points (d = 11, q_r = 1), the balance
// R = 2d·q_a·(1 − m) at them, and q_r = q_a reducing to R(q_a).
func TestCSRStable(t *testing.T) {
	for _, tc := range []struct{ qa, m, p0, R float64 }{{0.05, 0.196, 0.236, 0.885}, {1.0 / 11, 0.460, 0.509, 1.081}} {
		c, m, err := CSRStable(11, tc.qa, 1)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(m-tc.m) > 0.002 || math.Abs(c.Attempt-tc.p0) > 0.002 || math.Abs(c.ThroughputPerNode-tc.R) > 0.002 {
			t.Errorf("q_a %.4f: m %.4f, p0 %.4f, R %.4f; digest ≈ %v", tc.qa, m, c.Attempt, c.ThroughputPerNode, tc)
		}
		if math.Abs(c.ThroughputPerNode-22*tc.qa*(1-m)) > 1e-9 {
			t.Errorf("q_a %.4f: R %.6f ≠ 2d·q_a·(1−m) %.6f", tc.qa, c.ThroughputPerNode, 22*tc.qa*(1-m))
		}
	}
	c, _, _ := CSRStable(7, 0.263852, 0.263852)
	if math.Abs(c.ThroughputPerNode-0.98) > 2e-5 {
		t.Errorf("q_r = q_a = 0.263852: R %.6f, want 0.98", c.ThroughputPerNode)
	}
	for _, bad := range [][2]float64{{1.5, 1}, {0.1, 0}, {0.1, 1.2}} {
		if _, _, err := CSRStable(7, bad[0], bad[1]); err == nil {
			t.Errorf("CSRStable(7, %v): no error", bad)
		}
	}
}

// TestSaturationCurves: the simple scheme's peak (digest 000b §5.5a), and
// the wormhole curve: all the channel for d = 1, 2/3 for d = 2 (solving
// 3x² − 8x + 4 = 0), falling with d.
func TestSaturationCurves(t *testing.T) {
	for _, tc := range []struct {
		d     int
		R, p0 float64
	}{{8, 0.6891, 0.387}, {11, 0.4916, 0.1676}, {3, 1.6124, 1}} {
		R, p0, err := SimpleMax(tc.d)
		if err != nil || math.Abs(R-tc.R) > 6e-5 || math.Abs(p0-tc.p0) > 0.003 {
			t.Errorf("d %d: max R %.5f at p0 %.4f (%v), want %.4f at %.4f", tc.d, R, p0, err, tc.R, tc.p0)
		}
	}
	if w := WormholeSaturation(1); math.Abs(w-1) > 1e-9 {
		t.Errorf("d 1: %g, want 1", w)
	}
	if w := WormholeSaturation(2); math.Abs(w-2.0/3) > 1e-9 {
		t.Errorf("d 2: %g, want 2/3", w)
	}
	last := 1.0
	for d := 2; d <= 16; d++ {
		w := WormholeSaturation(d)
		if !(w < last && w > 0) {
			t.Errorf("d %d: %g after %g", d, w, last)
		}
		last = w
	}
}
