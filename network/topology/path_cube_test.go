package topology

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/flitsim/flitsim/flit"
)

// cubePathRef is the cube's Path written plainly from the rules
// (direct_hypercube_order.go): the reference the decoding must equal.
// Random order: with m dimensions left, the c-th smallest of them, c =
// ⌊(rank mod d!)/(d!/m!)⌋ mod m, by divisions; semi-strict: from the
// start dimension up, modulo d.
func cubePathRef(r *cubeOrderRouter, diff, aux uint64, out []uint8) []uint8 {
	if r.semi {
		st := int(aux % uint64(r.d))
		for i := range r.d {
			if dim := (st + i) % r.d; diff>>uint(dim)&1 != 0 {
				out = append(out, uint8(dim))
			}
		}
		return append(out, uint8(r.d))
	}
	for diff != 0 {
		dim := cubeNthRef(r.d, diff, aux)
		out = append(out, uint8(dim))
		diff &^= 1 << uint(dim)
	}
	return append(out, uint8(r.d))
}

// cubeNthRef is the random order's next dimension of diff (not empty) for
// rank, by divisions.
func cubeNthRef(d int, diff, rank uint64) int {
	perms, mf := uint64(1), uint64(1)
	m := bits.OnesCount64(diff)
	for i := 2; i <= d; i++ {
		perms *= uint64(i)
		if i <= m {
			mf *= uint64(i)
		}
	}
	c := int(rank % perms / (perms / mf) % uint64(m))
	for dim := range d {
		if diff>>uint(dim)&1 != 0 {
			if c == 0 {
				return dim
			}
			c--
		}
	}
	panic("no dimension")
}

// cubeRouter builds the d-cube's random-order (semi false) or semi-strict
// router.
func cubeRouter(t testing.TB, d int, semi bool) *cubeOrderRouter {
	t.Helper()
	rt, err := newCubeOrder(semi)(nil, Spec{Kind: "hypercube", D: d}) // (not Build: no 2^20-node cube to wire)
	if err != nil {
		t.Fatal(err)
	}
	return rt.(*cubeOrderRouter)
}

// checkCubePath compares Path from switch sw to dst with the reference.
func checkCubePath(t *testing.T, r *cubeOrderRouter, sw, dst int, aux uint64) {
	t.Helper()
	w := flit.Worm{Dst: int32(dst), Aux: aux}
	got := r.Path(sw, 0, &w, nil)
	want := cubePathRef(r, uint64(sw^dst), aux, nil)
	if string(got) != string(want) {
		t.Fatalf("%s d=%d %d→%d aux %d: Path %v, reference %v", r.Name(), r.d, sw, dst, aux, got, want)
	}
}

// TestCubePathAllRanks: for d ≤ 8, every rank (and every start dimension
// of semi-strict) decodes as the reference does, with every dimension
// differing (the whole permutation) and with random subsets.
func TestCubePathAllRanks(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for d := 1; d <= 8; d++ {
		for _, semi := range []bool{false, true} {
			r := cubeRouter(t, d, semi)
			n := r.perms
			if semi {
				n = uint64(d)
			}
			for aux := range n {
				checkCubePath(t, r, 0, 1<<d-1, aux)
				checkCubePath(t, r, rng.IntN(1<<d), rng.IntN(1<<d), aux)
			}
		}
	}
}

// TestCubePathBoundaryRanks: for 9 ≤ d ≤ 20, random ranks, ranks whose
// digits are all 0 or all the largest (0 and d!−1), the ranks around
// each m!·k edge, and values no draw makes (≥ d!, which the reference
// reads modulo d!) decode as the reference does.
func TestCubePathBoundaryRanks(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for d := 9; d <= 20; d++ {
		for _, semi := range []bool{false, true} {
			r := cubeRouter(t, d, semi)
			var ranks []uint64
			for range 3000 {
				ranks = append(ranks, rng.Uint64N(r.perms))
			}
			f := uint64(1)
			for m := uint64(1); m <= uint64(d); m++ {
				f *= m // m!
				for _, x := range []uint64{f - 1, f, f + 1, r.perms - f, r.perms/f*f - 1} {
					ranks = append(ranks, x%r.perms)
				}
			}
			ranks = append(ranks, r.perms-1, r.perms, r.perms+1, 2*r.perms-1, 1<<63, ^uint64(0), rng.Uint64())
			full := 1<<d - 1
			for _, aux := range ranks {
				checkCubePath(t, r, 0, full, aux)
				checkCubePath(t, r, full, 0, aux)
				checkCubePath(t, r, rng.IntN(1<<d), rng.IntN(1<<d), aux)
			}
		}
	}
}

// TestCubeRouteRanks: Route's next dimension (nth) equals the reference
// decoding for every rank and every set of differing dimensions up to
// d = 6, and for random and edge ranks (also ≥ d!) and random sets up to
// d = 20.
func TestCubeRouteRanks(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for d := 1; d <= 20; d++ {
		r := cubeRouter(t, d, false)
		check := func(diff, rank uint64) {
			if got, want := r.nth(diff, rank), cubeNthRef(d, diff, rank); got != want {
				t.Fatalf("d=%d diff %b rank %d: %d, want %d", d, diff, rank, got, want)
			}
		}
		if d <= 6 {
			for rank := range r.perms {
				for diff := uint64(1); diff < 1<<d; diff++ {
					check(diff, rank)
				}
			}
			continue
		}
		for range 5000 {
			diff := 1 + rng.Uint64N(1<<d-1)
			check(diff, rng.Uint64N(r.perms))
			check(diff, r.perms-1-rng.Uint64N(min(r.perms, 1000)))
			check(diff, r.perms+rng.Uint64N(1000))
			check(diff, rng.Uint64())
		}
	}
}

// TestCubeOrderUniform: over all d! ranks, every order of a leg's
// differing dimensions comes d!/k! times (k of them), for every set of
// differing dimensions up to d = 6: the random order is uniform.
func TestCubeOrderUniform(t *testing.T) {
	for d := 1; d <= 6; d++ {
		r := cubeRouter(t, d, false)
		for diff := 0; diff < 1<<d; diff++ {
			seen := map[string]uint64{}
			for rank := range r.perms {
				seen[string(r.Path(0, 0, &flit.Worm{Dst: int32(diff), Aux: rank}, nil))]++
			}
			k, kf := bits.OnesCount(uint(diff)), uint64(1)
			for i := 2; i <= k; i++ {
				kf *= uint64(i)
			}
			if uint64(len(seen)) != kf {
				t.Fatalf("d=%d diff %b: %d orders, want %d", d, diff, len(seen), kf)
			}
			for o, n := range seen {
				if n != r.perms/kf {
					t.Fatalf("d=%d diff %b: order %v %d times, want %d", d, diff, []byte(o), n, r.perms/kf)
				}
			}
		}
	}
}

// TestCubeLead: lead is ⌊(rank mod d!)/(d!/m!)⌋ for every place m, at
// random ranks, at the edges of each multiple of d!/m! and at values no
// draw makes (≥ d!), for every d ≤ 20.
func TestCubeLead(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	for d := 1; d <= 20; d++ {
		r := cubeRouter(t, d, false)
		for m := 0; m <= d; m++ {
			p := r.above[m]
			check := func(rank uint64) {
				if got, want := r.lead(rank, m), rank%r.perms/p; got != want {
					t.Fatalf("d=%d m=%d rank %d: %d, want %d", d, m, rank, got, want)
				}
			}
			for range 2000 {
				check(rng.Uint64N(r.perms))
			}
			for q := uint64(1); q <= 64 && q*p <= r.perms; q++ {
				check(q*p - 1)
				check(q * p % r.perms)
				check(r.perms - q*p + 1)
			}
			check(r.perms - 1)
			check(r.perms)
			check(^uint64(0))
		}
	}
}

// TestCubeSemiRoute: the semi-strict Route's port is the first of the
// reference path, for every start dimension and values no draw makes.
func TestCubeSemiRoute(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for d := 1; d <= 20; d++ {
		r := cubeRouter(t, d, true)
		for range 2000 {
			dst := 1 + rng.IntN(1<<d-1)
			for _, aux := range []uint64{rng.Uint64N(uint64(d)), uint64(d), uint64(d) + rng.Uint64N(100), rng.Uint64()} {
				w := flit.Worm{Dst: int32(dst), Aux: aux}
				if got, want := r.Route(0, 0, &w).First(), cubePathRef(r, uint64(dst), aux, nil)[0]; got != int(want) {
					t.Fatalf("d=%d dst %b aux %d: Route %d, reference %d", d, dst, aux, got, want)
				}
			}
		}
	}
}

// TestCubeRecip: the high word of x·cubeRecip[m] is ⌊x/m⌋ for every x
// below m!·m (beyond any rank the digit of base m meets): exhaustively for
// m ≤ 8, and for every m ≤ 19 at the edges (multiples of m and their
// neighbours near 0, m!, and 2^64/m) and at random.
func TestCubeRecip(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	f := uint64(1)
	for m := uint64(2); m <= 19; m++ {
		f *= m // m!
		check := func(x uint64) {
			if q, _ := bits.Mul64(x, cubeRecip[m]); q != x/m {
				t.Fatalf("m=%d x=%d: %d, want %d", m, x, q, x/m)
			}
		}
		if m <= 8 {
			for x := range f * m {
				check(x)
			}
		}
		for _, top := range []uint64{m, f, f * m, ^uint64(0)/m - m} {
			lo := top - top%m
			lo -= min(lo, 2*m)
			for x := lo; x < top+2*m && x < ^uint64(0)/m; x++ {
				check(x)
			}
		}
		for range 10000 {
			check(rng.Uint64N(f * m))
		}
	}
}

// BenchmarkCubePath: a 12-cube random-order leg's Path, random
// destinations and ranks, against the reference decoding.
func BenchmarkCubePath(b *testing.B) {
	r := cubeRouter(b, 12, false)
	rng := rand.New(rand.NewPCG(1, 2))
	ws := make([]flit.Worm, 1024)
	for i := range ws {
		ws[i] = flit.Worm{Dst: int32(rng.IntN(1 << 12)), Aux: rng.Uint64N(r.perms)}
	}
	out := make([]uint8, 0, 32)
	b.Run("path", func(b *testing.B) {
		for i := range b.N {
			out = r.Path(0, 0, &ws[i&1023], out[:0])
		}
	})
	b.Run("reference", func(b *testing.B) {
		for i := range b.N {
			out = cubePathRef(r, uint64(ws[i&1023].Dst), ws[i&1023].Aux, out[:0])
		}
	})
}
