package verify

import (
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/network/topology"
)

// Varvarigos 1992 ch. 7 and the folded-cube paper: the folded cube's
// distances, measured on routes the simulated network takes, and the mean
// internode distances of the random hypercube-like classes, measured on
// drawn members (digest 000b §2.4–2.7, §4.11–4.13, §5.4).

func init() {
	Register(Claim{
		ID:        "varvarigos-folded-diameter",
		Source:    "Varvarigos, folded-cube paper §2 / thesis §7.4 (digest 000b §2.7, §5.4)",
		Claim:     "folded-cube diameter ⌈d/2⌉, on the routes packets take between all N² pairs (d = 2..8)",
		Published: "1, 2, 2, 3, 3, 4, 4",
		Tolerance: "exact",
		Measure: func() (string, bool, error) {
			var got []string
			ok := true
			for d := 2; d <= 8; d++ {
				m, err := allPairs(network.TopologyConfig{Kind: "folded-cube", D: d}, true)
				if err != nil {
					return "", false, err
				}
				got = append(got, fmt.Sprint(m.max))
				ok = ok && m.max == (d+1)/2
			}
			return strings.Join(got, ", "), ok, nil
		},
	})
	Register(Claim{
		ID:     "varvarigos-folded-mid",
		Source: "Varvarigos, folded-cube paper eq. 1 (digest 000b §2.7, §5.4)",
		Claim: "folded-cube mean internodal distance over all N² pairs (self included) " +
			"(d+1)/2 − (d+1)·C(d,⌈d/2⌉)/(2N), and C(d+1,k) nodes at distance k < (d+1)/2: " +
			"on simulated routes for d = 2..8, on the built graph (BFS) for d = 10, 12",
		Published: "0.75, 1.25, 1.5625, 2.0625, 2.40625, 2.90625, 3.26953; 4.14648, 5.03369",
		Tolerance: "exact (sums compared in integers)",
		Measure: func() (string, bool, error) {
			var got []string
			ok := true
			for d := 2; d <= 8; d++ {
				m, err := allPairs(network.TopologyConfig{Kind: "folded-cube", D: d}, true)
				if err != nil {
					return "", false, err
				}
				got = append(got, fmt.Sprintf("%.6g", m.mean))
				ok = ok && foldedExact(d, m.sum, m.hist)
			}
			for _, d := range []int{10, 12} {
				g, err := graphDistances(topology.Spec{Kind: "folded-cube", D: d})
				if err != nil {
					return "", false, err
				}
				hist := make([]int, len(g.Hist))
				for i, c := range g.Hist {
					hist[i] = int(c)
				}
				got = append(got, fmt.Sprintf("%.6g (BFS)", g.MeanAll()))
				ok = ok && foldedExact(d, g.Sum, hist)
			}
			return strings.Join(got, ", "), ok, nil
		},
	})
	registerClassRows()
}

// foldedExact checks a folded cube's distance sum and histogram over N²
// pairs against the paper: 2·Σ = N(d+1)(N − C(d,⌈d/2⌉)) (the MID formula
// times 2N²), and N·C(d+1,k) pairs at distance k < (d+1)/2, N·C(d,(d+1)/2)
// at (d+1)/2 when d is odd.
func foldedExact(d int, sum int64, hist []int) bool {
	n := int64(1) << d
	c := choose(d, (d+1)/2)
	if 2*sum != n*int64(d+1)*(n-c) || len(hist) != (d+1)/2+1 {
		return false
	}
	for k, h := range hist {
		want := choose(d+1, k)
		if 2*k == d+1 {
			want = c
		}
		if int64(h) != n*want {
			return false
		}
	}
	return true
}

func choose(n, k int) int64 { return new(big.Int).Binomial(int64(n), int64(k)).Int64() }

// graphDistances builds s and measures its graph's distances (BFS).
func graphDistances(s topology.Spec) (topology.Distances, error) {
	t, err := topology.Build(s)
	if err != nil {
		return topology.Distances{}, err
	}
	return topology.GraphDistances(t)
}

// classMID is the mean shortest-path distance (source ≠ destination) of
// members drawn with seeds 1..members, averaged.
func classMID(s topology.Spec, members int) (float64, error) {
	sum := 0.0
	for seed := 1; seed <= members; seed++ {
		s.Seed = uint64(seed)
		g, err := graphDistances(s)
		if err != nil {
			return 0, err
		}
		sum += g.MeanDistinct()
	}
	return sum / float64(members), nil
}

// hypercubeMID is the d-cube's mean distance, source ≠ destination.
func hypercubeMID(d int) float64 { n := float64(int(1) << d); return float64(d) * n / (2 * (n - 1)) }

func near01(a, b float64) bool { return math.Abs(a-b) <= 0.1 }
