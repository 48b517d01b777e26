package verify

import (
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/flitsim/flitsim/network/analytic"
)

// Varvarigos 1992 ch. 6 and §5.7, the analysis as oracles: the hypercube
// CSR model (eqs. 6.1–6.8, package network/analytic) against Table 6.1's
// analytic column, and the distance histogram π (eq. 5.47) against its
// exact values (digest 000b §4.9, §4.10, §5.3, §5.4). Plain verify: no
// simulation, a few milliseconds.

// table61Analytic reads Table 6.1's analytic column the way the thesis
// must have made it: its throughputs are round (0.14 steps, p_d = R/14
// exactly), its p0 values are not, so R was fixed and eqs. 6.7–6.8 gave
// p0. The first ten rows are checked that way (p0 to the printed 6
// digits); the last row's p0 is the round one, 1, and the model's R there
// is checked against the printed 1.4221 (another row).
func table61Analytic() (string, bool, error) {
	worst, ok := 0.0, true
	for _, row := range csrTable61[:len(csrTable61)-1] {
		c, fits := analytic.CSRAtThroughput(7, row[1])
		if !fits {
			return fmt.Sprintf("R %g: no attempt rate up to 1 reaches it", row[1]), false, nil
		}
		worst = max(worst, math.Abs(c.Attempt-row[0]))
	}
	ok = worst <= 5e-7
	return fmt.Sprintf("10 rows: p0 from R = 0.14 … 1.40, largest difference %.1e", worst), ok, nil
}

func init() {
	Register(Claim{
		ID:     "varvarigos-ch6-table61-analytic",
		Source: "Varvarigos 1992 §6.4, Table 6.1, eqs. 6.6–6.8 (digest 000b §4.10, §5.3)",
		Claim: "hypercube CSR, d = 7: fixing the table's round throughputs R (p_d = R/2d) and solving eqs. 6.7–6.8 " +
			"gives its p0 column",
		Published: "p0 0.011666 … 0.927213 at R 0.14 … 1.40 (10 rows)",
		Tolerance: "6 digits (±5·10⁻⁷)",
		Measure:   table61Analytic,
	})
	Register(Claim{
		ID:        "varvarigos-ch6-csr-saturation",
		Source:    "Varvarigos 1992 §6.4, Table 6.1's last row (digest 000b §5.3, §5.5d)",
		Claim:     "hypercube CSR, d = 7, attempt rate p0 = 1: the model's throughput per node (its maximum: R rises with p0)",
		Published: "1.4221",
		Tolerance: "4 digits (±5·10⁻⁵)",
		Measure: func() (string, bool, error) {
			c, err := analytic.CSRModel(7, 1)
			if err != nil {
				return "", false, err
			}
			return fmt.Sprintf("%.5f", c.ThroughputPerNode), math.Abs(c.ThroughputPerNode-1.4221) <= 5e-5, nil
		},
	})
	Register(Claim{
		ID:        "varvarigos-ch5-pi-exact",
		Source:    "Varvarigos 1992 §5.7, eq. 5.47 (digest 000b §4.9, §5.4)",
		Claim:     "hypercube, destinations uniform over the other nodes: the distance histogram π_i = Σ_{j≥i} m_j / m̄ at the head of a queue",
		Published: "d = 3: 7/12, 1/3, 1/12; d = 4: 15/32, 11/32, 5/32, 1/32; d = 8: 0.24902 … 0.00098",
		Tolerance: "exact (d = 3, 4); the printed 5 decimals (d = 8)",
		Measure:   piExact,
	})
}

// piExact compares eq. 5.47's π with the digest's values.
func piExact() (string, bool, error) {
	want := map[int][]string{3: {"7/12", "1/3", "1/12"}, 4: {"15/32", "11/32", "5/32", "1/32"}}
	ok := true
	var got []string
	for _, d := range []int{3, 4} {
		pi, _, err := analytic.HypercubePi(d)
		if err != nil {
			return "", false, err
		}
		s := fmt.Sprintf("d = %d:", d)
		for i, p := range pi {
			w, _ := new(big.Rat).SetString(want[d][i])
			ok = ok && p.Cmp(w) == 0
			s += " " + p.RatString()
		}
		got = append(got, s)
	}
	pi, _, err := analytic.HypercubePi(8)
	if err != nil {
		return "", false, err
	}
	want8 := []float64{0.24902, 0.24121, 0.21387, 0.15918, 0.09082, 0.03613, 0.00879, 0.00098}
	s := "d = 8:"
	for i, v := range analytic.Floats(pi) {
		ok = ok && fmt.Sprintf("%.5f", v) == fmt.Sprintf("%.5f", want8[i])
		s += fmt.Sprintf(" %.5f", v)
	}
	return fmt.Sprintf("%s; %s; %s", got[0], got[1], s), ok, nil
}

// csrStablePoints checks Fig. 6.4's statements on the 11-cube for q_a =
// 0.05 and 1/d: R(p0(m)) − 2d·q_a·(1 − m) changes sign once over m (a
// single stable point), and the throughput there grows with q_r, largest
// at q_r = 1.
func csrStablePoints() (string, bool, error) {
	const d = 11
	ok := true
	var got []string
	for _, qa := range []float64{0.05, 1.0 / d} {
		for _, qr := range []float64{0.2, 0.5, 1} {
			changes, last := 0, 0.0
			for i := 0; i <= 200; i++ {
				m := float64(i) / 200
				c, err := analytic.CSRModel(d, (1-m)*qa+m*qr)
				if err != nil {
					return "", false, err
				}
				g := c.ThroughputPerNode - 2*d*qa*(1-m)
				if i > 0 && (g > 0) != (last > 0) {
					changes++
				}
				last = g
			}
			ok = ok && changes == 1
		}
		prev := 0.0
		var rs []string
		for _, qr := range []float64{0.1, 0.25, 0.5, 0.75, 1} {
			c, _, err := analytic.CSRStable(d, qa, qr)
			if err != nil {
				return "", false, err
			}
			ok = ok && c.ThroughputPerNode > prev
			prev = c.ThroughputPerNode
			rs = append(rs, fmt.Sprintf("%.4f", c.ThroughputPerNode))
		}
		got = append(got, fmt.Sprintf("q_a %.4g: R at q_r 0.1 … 1 = %s", qa, strings.Join(rs, ", ")))
	}
	return strings.Join(got, "; "), ok, nil
}

func init() {
	Register(Claim{
		ID:     "varvarigos-ch6-csr-stable-point",
		Source: "Varvarigos 1992 §6.4, Fig. 6.4, eq. 6.1 (digest 000b §4.10, §5.5d)",
		Claim: "hypercube CSR, d = 11, q_a = 0.05 and 1/d: a single stable point (R at the attempt rate p0(m) meets " +
			"the arrivals 2d·q_a·(1 − m) once), whose throughput is largest at q_r = 1 (unlike Aloha)",
		Published: "one stable point; maximum throughput at q_r = 1",
		Tolerance: "one crossing over m (201 points, q_r 0.2, 0.5, 1); R rising over q_r 0.1 … 1",
		Measure:   csrStablePoints,
	})
}
