// Package analytic evaluates published analytic models of the networks
// flitsim simulates, as oracles the simulations are checked against.
//
// The slotted hypercube router's models are Varvarigos 1992 ch. 5 (digest
// 000b §4.2, §4.3, §4.5): the occupancies p_i of the links by packets on
// their i-th link, from which the throughput per node is R = 2d·p_d. They
// rest on the thesis's independence approximations A.5.3.1 and A.5.3.2,
// so they are not exact: they are what the thesis printed beside its
// simulations.
package analytic

import (
	"fmt"
	"math"
)

// Slotted is a model's prediction for the slotted router at one load.
type Slotted struct {
	// ThroughputPerNode is R = 2d·p_d, delivered packets per node per
	// slot (the simulation's throughput_per_node).
	ThroughputPerNode float64 `json:"throughput_per_node"`
	// PType is p_1..p_d (the simulation's p_type).
	PType []float64 `json:"p_type"`
	// Idle is e, the probability that a link carries nothing.
	Idle float64 `json:"idle"`
}

// Inf is k for unbounded buffers.
const Inf = -1

// bisect finds x in [lo, hi] with f(x) = 0, f changing sign once there.
func bisect(f func(float64) float64, lo, hi float64) float64 {
	flo := f(lo)
	for range 200 {
		mid := (lo + hi) / 2
		if mid == lo || mid == hi {
			break
		}
		if fm := f(mid); (fm < 0) == (flo < 0) {
			lo, flo = mid, fm
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// simpleTerms are, at the simple scheme's θ = 1 − Σ_{j<d} p_j, the terms
// of eqs. 5.16–5.22 in a form without their cancellations near θ = 1
// (where the printed 5.22 is 0/0): with y = (1−θ)/(1+θ) (5.16) and b_0 =
// (1 − y²)/(1 − y^{2k+2}) (5.17),
//
//	bh2 = b_0·((1+θ)/2)²                    = θ/(1 − y^{2k+2})
//	gm1 = g − 1, g of p_i = g·p_{i−1} (5.19) = −(1−θ)/4 · y^{2k}(1 − y²)/(1 − y^{2k+2})
//	p0  (5.22)                               = y^{2k+2}/(1 − g^{d−1})
//
// (y^{2k} is 1 for k = 0, 0 for k = Inf).
func simpleTerms(theta float64, d, k int) (bh2, gm1, p0 float64) {
	y := (1 - theta) / (1 + theta)
	yk := 0.0
	if k != Inf {
		yk = math.Pow(y, float64(2*k))
	}
	top := yk * y * y
	bh2 = theta / (1 - top)
	gm1 = -(1 - theta) / 4 * yk * (1 - y*y) / (1 - top)
	p0 = top / -math.Expm1(float64(d-1)*math.Log1p(gm1))
	return bh2, gm1, p0
}

// SimpleScheme evaluates the simple scheme with k waiting places per
// buffer (0, Inf or more) at load p0 (eqs. 5.1–5.8 for k = 0, 5.9–5.22
// otherwise): θ solves p0(θ) = p0, then p_1 = p0·b_0·((1+θ)/2)² and
// p_i = g·p_{i−1}.
func SimpleScheme(d, k int, p0 float64) (Slotted, error) {
	if err := check(d, k, p0); err != nil {
		return Slotted{}, err
	}
	theta := 1.0
	switch {
	case k == Inf:
		// g = 1 (no packet is lost, so every type is as frequent) and
		// p0(θ) is 0/0: the closed form p_d = p0·θ, θ = 1/(1 + p0(d−1)).
		theta = 1 / (1 + p0*float64(d-1))
	case p0 > 0:
		// p0(θ) falls from above 1 near θ = 0 to 0 at θ = 1.
		theta = bisect(func(t float64) float64 {
			_, _, got := simpleTerms(t, d, k)
			return got - p0
		}, 1e-12, 1-1e-12)
	}
	bh2, gm1, _ := simpleTerms(theta, d, k)
	p := make([]float64, d)
	p[0] = p0 * bh2
	for i := 1; i < d; i++ {
		p[i] = p[i-1] * (1 + gm1)
	}
	return Slotted{ThroughputPerNode: 2 * float64(d) * p[d-1], PType: p, Idle: (1 - p0) * bh2}, nil
}

// priorityUp is the priority scheme's backward recursion (eq. 5.37): the
// p_1..p_d that end in p_d = pd, and the load p0 that gives them (eq.
// 5.38); ok is false when pd is above what any load reaches.
func priorityUp(d int, pd float64, p []float64) (p0 float64, ok bool) {
	p[d-1] = pd
	s := 0.0 // Σ_{j=i}^{d−1} p_j
	for i := d - 1; i >= 1; i-- {
		a := 2 - s
		disc := a*a - 4*p[i]
		if disc < 0 {
			return 0, false
		}
		p[i-1] = a - math.Sqrt(disc)
		s += p[i-1]
	}
	// s is now Σ_{j=1}^{d−1} p_j
	q := 1 - s/2
	return p[0] / (q * q), true
}

// PriorityUnbuffered evaluates the unbuffered priority scheme at load p0
// (eqs. 5.31–5.38): p_d = F(p0) is increasing, so p_d is found by
// bisection on the backward recursion.
func PriorityUnbuffered(d int, p0 float64) (Slotted, error) {
	if err := check(d, 0, p0); err != nil {
		return Slotted{}, err
	}
	p := make([]float64, d)
	f := func(pd float64) float64 {
		got, ok := priorityUp(d, pd, p)
		if !ok {
			return 1 // (past every load)
		}
		return got - p0
	}
	pd := 0.0
	if p0 > 0 {
		pd = bisect(f, 0, 1/float64(d))
	}
	priorityUp(d, pd, p)
	sum := 0.0
	for _, v := range p[:d-1] {
		sum += v
	}
	q := 1 - sum/2
	return Slotted{ThroughputPerNode: 2 * float64(d) * p[d-1], PType: p, Idle: (1 - p0) * q * q}, nil
}

// check refuses what no model covers.
func check(d, k int, p0 float64) error {
	switch {
	case d < 2 || d > 62:
		return fmt.Errorf("d %d: want 2 to 62", d)
	case k < Inf:
		return fmt.Errorf("k %d: want ≥ 0 or Inf", k)
	case !(p0 >= 0 && p0 <= 1):
		return fmt.Errorf("p0 %g: want 0 to 1", p0)
	}
	return nil
}

// PriorityBuffered evaluates the priority scheme with k waiting places
// per buffer (k ≥ 0 or Inf) at load p0, eqs. 5.39–5.42, by Gauss–Seidel
// sweeps (the thesis's method; its uniqueness is not proved, but the
// sweeps reach the same point from any start): each sweep takes θ, b_0
// and p_1 from the current p, then p_2..p_d in order,
//
//	p_i = p_{i−1}(1 − S_i/2 − p_{i−1}/4) + c·p_{i−1}(p_{i−1}/2 + S_i),
//
// S_i = Σ_{j=i}^{d−1} p_j, c = (1+θ)²(1−b_0)/(2(1−θ)²) = (1 − y^{2k})/(2(1 − y^{2k+2}))
// (the second term is a waiting packet, of type i−1 with the probability
// the thesis gives), each step damped by ½. For k = 0 it is the backward
// recursion's fixed point (c = 0).
func PriorityBuffered(d, k int, p0 float64) (Slotted, error) {
	if err := check(d, k, p0); err != nil {
		return Slotted{}, err
	}
	p := make([]float64, d)
	for i := range p {
		p[i] = 0.5 / float64(d)
	}
	var bh2 float64
	for sweep := 0; sweep < 100000; sweep++ {
		sum := 0.0
		for _, v := range p[:d-1] {
			sum += v
		}
		theta := 1 - sum
		y := (1 - theta) / (1 + theta)
		yk := 0.0
		if k != Inf {
			yk = math.Pow(y, float64(2*k))
		}
		top := yk * y * y
		bh2 = theta / (1 - top)
		c := (1 - yk) / (2 * (1 - top))
		change := 0.0
		next := p0 * bh2
		change = max(change, math.Abs(next-p[0]))
		p[0] = (p[0] + next) / 2
		for i := 1; i < d; i++ {
			s := 0.0
			for _, v := range p[i : d-1] {
				s += v
			}
			q := p[i-1]
			next := q*(1-s/2-q/4) + c*q*(q/2+s)
			change = max(change, math.Abs(next-p[i]))
			p[i] = (p[i] + next) / 2
		}
		if change < 1e-14 {
			break
		}
	}
	return Slotted{ThroughputPerNode: 2 * float64(d) * p[d-1], PType: p, Idle: (1 - p0) * bh2}, nil
}
