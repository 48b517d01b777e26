package analytic

import (
	"fmt"
	"math"
)

// The hypercube implementation of Conflict Sense Routing (Varvarigos 1992
// §6.4, eqs. 6.1–6.8; digest 000b §4.10): p_i is the probability that a
// link is reserved, by a confirmed or a ghost reservation, by a control
// flit at its i-th step. Every packet whose flit reserves all d links
// travels them in exactly d slots, so R = 2d·p_d packets per node per slot
// of 1 + β time units.

// CSR is the CSR model's prediction at one attempt rate.
type CSR struct {
	// ThroughputPerNode is R = 2d·p_d, packets per node per slot.
	ThroughputPerNode float64 `json:"throughput_per_node"`
	// PType is p_1..p_d: a link's reservation (confirmed or ghost) by a
	// flit at step i.
	PType []float64 `json:"p_type"`
	// Attempt is p0, the probability that an entry buffer tries to reserve
	// a path in a slot.
	Attempt float64 `json:"attempt_p0"`
}

// csrUp is the backward recursion (eq. 6.7) from p_d = pd,
//
//	p_{i−1} = A_i − √(A_i² − 4p_i),  A_i = 2 − p_d·Σ_{j=i}^{d−1} p_j/p_{j+1},
//
// for i = d … 2, filling p, and the attempt rate that gives them (eq. 6.8,
// p_1 = p0·(1 − (d−1)·p_d)); ok is false when pd is above what any rate
// reaches.
func csrUp(d int, pd float64, p []float64) (p0 float64, ok bool) {
	p[d-1] = pd
	if pd == 0 {
		clear(p)
		return 0, true
	}
	s := 0.0 // Σ_{j=i}^{d−1} p_j/p_{j+1}
	for i := d; i >= 2; i-- {
		a := 2 - pd*s
		disc := a*a - 4*p[i-1]
		if disc < 0 {
			return 0, false
		}
		p[i-2] = a - math.Sqrt(disc)
		s += p[i-2] / p[i-1]
	}
	free := 1 - float64(d-1)*pd
	if free <= 0 {
		return 0, false
	}
	return p[0] / free, true
}

// CSRAtThroughput is the model at the throughput R: p_d = R/(2d), then eqs.
// 6.7 and 6.8 give the attempt rate (how the thesis made Table 6.1's
// analytic column: its R values are round, its p0 values not). ok is false
// when no attempt rate up to 1 reaches R.
func CSRAtThroughput(d int, R float64) (CSR, bool) {
	if d < 2 || !(R >= 0) {
		return CSR{}, false
	}
	p := make([]float64, d)
	p0, ok := csrUp(d, R/float64(2*d), p)
	if !ok || p0 > 1 {
		return CSR{}, false
	}
	return CSR{ThroughputPerNode: R, PType: p, Attempt: p0}, true
}

// CSRModel evaluates the model at attempt rate p0: p_d = F(p0) is increasing
// (the thesis proves it one to one), so p_d is found by bisection on the
// backward recursion.
func CSRModel(d int, p0 float64) (CSR, error) {
	if err := check(d, 0, p0); err != nil {
		return CSR{}, err
	}
	p := make([]float64, d)
	pd := 0.0
	if p0 > 0 {
		pd = bisect(func(pd float64) float64 {
			got, ok := csrUp(d, pd, p)
			if !ok {
				return 1 // (past every rate)
			}
			return got - p0
		}, 0, 1/float64(d))
	}
	got, _ := csrUp(d, pd, p)
	return CSR{ThroughputPerNode: 2 * float64(d) * pd, PType: p, Attempt: got}, nil
}

// CSRStable is the stable operating point of Fig. 6.4 for new packets
// arriving at an entry buffer with probability qa per slot and blocked
// ones retrying with probability qr: the share m of backlogged entry
// buffers at which the throughput at the attempt rate p0(m) = (1−m)·qa +
// m·qr (eq. 6.1) equals the packets the free buffers take, 2d·qa·(1−m). At
// m = 0 the throughput is below that (R ≤ 2d·p0) and at m = 1 above it, and
// their difference grows with m (R rises with p0 more slowly than 2d·p0),
// so the point is unique. With qr = qa the attempt rate is qa whatever m is.
func CSRStable(d int, qa, qr float64) (CSR, float64, error) {
	if err := check(d, 0, qa); err != nil {
		return CSR{}, 0, err
	}
	if !(qr > 0 && qr <= 1) {
		return CSR{}, 0, fmt.Errorf("q_r %g: want above 0, at most 1", qr)
	}
	at := func(m float64) CSR {
		c, _ := CSRModel(d, (1-m)*qa+m*qr) // (a rate from 0 to 1: no error)
		return c
	}
	if qa == 0 {
		return at(0), 0, nil
	}
	m := bisect(func(m float64) float64 {
		return at(m).ThroughputPerNode - 2*float64(d)*qa*(1-m)
	}, 0, 1)
	return at(m), m, nil
}
