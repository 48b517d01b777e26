package analytic

import (
	"fmt"
	"math/big"
)

// HypercubePi is eq. 5.47 on the d-cube (Varvarigos 1992 §5.7; digest
// 000b §4.9), exactly: with destinations uniform over the other N − 1
// nodes a new packet is at distance i with probability m_i = C(d,i)/(N−1),
// m̄ = Σ i·m_i hops on average, and a packet at the head of a queue, taken
// at a random instant under any shortest-path scheme that drops nothing, is
// at distance i from its destination with probability
//
//	π_i = Σ_{j≥i} m_j / m̄,   i = 1 … d   (π_1 = 1/m̄).
//
// The common factor 1/(N−1) cancels: π_i = Σ_{j≥i} C(d,j) / Σ_j j·C(d,j).
func HypercubePi(d int) (pi []*big.Rat, mean *big.Rat, err error) {
	if d < 1 || d > 62 {
		return nil, nil, fmt.Errorf("d %d: want 1 to 62", d)
	}
	c := make([]*big.Int, d+1) // C(d, j)
	hops := new(big.Int)       // Σ j·C(d,j) = d·2^{d−1}
	for j := range c {
		c[j] = new(big.Int).Binomial(int64(d), int64(j))
		hops.Add(hops, new(big.Int).Mul(big.NewInt(int64(j)), c[j]))
	}
	others := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(d)), big.NewInt(1)) // N − 1
	mean = new(big.Rat).SetFrac(hops, others)
	pi = make([]*big.Rat, d)
	tail := new(big.Int)
	for i := d; i >= 1; i-- {
		tail.Add(tail, c[i])
		pi[i-1] = new(big.Rat).SetFrac(new(big.Int).Set(tail), hops)
	}
	return pi, mean, nil
}

// Floats is rs as float64s.
func Floats(rs []*big.Rat) []float64 {
	out := make([]float64, len(rs))
	for i, r := range rs {
		out[i], _ = r.Float64()
	}
	return out
}
