package topology

// Chiang's modified baseline and modified butterfly (§5.5, Defs 8–9,
// Lemmas 12–13): the plain networks with only the input connection C_n
// replaced, so that every binary cube of terminals keeps its own channels
// at every connection (contention-free, channel-balanced partitions).

func init() {
	registerMIN("modified-baseline",
		"Chiang's modified baseline MIN (§5.5, Lemma 12): the baseline with digit reversal γ as input connection C_n; cube clusters partition it contention-free",
		minWiring{in: digits.gamma, conn: baselineConn})
	registerMIN("modified-butterfly",
		"Chiang's modified butterfly MIN (§5.5, Lemma 13): the butterfly with the reversed perfect shuffle σ̄ as input connection C_n; cube clusters partition it contention-free",
		minWiring{in: digits.sigmaBar, conn: butterflyConn, butterflyTags: true})
}

// gamma is digit reversal (Def 8): x_{n−1}…x_1x_0 → x_0x_1…x_{n−1}.
func (g digits) gamma(x int) int {
	y := 0
	for range g.n {
		y = y*g.k + x%g.k
		x /= g.k
	}
	return y
}

// sigmaBar is the reversed perfect k-shuffle (Def 9), a cyclic right
// rotation of the digits: x_{n−1}…x_1x_0 → x_0x_{n−1}…x_1.
func (g digits) sigmaBar(x int) int { return x/g.k + x%g.k*g.pow[g.n-1] }
