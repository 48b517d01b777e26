package verify

import (
	"fmt"
	"strings"
)

// Chiang 1995 §8.3: two software multicasts, each from its own source to the
// whole binary 3-cube, started at the same time. The thesis counts a source
// pair as blocked when the two schedules need the same node in the same step
// (node contention) and derives p_u = 1 − 1/C(m,2) for U-min and
// p_c = 1 − (m/2)²/C(m,2) for C-min. Here each of the C(8,2) = 28 source
// pairs runs on the simulated 8-node cube MIN of configs/chiang/fig4_10.yaml
// (Chiang's switch, one-port nodes); a pair is blocked when the two
// messages together finish later than each does alone on the empty network.

// pairMsgFlits is the message length of the pair runs (flits).
const pairMsgFlits = 16

func init() {
	for _, c := range []struct {
		scheme, name, formula string
		m                     float64
		p                     func(m float64) float64
		blocks                func(a, b int) bool // the pairs §8.3 says block
	}{
		// U-min: only the two end nodes' multicasts avoid each other.
		{"umin", "p_u", "1 − 1/C(m,2)", 8, func(m float64) float64 { return 1 - 2/(m*(m-1)) },
			func(a, b int) bool { return a != 0 || b != 7 }},
		// C-min: blocked exactly when both sources are odd or both even.
		{"cmin", "p_c", "1 − (m/2)²/C(m,2)", 8, func(m float64) float64 { return 1 - (m/2)*(m/2)*2/(m*(m-1)) },
			func(a, b int) bool { return a%2 == b%2 }},
	} {
		want := c.p(c.m)
		Register(Claim{
			ID:     "chiang-8.3-" + strings.ReplaceAll(c.name, "_", ""),
			Source: "Chiang 1995 §8.3",
			Claim: fmt.Sprintf("two concurrent %s multicasts to the whole binary 3-cube (8-node cube MIN) block each other "+
				"with probability %s = %s over the 28 source pairs", c.scheme, c.name, c.formula),
			Published: fmt.Sprintf("%s = %.4f", c.name, want),
			Tolerance: "exact: blocked pairs ÷ 28 equal to the formula (to 4 decimals), and the blocked pairs the ones §8.3 names",
			Measure: func() (string, bool, error) {
				blocked, err := blockedPairs(c.scheme)
				if err != nil {
					return "", false, err
				}
				n, odd := 0, ""
				for a := range 8 {
					for b := a + 1; b < 8; b++ {
						if blocked[a][b] {
							n++
						}
						if blocked[a][b] != c.blocks(a, b) && odd == "" {
							odd = fmt.Sprintf("; pair %d,%d blocked %v, §8.3 says %v", a, b, blocked[a][b], c.blocks(a, b))
						}
					}
				}
				p := float64(n) / 28
				ok := odd == "" && fmt.Sprintf("%.4f", p) == fmt.Sprintf("%.4f", want)
				return fmt.Sprintf("%d of 28 source pairs blocked: %s = %.4f%s", n, c.name, p, odd), ok, nil
			},
		})
	}
}

// blockedPairs runs every pair of sources of the 8-node cube MIN, each
// multicasting to the other seven nodes with the software scheme, and counts
// the pairs whose messages finish later together than alone.
func blockedPairs(scheme string) (blocked [8][8]bool, err error) {
	var alone [8]float64
	for s := range 8 {
		if alone[s], err = pairRun(scheme, s); err != nil {
			return blocked, err
		}
	}
	for a := range 8 {
		for b := a + 1; b < 8; b++ {
			sum, err := pairRun(scheme, a, b)
			if err != nil {
				return blocked, err
			}
			blocked[a][b] = sum > alone[a]+alone[b]
		}
	}
	return blocked, nil
}

// pairRun multicasts from each source to the rest of the 3-cube, all at
// cycle 0, and returns the sum of the messages' latencies.
func pairRun(scheme string, srcs ...int) (float64, error) {
	c, err := loadChiang("fig4_10.yaml", []string{"topology.kind=cube", "topology.k=2", "topology.n=3",
		"multicast.scheme=" + scheme, "run.warmup=0", "run.measure=1"})
	if err != nil {
		return 0, err
	}
	c.Traffic.Packets = nil
	for _, s := range srcs {
		var d []string
		for v := range 8 {
			if v != s {
				d = append(d, fmt.Sprint(v))
			}
		}
		c.Traffic.Packets = append(c.Traffic.Packets, fmt.Sprintf("0,%d,%s,%d", s, strings.Join(d, " "), pairMsgFlits))
	}
	r, err := simulate(c)
	if err != nil {
		return 0, err
	}
	if err := delivered(fmt.Sprint(scheme, srcs), r); err != nil {
		return 0, err
	}
	if r.Latency.Count != int64(len(srcs)) {
		return 0, fmt.Errorf("%s %v: %d messages measured, want %d", scheme, srcs, r.Latency.Count, len(srcs))
	}
	return r.Latency.Mean * float64(len(srcs)), nil
}
