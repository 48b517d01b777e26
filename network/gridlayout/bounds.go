package gridlayout

import (
	"fmt"
	"math/big"
)

// Bisection is what is known of a graph's minimum bisection width ω (the
// fewest undirected edges whose removal splits the vertices into halves
// whose sizes differ by at most one), with where each bound comes from.
// Upper is 0 when no upper bound is given.
type Bisection struct {
	Lower       int64  `json:"lower"`
	LowerSource string `json:"lower_source"`
	Upper       int64  `json:"upper,omitempty"`
	UpperSource string `json:"upper_source,omitempty"`
}

// CubeBisection is Thm 5.6 for the N-vertex cube, N = 2^d: ω = N/2 exactly.
func CubeBisection(d int) Bisection {
	n := int64(1) << d
	return Bisection{
		Lower:       n / 2,
		LowerSource: "Brebner Thm 5.6: the (N/2)² ascending-dimension paths between the halves, at most N/2 through any edge",
		Upper:       n / 2,
		UpperSource: "cut one dimension: N/2 undirected edges (Thm 5.6's N counts directed links)",
	}
}

// TorusBisection is the k×k torus (k even): ω = 2k exactly.
func TorusBisection(k int) Bisection {
	return Bisection{
		Lower: 2 * int64(k),
		LowerSource: "congestion, the argument of Brebner Thm 5.6: route all N² ordered pairs shortest way, x first, ties split; " +
			"every edge carries k³/4 of them (checked by enumeration in the tests) and k⁴/2 cross a bisection, so ω ≥ 2k",
		Upper:       2 * int64(k),
		UpperSource: "cut the columns into two halves: 2 edges per row (the k-ary n-cube's 4k^(n−1) channels = 2k^(n−1) links: Dally & Towles 2004, ch. 5)",
	}
}

// TorusEdgeLoad routes every ordered pair of the k×k torus along the
// shortest way, dimension 0 first, splitting ties at k/2 evenly, and returns
// the least and largest number of routes through one undirected edge, in
// quarter routes (so ties stay integral). TorusBisection's lower bound
// rests on both being k³ (k³/4 routes).
func TorusEdgeLoad(k int) (minQ, maxQ int64) {
	// load[dim][i+k*j] is the edge from (i, j) to its + neighbour in dim.
	load := [2][]int64{make([]int64, k*k), make([]int64, k*k)}
	ring := func(a, b int, w int64, add func(pos int, w int64)) {
		fwd := ((b - a) + k) % k
		walk := func(step, n int, w int64) {
			for p, i := a, 0; i < n; i++ {
				if step > 0 {
					add(p, w)
				} else {
					add((p-1+k)%k, w)
				}
				p = (p + step + k) % k
			}
		}
		switch {
		case 2*fwd < k:
			walk(1, fwd, w)
		case 2*fwd > k:
			walk(-1, k-fwd, w)
		default: // a tie: half each way
			walk(1, fwd, w/2)
			walk(-1, fwd, w/2)
		}
	}
	for si := range k {
		for sj := range k {
			for di := range k {
				for dj := range k {
					ring(si, di, 4, func(p int, w int64) { load[0][p+k*sj] += w })
					ring(sj, dj, 4, func(p int, w int64) { load[1][di+k*p] += w })
				}
			}
		}
	}
	minQ, maxQ = load[0][0], load[0][0]
	for _, l := range load {
		for _, x := range l {
			minQ, maxQ = min(minQ, x), max(maxQ, x)
		}
	}
	return minQ, maxQ
}

// DShuffleBisectionLower is Thm 5.9's lower bound for the d-shuffle
// (de Bruijn graph) with N = d^n vertices: each of the ⌊N/2⌋·⌈N/2⌉ cross
// pairs has a standard n-step path, and an edge is step i of exactly
// d^(n−1) of them, so it lies on at most n·d^(n−1) paths and
// ω ≥ ⌈⌊N/2⌋·⌈N/2⌉ / (n·d^(n−1))⌉.
func DShuffleBisectionLower(d, n int) (int64, error) {
	if d < 2 || n < 1 {
		return 0, fmt.Errorf("d-shuffle: d = %d, n = %d, want d ≥ 2 and n ≥ 1", d, n)
	}
	bd := big.NewInt(int64(d))
	nn := new(big.Int).Exp(bd, big.NewInt(int64(n)), nil)
	half := new(big.Int).Rsh(nn, 1)
	up := new(big.Int).Sub(nn, half)
	num := new(big.Int).Mul(half, up)
	den := new(big.Int).Exp(bd, big.NewInt(int64(n-1)), nil)
	den.Mul(den, big.NewInt(int64(n)))
	q, r := new(big.Int).QuoRem(num, den, new(big.Int))
	if r.Sign() > 0 {
		q.Add(q, big.NewInt(1))
	}
	if !q.IsInt64() {
		return 0, fmt.Errorf("d-shuffle: d = %d, n = %d: the bound does not fit in 64 bits", d, n)
	}
	return q.Int64(), nil
}

// SquaresArea is Thm 5.4's concrete part: the vertex squares alone cover
// N·⌈degree/4⌉² grid vertices, a lower bound on any grid embedding's area.
func SquaresArea(nodes, degree int) int64 {
	s := int64(SideFor(degree))
	return int64(nodes) * s * s
}
