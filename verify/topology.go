package verify

import (
	"fmt"
	"github.com/flitsim/flitsim/internal/kernel"
	"strings"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/network"
)

// Claims about the networks' structure, measured from packets the simulator
// routes (hop counts and header positions come from the simulated hardware,
// not from the formulas).

func init() {
	Register(Claim{
		ID:        "varvarigos-hypercube-mid",
		Source:    "Varvarigos 1992 §5.6.2",
		Claim:     "6-cube mean internode distance, destination ≠ source: d·N/(2(N−1))",
		Published: "3.0476 (= 6·64/126)",
		Tolerance: "exact (±1e-9)",
		Measure:   measureHypercubeMID,
	})
	Register(Claim{
		ID:        "varvarigos-hypercube-diameter",
		Source:    "Varvarigos 1992 §3.7",
		Claim:     "diameter of the d-cube is d (d = 8)",
		Published: "8",
		Tolerance: "exact",
		Measure:   measureHypercubeDiameter,
	})
	Register(Claim{
		ID:        "varvarigos-array-diameter",
		Source:    "Varvarigos 1992 §4.5 (exact form per digest)",
		Claim:     "diameter of a p^d array d(p−1), of a torus d⌊p/2⌋ (p = 8, d = 2)",
		Published: "Θ(pd) in the paper; exactly array 14, torus 8 (derived, digest)",
		Tolerance: "exact",
		Measure:   measureArrayDiameter,
	})
	Register(Claim{
		ID:        "chiang-min-stages",
		Source:    "Chiang 1995 §3.1–3.2",
		Claim:     "every path of a k^n-node Delta MIN (cube, omega, baseline, butterfly) crosses n switches",
		Published: "n = 6 (2×2), n = 3 (4×4)",
		Tolerance: "exact, every pair",
		Measure:   measureMINStages,
	})
	Register(Claim{
		ID:        "chiang-8node-routes",
		Source:    "Chiang 1995 §3.4 (digest §6.2)",
		Claim:     "routes from source 0 in the 8-node cube MIN (switch, output address) for all 7 destinations",
		Published: "7 of 7 as tabulated",
		Tolerance: "exact",
		Measure:   measure8NodeRoutes,
	})
	Register(Claim{
		ID:        "chiang-fig4.7-routes",
		Source:    "Chiang 1995 §4.3, Fig 4.7 (digest §6.4)",
		Claim:     "32-node cube MIN routes of worms T_6, T_12, T_30 (switch, output address)",
		Published: "6 fully tabulated routes (dests 2, 21; 8, 24; 9, 16)",
		Tolerance: "exact",
		Measure:   measureFig47Routes,
	})
}

// measureHypercubeMID averages the hops of all distinct pairs of a 6-cube.
func measureHypercubeMID() (string, bool, error) {
	d, err := allPairs(network.TopologyConfig{Kind: "hypercube", D: 6}, false)
	if err != nil {
		return "", false, err
	}
	want := 6.0 * 64 / (2 * 63)
	return fmt.Sprintf("%.4f over %d packets", d.mean, d.n), near(d.mean, want), nil
}

// measureHypercubeDiameter takes the longest route of an 8-cube.
func measureHypercubeDiameter() (string, bool, error) {
	d, err := allPairs(network.TopologyConfig{Kind: "hypercube", D: 8}, false)
	if err != nil {
		return "", false, err
	}
	return fmt.Sprint(d.max), d.max == 8, nil
}

// measureArrayDiameter takes the longest route of an 8×8 array and torus.
func measureArrayDiameter() (string, bool, error) {
	a, err := allPairs(network.TopologyConfig{Kind: "mesh", K: 8, N: 2}, false)
	if err != nil {
		return "", false, err
	}
	t, err := allPairs(network.TopologyConfig{Kind: "torus", K: 8, N: 2}, false)
	if err != nil {
		return "", false, err
	}
	return fmt.Sprintf("array %d, torus %d", a.max, t.max), a.max == 14 && t.max == 8, nil
}

// measureMINStages checks that every route of the four Delta MINs crosses n switches.
func measureMINStages() (string, bool, error) {
	var parts []string
	ok := true
	for _, kind := range []string{"cube", "omega", "baseline", "butterfly"} {
		for _, kn := range [][2]int{{2, 6}, {4, 3}} {
			d, err := allPairs(network.TopologyConfig{Kind: kind, K: kn[0], N: kn[1]}, true)
			if err != nil {
				return "", false, err
			}
			// allPairs counts links (switches − 1); a MIN path
			// crosses n switches.
			sw := d.minHops + 1
			good := d.max+1 == kn[1] && sw == kn[1]
			ok = ok && good
			if !good {
				parts = append(parts, fmt.Sprintf("%s k=%d: %d–%d", kind, kn[0], sw, d.max+1))
			}
		}
	}
	if ok {
		return "n on all 8 networks, all pairs", true, nil
	}
	return strings.Join(parts, "; "), false, nil
}

// measure8NodeRoutes compares the 8-node cube MIN's routes from source 0 with §3.4's table.
func measure8NodeRoutes() (string, bool, error) {
	want := map[int]string{
		1: "s2,0:0 s1,0:0 s0,0:1", 2: "s2,0:0 s1,0:1 s0,1:2", 3: "s2,0:0 s1,0:1 s0,1:3",
		4: "s2,0:1 s1,2:4 s0,2:4", 5: "s2,0:1 s1,2:4 s0,2:5", 6: "s2,0:1 s1,2:5 s0,3:6",
		7: "s2,0:1 s1,2:5 s0,3:7",
	}
	return matchRoutes(network.TopologyConfig{Kind: "cube", K: 2, N: 3}, 0, want)
}

// measureFig47Routes compares the routes of Fig 4.7's three worms in the 32-node cube MIN.
func measureFig47Routes() (string, bool, error) {
	tc := network.TopologyConfig{Kind: "cube", K: 2, N: 5}
	groups := []struct {
		src  int
		want map[int]string
	}{
		{6, map[int]string{
			2:  "s4,6:12 s3,6:12 s2,2:4 s1,0:1 s0,1:2",
			21: "s4,6:13 s3,14:28 s2,10:21 s1,10:20 s0,10:21",
		}},
		{12, map[int]string{
			8:  "s4,12:24 s3,4:9 s2,4:8 s1,4:8 s0,4:8",
			24: "s4,12:25 s3,12:25 s2,12:24 s1,12:24 s0,12:24",
		}},
		{30, map[int]string{
			9:  "s4,14:28 s3,6:13 s2,6:12 s1,4:8 s0,4:9",
			16: "s4,14:29 s3,14:28 s2,10:20 s1,8:16 s0,8:16",
		}},
	}
	total, good := 0, 0
	var bad []string
	for _, g := range groups {
		m, ok, err := matchRoutes(tc, g.src, g.want)
		if err != nil {
			return "", false, err
		}
		total += len(g.want)
		if ok {
			good += len(g.want)
		} else {
			bad = append(bad, m)
		}
	}
	if good == total {
		return fmt.Sprintf("%d of %d", good, total), true, nil
	}
	return strings.Join(bad, "; "), false, nil
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

type distances struct {
	mean    float64
	max     int
	minHops int
	n       int
	sum     int64
	hist    []int // hist[h]: packets that crossed h links
}

// allPairs sends one single-flit packet between every ordered pair of
// terminals (every pair including s = d when self is set) through the
// simulated network and reports the links crossed (switches − 1).
func allPairs(t network.TopologyConfig, self bool) (distances, error) {
	c := network.Default()
	c.Topology = t
	c.Traffic.Load = 0
	c.Traffic.Flits = network.FlitRange{Min: 1, Max: 1}
	n, err := network.Build(c)
	if err != nil {
		return distances{}, err
	}
	k := kernel.Of(n)
	var sum int64
	cnt := 0
	d := distances{minHops: 1 << 30}
	k.Hooks.Delivered = func(w *flit.Worm, _ int64) {
		h := int(w.Hops) - 1
		sum += int64(h)
		cnt++
		d.max = max(d.max, h)
		d.minHops = min(d.minHops, h)
		for len(d.hist) <= h {
			d.hist = append(d.hist, 0)
		}
		d.hist[h]++
	}
	nt := k.Topo.Terminals()
	want := 0
	for s := 0; s < nt; s++ {
		for dst := 0; dst < nt; dst++ {
			if s != dst || self {
				k.Enqueue(s, dst, 1)
				want++
			}
		}
		// Drain between sources so the run stays small; contention does not
		// change a deterministic route's length. One source's nt one-flit
		// packets leave it one per cycle, so 10·nt + 1000 cycles is ample.
		if err := drain(k, int64(10*nt+1000), fmt.Sprintf("%s from source %d", t.Kind, s), &cnt, want, nil); err != nil {
			return d, err
		}
	}
	d.n = cnt
	d.sum = sum
	d.mean = float64(sum) / float64(cnt)
	return d, nil
}

// matchRoutes follows packets from src to each destination through the
// simulated MIN, recording (switch, output address = row·k + port) per hop.
func matchRoutes(t network.TopologyConfig, src int, want map[int]string) (string, bool, error) {
	var bad []string
	for dst, w := range want {
		c := network.Default()
		c.Topology = t
		c.Buffers = network.BufferConfig{Output: 1}
		c.Traffic.Load = 0
		n, err := network.Build(c)
		if err != nil {
			return "", false, err
		}
		k := kernel.Of(n)
		got := 0
		k.Hooks.Delivered = func(*flit.Worm, int64) { got++ }
		wi := k.Enqueue(src, dst, 2)
		var hops []string
		var loc []network.Location
		err = drain(k, 100, fmt.Sprintf("%d→%d", src, dst), &got, 1, func() {
			loc = k.Locate(wi, 0, loc[:0])
			if len(loc) == 1 {
				l := loc[0]
				row := l.Label[strings.IndexByte(l.Label, ',')+1:]
				var r int
				fmt.Sscan(row, &r)
				hops = append(hops, fmt.Sprintf("%s:%d", l.Label, r*t.K+l.Port))
			}
		})
		if err != nil {
			return "", false, err
		}
		if got := strings.Join(hops, " "); got != w {
			bad = append(bad, fmt.Sprintf("%d→%d got %s", src, dst, got))
		}
	}
	if len(bad) > 0 {
		return strings.Join(bad, "; "), false, nil
	}
	return fmt.Sprintf("%d of %d", len(want), len(want)), true, nil
}
