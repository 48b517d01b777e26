package collective

import "math"

// Eq41 is the Dynamic Broadcasting Theorem (Varvarigos §4.2, Eq. 4.1;
// digest 000a §6.3, evaluated in §7.4) for a network of N nodes whose PMNB
// of M packets takes at most X·M + V time units, with Poisson(λ) broadcast
// requests at each node.
type Eq41 struct {
	N    int
	X, V float64
}

// Lambda is the per-node request rate of load ρ = λNX.
func (e Eq41) Lambda(rho float64) float64 { return rho / (float64(e.N) * e.X) }

// Threshold is the stability threshold ρ* = 1/(1 + V/(NX)) (§4.2: stable
// for ρ < 1 − λV).
func (e Eq41) Threshold() float64 { return 1 / (1 + e.V/(float64(e.N)*e.X)) }

// LightLoad is the ρ → 0 bound 1.5V + X.
func (e Eq41) LightLoad() float64 { return 1.5*e.V + e.X }

// Mbar is M̄ = λNV/(1−ρ), the mean number of packets served per period.
func (e Eq41) Mbar(rho float64) float64 {
	return e.Lambda(rho) * float64(e.N) * e.V / (1 - rho)
}

// A is the theorem's range [lo, hi] for a: lo = [M̄ + (M̂−1)(2M̄−M̂)]/(2NM̄)
// − 1/(2N) with M̂ the smallest integer above M̄, hi = 1/2 − 1/(2N).
func (e Eq41) A(rho float64) (lo, hi float64) {
	n := float64(e.N)
	mb := e.Mbar(rho)
	hi = 0.5 - 0.5/n
	if mb <= 0 {
		return 0, hi
	}
	mh := math.Floor(mb) + 1
	lo = (mb+(mh-1)*(2*mb-mh))/(2*n*mb) - 0.5/n
	return lo, hi
}

// W is Eq. 4.1's waiting time for a given a (NaN at or above the
// threshold, where the queues have no finite mean).
func (e Eq41) W(rho, a float64) float64 {
	lv := e.Lambda(rho) * e.V
	den := 1 - rho - lv
	if den <= 0 {
		return math.NaN()
	}
	return rho*e.X/(2*den) + (1-rho)*e.V/(2*den) + (1-rho*a-lv)*e.V/den
}

// T is the theorem's delay W + X + aNX for a given a.
func (e Eq41) T(rho, a float64) float64 {
	return e.W(rho, a) + e.X + a*float64(e.N)*e.X
}

// Upper is the strongest upper bound Eq. 4.1 implies: W(a_lo) + X +
// min((N−1)X/2, ρW(a_lo)) (W decreases in a; digest §6.3, §7.4).
func (e Eq41) Upper(rho float64) float64 {
	lo, _ := e.A(rho)
	w := e.W(rho, lo)
	return w + e.X + math.Min(float64(e.N-1)*e.X/2, rho*w)
}

// Range is the theorem's value of T over a's range: [min, max] of T(a_lo)
// and T(a_hi) (T is linear in a).
func (e Eq41) Range(rho float64) (lo, hi float64) {
	alo, ahi := e.A(rho)
	t1, t2 := e.T(rho, alo), e.T(rho, ahi)
	return math.Min(t1, t2), math.Max(t1, t2)
}
