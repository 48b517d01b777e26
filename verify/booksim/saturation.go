package booksim

import (
	"fmt"
	"slices"
)

// The saturation procedure, one rule for both simulators of the comparison
// (docs/booksim.md, "Saturation throughput"):
//
//  1. Zero-load latency is the packet latency average at ZeroLoadRate.
//  2. An offered load saturates the network when the run is unstable
//     (BookSim gave up: average latency over its latency_thres of 500
//     cycles, or no convergence within max_samples sample periods) or its
//     packet latency average exceeds LatencyFactor × the zero-load latency.
//  3. Saturation throughput is the largest load that does not saturate,
//     found by bisection on [0, 1] flits/node/cycle down to Resolution,
//     assuming that a load above a saturating one saturates too.
const (
	ZeroLoadRate  = 0.01
	LatencyFactor = 3.0
	Resolution    = 1.0 / 256
)

// Point is one run at one offered load, in BookSim's vocabulary; flitsim's
// side fills it from its own statistics.
type Point struct {
	Offered       float64 // flits/node/cycle
	PacketLatency float64 // cycles, creation to ejection
	Accepted      float64 // flits/node/cycle
	Unstable      bool    // the simulator gave up on the run
}

// Point is the result in the procedure's terms.
func (r Result) Point() Point {
	return Point{Offered: r.Offered, PacketLatency: r.PacketLatency, Accepted: r.Accepted, Unstable: r.Unstable}
}

// Saturates applies rule 2.
func (p Point) Saturates(zeroLoad float64) bool {
	return p.Unstable || p.PacketLatency > LatencyFactor*zeroLoad
}

// Saturation applies rule 3: probe runs one load. It returns the largest
// load found not to saturate and every probe made, in order.
func Saturation(probe func(rate float64) (Point, error), zeroLoad float64) (float64, []Point, error) {
	if zeroLoad <= 0 {
		return 0, nil, fmt.Errorf("saturation: zero-load latency %v (want > 0)", zeroLoad)
	}
	var seen []Point
	lo, hi := 0.0, 1.0
	top, err := probe(hi)
	if err != nil {
		return 0, nil, err
	}
	seen = append(seen, top)
	if !top.Saturates(zeroLoad) {
		return hi, seen, nil
	}
	for hi-lo > Resolution {
		mid := (lo + hi) / 2
		p, err := probe(mid)
		if err != nil {
			return 0, seen, err
		}
		seen = append(seen, p)
		if p.Saturates(zeroLoad) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return lo, seen, nil
}

// Median of xs (the mean of the middle two for an even count); 0 for none.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
