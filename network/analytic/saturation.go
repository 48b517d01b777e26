package analytic

import "math"

// Saturation points for Fig. 6.5 of Varvarigos 1992 (§6.5): the largest
// throughput per node under uniform traffic over the largest a d-cube
// sustains, 2 packets per node per slot (digest 000b §3.8, §7 item 35).

// SimpleMax is the unbuffered simple scheme's largest throughput per node
// over all loads and the load that gives it (R rises, then falls: eqs.
// 5.6 and 5.8), found by golden-section search on p0.
func SimpleMax(d int) (R, p0 float64, err error) {
	f := func(p float64) float64 {
		m, e := SimpleScheme(d, 0, p)
		if e != nil {
			err = e
		}
		return m.ThroughputPerNode
	}
	lo, hi := 0.0, 1.0
	g := (math.Sqrt(5) - 1) / 2
	a, b := hi-g*(hi-lo), lo+g*(hi-lo)
	fa, fb := f(a), f(b)
	for hi-lo > 1e-9 {
		if fa < fb {
			lo, a, fa = a, b, fb
			b = lo + g*(hi-lo)
			fb = f(b)
		} else {
			hi, b, fb = b, a, fa
			a = hi - g*(hi-lo)
			fa = f(a)
		}
	}
	p0 = (lo + hi) / 2
	if r1 := f(1); r1 >= f(p0) { // (the maximum at the end: d ≤ 5)
		p0 = 1
	}
	return f(p0), p0, err
}

// WormholeSaturation is the saturation point of blocking wormhole routing
// on the binary d-cube by Dally's (1990) method, which the thesis used for
// Fig. 6.5's curve 7 without printing it: e-cube routing (dimensions in a
// fixed order), each channel an M/D/1 server whose service time is the
// worm's length B plus every wait of its head further on (the worm holds
// the channel meanwhile). With x = m·B/2 the load of every channel (m
// packets per node per cycle, each crossing a dimension with probability
// ½) and τ_i the service time of a channel with i dimensions after it, in
// units of B:
//
//	τ_0 = 1,  τ_i = 1 + ½·Σ_{j<i} x·τ_j² / (2(1 − x·τ_j)),
//
// and the network saturates at x·τ_{d−1} = 1. B cancels out, and x is the
// throughput over the largest (2 packets of B flits per node per B
// cycles), so x at saturation is the saturation point. It is a derived
// curve: Dally analysed k-ary n-cubes and the thesis says the curve "is
// subject to significant error".
func WormholeSaturation(d int) float64 {
	if d < 1 {
		return math.NaN()
	}
	tau := make([]float64, d)
	over := func(x float64) float64 { // x·τ_{d−1} − 1; 1 past saturation on the way
		sum := 0.0
		for i := range tau {
			tau[i] = 1 + sum/2
			if x*tau[i] >= 1 {
				if i == d-1 {
					return x*tau[i] - 1
				}
				return 1
			}
			sum += x * tau[i] * tau[i] / (2 * (1 - x*tau[i]))
		}
		return x*tau[d-1] - 1
	}
	return bisect(over, 0, 1)
}
