package verify

import (
	"fmt"
	"math"
	"strings"

	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/network/analytic"
)

// Varvarigos 1992 ch. 5: the slotted hypercube router (switching:
// slotted) against the thesis's tables, and its analytic models (package
// network/analytic) against the tables' analytic columns (digest 000b
// §4.1–4.5, §5.1–5.2). The simulated rows of a whole table are the full
// tier (`flitsim verify --only varvarigos-ch5`); plain verify runs the
// oracles, the exact checks and two quick rows.

// table51 is Table 5.1 (d = 8, unbuffered simple scheme): p0, the
// analytic and the simulated throughput per node.
var table51 = [][3]float64{
	{0.9983, 0.6325, 0.6331}, {0.9288, 0.6401, 0.6401}, {0.8045, 0.6539, 0.6540},
	{0.6972, 0.6657, 0.6650}, {0.6042, 0.6754, 0.6744}, {0.5234, 0.6827, 0.6824},
	{0.4871, 0.6853, 0.6843}, {0.3642, 0.6888, 0.6883}, {0.3142, 0.6859, 0.6852},
	{0.2915, 0.6831, 0.6828}, {0.2145, 0.6628, 0.6621}, {0.1982, 0.6552, 0.6557},
	{0.1094, 0.5712, 0.5721}, {0.0030, 0.0448, 0.0446},
}

// table52 is Table 5.2 (d = 7, k = 1, simple scheme): p0, the analytic and
// the simulated throughput per node.
var table52 = [][3]float64{
	{0.931384, 1.493738, 1.451239}, {0.566517, 1.477039, 1.433139}, {0.302901, 1.345433, 1.354165},
	{0.199937, 1.189335, 1.162777}, {0.169829, 1.116160, 1.092926}, {0.144199, 1.038224, 1.020776},
	{0.103110, 0.871355, 0.861196}, {0.086444, 0.783858, 0.777389}, {0.052758, 0.557855, 0.554911},
}

// slottedRun simulates the slotted router on the d-cube and returns its
// throughput per node and the result.
func slottedRun(d int, scheme, k string, p0 float64, measure int64) (float64, *network.Result, error) {
	return slottedRunOn("hypercube", d, scheme, k, p0, measure)
}

// slottedRunOn is slottedRun on topology kind (hypercube or
// folded-butterfly).
func slottedRunOn(kind string, d int, scheme, k string, p0 float64, measure int64) (float64, *network.Result, error) {
	c := network.Default()
	c.Topology = network.TopologyConfig{Kind: kind, D: d}
	c.Switching = "slotted"
	c.Slotted = network.SlottedConfig{Scheme: scheme, K: k}
	c.Traffic.P0 = p0
	c.Run.Warmup, c.Run.Measure = 200, measure
	r, err := simulate(c)
	if err != nil {
		return 0, nil, err
	}
	if r.Status != network.StatusOK || r.ThroughputPerNode == nil {
		return 0, nil, fmt.Errorf("%w: status %s", ErrShortfall, r.Status)
	}
	return *r.ThroughputPerNode, r, nil
}

// table51P0 is the load to simulate for a row of Table 5.1: the printed p0,
// except the last row's, which is rounded (0.0030 gives 0.0454 in the
// analysis, not the printed 0.0448): the p0 at which the analysis gives
// the printed 0.0448.
func table51P0(row int) float64 {
	p0 := table51[row][0]
	if row == len(table51)-1 {
		p0 = solveP0(8, table51[row][1], 0.0025, 0.0035)
	}
	return p0
}

// solveP0 finds the load in [lo, hi] at which the unbuffered simple scheme's
// analysis gives throughput R (R increasing there).
func solveP0(d int, R, lo, hi float64) float64 {
	for range 60 {
		mid := (lo + hi) / 2
		m, _ := analytic.SimpleScheme(d, 0, mid)
		if m.ThroughputPerNode < R {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// table51Analytic compares the unbuffered simple scheme's analysis (d = 8)
// with Table 5.1's analytic column, row by row.
func table51Analytic() (string, bool, error) {
	exact, ok := 0, true
	var off []string
	for i, row := range table51 {
		m, err := analytic.SimpleScheme(8, 0, row[0])
		if err != nil {
			return "", false, err
		}
		hi, _ := analytic.SimpleScheme(8, 0, row[0]+0.00005)
		lo, _ := analytic.SimpleScheme(8, 0, row[0]-0.00005)
		spread := math.Abs(hi.ThroughputPerNode-lo.ThroughputPerNode) / 2
		diff := math.Abs(m.ThroughputPerNode - row[1])
		switch {
		case fmt.Sprintf("%.4f", m.ThroughputPerNode) == fmt.Sprintf("%.4f", row[1]):
			exact++
		case diff <= 0.00005+spread:
			off = append(off, fmt.Sprintf("row %d %.4f (±%.4f from p0's rounding)", i+1, m.ThroughputPerNode, spread))
		default:
			ok = false
			off = append(off, fmt.Sprintf("row %d %.4f OUTSIDE", i+1, m.ThroughputPerNode))
		}
	}
	p := solveP0(8, table51[len(table51)-1][1], 0.0025, 0.0035)
	return fmt.Sprintf("%d of 14 rows to 4 digits; %s; R = 0.0448 at p0 = %.5f", exact, strings.Join(off, ", "), p), ok, nil
}

func init() {
	Register(Claim{
		ID:        "varvarigos-ch5-table51-analytic",
		Source:    "Varvarigos 1992 §5.3.1, Table 5.1, eqs. 5.1–5.8 (digest 000b §4.2, §5.1)",
		Claim:     "the unbuffered simple scheme's analysis (d = 8) gives the table's analytic column",
		Published: "0.6325 … 0.6888 (peak) … 0.5712, 0.0448 (14 rows)",
		Tolerance: "4 digits at the printed p0, or within what rounding p0 to 4 decimals moves R " +
			"(rows 13, 14: the last row's p0 0.0030 is rounded from ≈ 0.00296)",
		Measure: table51Analytic,
	})
	Register(Claim{
		ID:        "varvarigos-ch5-table52-analytic",
		Source:    "Varvarigos 1992 §5.3.2, Table 5.2, eqs. 5.9–5.22 (digest 000b §4.3, §5.2)",
		Claim:     "the buffered simple scheme's analysis (d = 7, k = 1) gives the table's analytic column",
		Published: "1.493738 … 0.557855 (9 rows)",
		Tolerance: "6 digits (±5·10⁻⁶)",
		Measure: func() (string, bool, error) {
			worst := 0.0
			for _, row := range table52 {
				m, err := analytic.SimpleScheme(7, 1, row[0])
				if err != nil {
					return "", false, err
				}
				worst = max(worst, math.Abs(m.ThroughputPerNode-row[1]))
			}
			return fmt.Sprintf("9 rows, largest difference %.1e", worst), worst <= 5e-6, nil
		},
	})
	Register(Claim{
		ID:        "varvarigos-ch5-unbuffered-d-slots",
		Source:    "Varvarigos 1992 §5.2 (digest 000b §2.1, §4.1)",
		Claim:     "unbuffered (k = 0), simple and priority, d = 3..8: every packet delivered leaves exactly d slots after it entered, at its destination; entered = delivered + dropped + on links",
		Published: "d slots",
		Tolerance: "exact",
		Measure: func() (string, bool, error) {
			ok, n := true, int64(0)
			for _, scheme := range []string{"simple", "priority"} {
				for d := 3; d <= 8; d++ {
					_, r, err := slottedRun(d, scheme, "0", 0.5, 300)
					if err != nil {
						return "", false, err
					}
					ds := r.DeliverySlots
					ok = ok && len(ds) == 1 && ds[0].Slots == int64(d) && r.Violations.Misdelivered == 0 &&
						r.InjectedPackets == r.DeliveredPackets+*r.Dropped+r.Backlog
					for _, b := range ds {
						n += b.Packets
					}
				}
			}
			return fmt.Sprintf("%d packets, all after d slots: %v", n, ok), ok, nil
		},
	})
}

func init() {
	Register(Claim{
		ID:        "varvarigos-ch5-priority-beats-simple",
		Source:    "Varvarigos 1992 §5.4.1, eqs. 5.31–5.38 (digest 000b §1 item 5, §4.5)",
		Claim:     "d = 8, p0 = 1, unbuffered: the priority scheme's throughput is the backward recursion's and well above the simple scheme's",
		Published: "priority > simple; priority R = analysis (5.37–5.38)",
		Tolerance: "priority within 1 % of the analysis",
		Measure: func() (string, bool, error) {
			s, _, err := slottedRun(8, "simple", "0", 1, 800)
			if err != nil {
				return "", false, err
			}
			p, _, err := slottedRun(8, "priority", "0", 1, 800)
			if err != nil {
				return "", false, err
			}
			m, err := analytic.PriorityUnbuffered(8, 1)
			if err != nil {
				return "", false, err
			}
			ok := p > s && math.Abs(p-m.ThroughputPerNode) <= 0.01*m.ThroughputPerNode
			return fmt.Sprintf("priority %.4f (analysis %.4f), simple %.4f", p, m.ThroughputPerNode, s), ok, nil
		},
	})
	Register(Claim{
		ID:        "varvarigos-ch5-table51-quick",
		Source:    "Varvarigos 1992 §5.5, Table 5.1 (digest 000b §5.1)",
		Claim:     "d = 8, unbuffered simple: simulated throughput per node at the peak row (p0 0.3642) and at p0 0.9983 (the full table: --only varvarigos-ch5)",
		Published: "0.6883, 0.6331 (the thesis's simulations)",
		Tolerance: "1 %",
		Tier:      TierQuick,
		Measure: func() (string, bool, error) {
			return table51Rows("hypercube", []int{7, 0}, 1000)
		},
	})
	for _, k := range []int{1, 2} {
		Register(Claim{
			ID:     fmt.Sprintf("varvarigos-ch5-priority-k%d", k),
			Source: "Varvarigos 1992 §5.4.2, eqs. 5.39–5.42, Fig. 5.6 (digest 000b §4.6)",
			Claim: fmt.Sprintf("d = 8, k = %d, priority, p0 = 1: simulated throughput per node against the "+
				"Gauss–Seidel solution (the thesis plots it, Fig. 5.6, without a table)", k),
			Published: "the analysis (eqs. 5.39–5.42) [derived]",
			Tolerance: "3 % of the analysis",
			Tier:      TierFull,
			Measure: func() (string, bool, error) {
				m, err := analytic.PriorityBuffered(8, k, 1)
				if err != nil {
					return "", false, err
				}
				got, _, err := slottedRun(8, "priority", fmt.Sprint(k), 1, 2000)
				if err != nil {
					return "", false, err
				}
				want := m.ThroughputPerNode
				return fmt.Sprintf("%.4f (analysis %.4f)", got, want), math.Abs(got-want) <= 0.03*want, nil
			},
		})
	}
}

// The full tables, simulated (verify --only varvarigos-ch5).
func init() {
	for i := range table51 {
		Register(Claim{
			ID:        fmt.Sprintf("varvarigos-ch5-table51-sim-%02d", i+1),
			Source:    "Varvarigos 1992 §5.5, Table 5.1 (digest 000b §5.1)",
			Claim:     fmt.Sprintf("d = 8, unbuffered simple, p0 %.4f: simulated throughput per node", table51[i][0]),
			Published: fmt.Sprintf("%.4f (the thesis's simulation)", table51[i][2]),
			Tolerance: "1 %",
			Tier:      TierFull,
			Measure: func() (string, bool, error) {
				return table51Rows("hypercube", []int{i}, 4000)
			},
		})
	}
	for i, row := range table52 {
		Register(Claim{
			ID:        fmt.Sprintf("varvarigos-ch5-table52-sim-%d", i+1),
			Source:    "Varvarigos 1992 §5.5, Table 5.2 (digest 000b §5.2)",
			Claim:     fmt.Sprintf("d = 7, k = 1, simple, p0 %g: simulated throughput per node against the analysis", row[0]),
			Published: fmt.Sprintf("%.6f (analysis; the thesis's simulation %.6f)", row[1], row[2]),
			Tolerance: "3 % of the analysis",
			Tier:      TierFull,
			Measure: func() (string, bool, error) {
				got, _, err := slottedRun(7, "simple", "1", row[0], 4000)
				if err != nil {
					return "", false, err
				}
				return fmt.Sprintf("%.6f", got), math.Abs(got-row[1]) <= 0.03*row[1], nil
			},
		})
	}
}

// table51Rows simulates rows of Table 5.1 on topology kind for measure
// slots each (the last row longer: its load is low) and compares them with
// the thesis's simulation column. The folded butterfly's throughput per
// node is per butterfly node: a hypercube node is a row of d of them.
func table51Rows(kind string, rows []int, measure int64) (string, bool, error) {
	var got []string
	ok := true
	for _, i := range rows {
		m := measure
		if i == len(table51)-1 {
			m *= 5
		}
		r, _, err := slottedRunOn(kind, 8, "simple", "0", table51P0(i), m)
		if err != nil {
			return "", false, err
		}
		if kind == "folded-butterfly" {
			r *= 8
		}
		want := table51[i][2]
		got = append(got, fmt.Sprintf("%.4f", r))
		ok = ok && math.Abs(r-want) <= 0.01*want
	}
	if len(rows) == 1 && rows[0] == len(table51)-1 {
		got[0] += fmt.Sprintf(" at p0 %.5f (the printed 0.0030 is rounded)", table51P0(rows[0]))
	}
	return strings.Join(got, ", "), ok, nil
}
