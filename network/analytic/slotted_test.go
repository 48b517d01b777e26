package analytic

import (
	"fmt"
	"math"
	"testing"
)

// Table 5.1 (d = 8, unbuffered simple): p0 and the analytic column.
var table51 = [][2]float64{
	{0.9983, 0.6325}, {0.9288, 0.6401}, {0.8045, 0.6539}, {0.6972, 0.6657}, {0.6042, 0.6754},
	{0.5234, 0.6827}, {0.4871, 0.6853}, {0.3642, 0.6888}, {0.3142, 0.6859}, {0.2915, 0.6831},
	{0.2145, 0.6628}, {0.1982, 0.6552}, {0.1094, 0.5712},
}

// Table 5.2 (d = 7, k = 1, simple): p0 and the analytic column.
var table52 = [][2]float64{
	{0.931384, 1.493738}, {0.566517, 1.477039}, {0.302901, 1.345433}, {0.199937, 1.189335},
	{0.169829, 1.116160}, {0.144199, 1.038224}, {0.103110, 0.871355}, {0.086444, 0.783858},
	{0.052758, 0.557855},
}

// TestSimpleReproducesTable51: rows 1–12 to the printed 4 digits; rows 13
// and 14 within what rounding the printed p0 to 4 decimals moves R (the
// last row's 0.0448 belongs to p0 ≈ 0.00296, printed 0.0030).
func TestSimpleReproducesTable51(t *testing.T) {
	for i, row := range table51 {
		m, err := SimpleScheme(8, 0, row[0])
		if err != nil {
			t.Fatal(err)
		}
		got := m.ThroughputPerNode
		if i < 12 {
			if fmt.Sprintf("%.4f", got) != fmt.Sprintf("%.4f", row[1]) {
				t.Errorf("p0 %g: R %.4f, the thesis prints %.4f", row[0], got, row[1])
			}
			continue
		}
		hi, _ := SimpleScheme(8, 0, row[0]+0.00005)
		lo, _ := SimpleScheme(8, 0, row[0]-0.00005)
		if row[1] < lo.ThroughputPerNode-0.00005 || row[1] > hi.ThroughputPerNode+0.00005 {
			t.Errorf("p0 %g: R from %.5f to %.5f over p0's rounding, the thesis prints %.4f", row[0], lo.ThroughputPerNode, hi.ThroughputPerNode, row[1])
		}
	}
}
func TestSimpleReproducesTable52(t *testing.T) {
	for _, row := range table52 {
		m, err := SimpleScheme(7, 1, row[0])
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(m.ThroughputPerNode-row[1]) > 5e-6 {
			t.Errorf("p0 %g: R %.6f, the thesis prints %.6f", row[0], m.ThroughputPerNode, row[1])
		}
	}
}

// TestModelsHoldTogether: every model keeps Σp_i + e = 1 (eq. 5.1) and
// R = 2d·p_d; k = inf is the closed form 2d·p0/(1 + p0(d−1)); the
// priority scheme's R grows with p0 and beats the simple scheme's at p0 = 1;
// p0 = 0 carries nothing; bad arguments are refused.
func TestModelsHoldTogether(t *testing.T) {
	for _, p0 := range []float64{0, 0.01, 0.2, 0.6, 1} {
		for _, k := range []int{0, 1, 3, Inf} {
			m, err := SimpleScheme(9, k, p0)
			if err != nil {
				t.Fatal(err)
			}
			sum := m.Idle
			for _, v := range m.PType {
				sum += v
			}
			if math.Abs(sum-1) > 1e-9 || math.Abs(m.ThroughputPerNode-18*m.PType[8]) > 1e-12 {
				t.Errorf("simple k=%d p0=%g: Σp+e = %g, R %g", k, p0, sum, m.ThroughputPerNode)
			}
			if k == Inf && math.Abs(m.ThroughputPerNode-18*p0/(1+8*p0)) > 1e-12 {
				t.Errorf("k = inf, p0 %g: R %g, closed form %g", p0, m.ThroughputPerNode, 18*p0/(1+8*p0))
			}
		}
		m, err := PriorityUnbuffered(9, p0)
		if err != nil {
			t.Fatal(err)
		}
		sum := m.Idle
		for _, v := range m.PType {
			sum += v
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Errorf("priority p0=%g: Σp+e = %g", p0, sum)
		}
	}
	last := 0.0
	for p0 := 0.05; p0 <= 1; p0 += 0.05 {
		m, _ := PriorityUnbuffered(8, p0)
		if m.ThroughputPerNode <= last {
			t.Errorf("priority R falls at p0 %g: %g after %g", p0, m.ThroughputPerNode, last)
		}
		last = m.ThroughputPerNode
	}
	s, _ := SimpleScheme(8, 0, 1)
	if last <= s.ThroughputPerNode {
		t.Errorf("p0 = 1: priority %g ≤ simple %g", last, s.ThroughputPerNode)
	}
	if z, _ := SimpleScheme(8, 0, 0); z.ThroughputPerNode != 0 || z.Idle != 1 {
		t.Errorf("p0 = 0: %+v", z)
	}
	for _, bad := range [][3]float64{{1, 0, 0.5}, {8, -2, 0.5}, {8, 0, 1.5}, {8, 0, math.NaN()}} {
		if _, err := SimpleScheme(int(bad[0]), int(bad[1]), bad[2]); err == nil {
			t.Errorf("SimpleScheme%v: no error", bad)
		}
	}
}

// TestPriorityBufferedReducesToTheRecursion: with k = 0 the Gauss–Seidel
// solution is the backward recursion's, and R grows with k up to at most 2.
func TestPriorityBufferedReducesToTheRecursion(t *testing.T) {
	for _, p0 := range []float64{0.05, 0.3, 1} {
		a, _ := PriorityUnbuffered(8, p0)
		b, err := PriorityBuffered(8, 0, p0)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(a.ThroughputPerNode-b.ThroughputPerNode) > 1e-9 {
			t.Errorf("p0 %g: recursion %.10f, Gauss–Seidel %.10f", p0, a.ThroughputPerNode, b.ThroughputPerNode)
		}
		last := b.ThroughputPerNode
		for _, k := range []int{1, 2, Inf} {
			m, _ := PriorityBuffered(8, k, p0)
			if m.ThroughputPerNode < last-1e-12 || m.ThroughputPerNode > 2 {
				t.Errorf("p0 %g: k %d gives %.6f after %.6f (more buffering must not lower R, nor pass 2)", p0, k, m.ThroughputPerNode, last)
			}
			last = m.ThroughputPerNode
		}
	}
}
