package collective

import "fmt"

// theorem7 is the universal lower bound of Varvarigos §2.6 (Theorem 7,
// Eq. 2.6 with Lemma 2, digest 000a §4.8) on transposing a matrix of
// bandwidth B on the d-cube, whatever columns the nodes hold: at best a
// node's B destinations (itself among them) are the B nodes nearest it,
// within distance r where Σ_{i<r} C(d,i) < B ≤ Σ_{i≤r} C(d,i); Lemma 2
// bounds the transmissions of its packets by W ≥ B(r−1)/2, so all N nodes'
// packets need N·W packet-hops over N·d links: T ≥ B(r−1)/(2d) (r > 1;
// for r ≤ 1 the lemma says nothing and the bound is 0). matrices scales
// it for ⌊d/β⌋ transpositions at once (each node sends B packets of each).
func theorem7(B, d, matrices int) (bound float64, r int) {
	sum, c := 1, 1 // Σ_{i≤r} C(d,i), C(d,r)
	for sum < B && r < d {
		r++
		c = c * (d - r + 1) / r
		sum += c
	}
	if r <= 1 {
		return 0, r
	}
	return float64(matrices*B*(r-1)) / float64(2*d), r
}

// setTheorem7 puts Theorem 7's bound beside a banded run's result.
func setTheorem7(r *Result, d, beta, matrices int) {
	B := 1<<(beta+1) + 1
	u, rad := theorem7(B, d, matrices)
	r.UniversalBound = &u
	many := ""
	if matrices > 1 {
		many = fmt.Sprintf(" × %d matrices", matrices)
	}
	if rad <= 1 {
		r.UniversalText = fmt.Sprintf("none: the B = %d nodes nearest a node lie within r = %d ≤ 1 (Theorem 7, Lemma 2 need r > 1)", B, rad)
		return
	}
	r.UniversalText = fmt.Sprintf("B(r−1)/(2d)%s with B = %d, r = %d (Theorem 7, Eq. 2.6 with Lemma 2's W ≥ B(r−1)/2: any column assignment)", many, B, rad)
}
