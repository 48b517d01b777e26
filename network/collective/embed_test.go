package collective

import (
	"errors"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/network/topology"
)

// Reverse Cuthill–McKee undoes the shuffle of a grid (half-bandwidth at
// most twice the shorter side; a torus's, the longer) and is a permutation; the Binary-Gray
// embedding of the result has dilation at most β + 1 (§2.8) for every
// guest.
func TestRCMAndDilation(t *testing.T) {
	for d := 2; d <= 10; d++ {
		for _, kind := range []string{"grid", "torus", "random"} {
			g, err := newGuest(kind, d, 2, uint64(d))
			if err != nil {
				t.Fatal(err)
			}
			sigma := g.rcm()
			seen := make([]bool, len(sigma))
			for _, l := range sigma {
				if seen[l] {
					t.Fatalf("%s d=%d: label %d twice", kind, d, l)
				}
				seen[l] = true
			}
			b := g.halfBand(sigma)
			side := 1 << (d / 2) // (a grid's shorter side; a torus's wrap spans the longer)
			if kind == "torus" {
				side = 1 << (d - d/2)
			}
			if kind != "random" && b > 2*side {
				t.Errorf("%s d=%d: half-bandwidth %d after RCM, more than twice the side %d", kind, d, b, side)
			}
			beta := bits.Len(uint(max(b, 1) - 1))
			lay := bandLayout{d: d, beta: beta, lo: d - beta}
			dil, _ := embedPairs(g, func(v int32) int { return lay.node(int(sigma[v])) })
			if dil > beta+1 {
				t.Errorf("%s d=%d: dilation %d above β + 1 = %d", kind, d, dil, beta+1)
			}
		}
	}
}

// The canonical code of lengths with Kraft's equality is prefix-free (read
// from bit 0), so the subcubes are disjoint and cover the cube.
func TestPrefixCode(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		d := 1 + rng.IntN(10)
		lens := []int{0} // (split a leaf until Kraft's sum is 1 with random depths)
		for rng.IntN(4) != 0 {
			i := rng.IntN(len(lens))
			if lens[i] == d {
				continue
			}
			lens[i]++
			lens = append(lens, lens[i])
		}
		code := prefixCode(lens)
		for i := range lens {
			for j := range lens {
				if i == j || lens[i] > lens[j] {
					continue
				}
				if code[j]&(1<<lens[i]-1) == code[i] {
					t.Fatalf("lens %v: codeword %d (%b) is a prefix of %d (%b)", lens, i, code[i], j, code[j])
				}
			}
		}
	}
}

func TestBlockDiagonal(t *testing.T) {
	for _, c := range []struct {
		d      int
		blocks string
		want   float64
	}{{4, "", 4}, {6, "5,4,3,2,1,1", 16}, {6, "4,4,4,4", 8}, {5, "3,3,3,2,1,0,0", 4}, {3, "3", 4}} {
		p := map[string]string{}
		if c.blocks != "" {
			p["task.blocks"] = c.blocks
		}
		r := runSeed(t, c.d, "block-diagonal", p, 1)
		if r.Slots != c.want || *r.Formula != c.want {
			t.Errorf("d=%d blocks %q: %g slots (formula %g), want %g", c.d, c.blocks, r.Slots, *r.Formula, c.want)
		}
	}
	for _, bad := range []string{"3,2", "5,x", "7", "-1,4,4,4,4", ""} {
		_, err := Run(topology.Spec{Kind: "hypercube", D: 4}, "block-diagonal", map[string]string{"task.blocks": bad}, 1)
		var ie *inputerr.Error
		if !errors.As(err, &ie) || ie.Key != "task.blocks" {
			t.Errorf("task.blocks=%s: %v, want an input error naming task.blocks", bad, err)
		}
	}
}

// The neighbour exchange after RCM and Binary-Gray is delivered, never
// beats Theorem 1, and on grids beats the shuffled labels' exchange.
func TestSparseEmbedExchange(t *testing.T) {
	for d := 3; d <= 9; d++ {
		for _, kind := range []string{"grid", "torus", "random"} {
			r := runSeed(t, d, "sparse-embed", map[string]string{"task.graph": kind}, 1)
			if r.Alternative == nil {
				t.Fatalf("%s d=%d: no alternative run", kind, d)
			}
			if kind == "grid" && d >= 6 && r.Slots >= *r.Alternative {
				t.Errorf("%s d=%d: %g slots, not below the shuffled labels' %g", kind, d, r.Slots, *r.Alternative)
			}
		}
	}
	_, err := Run(topology.Spec{Kind: "hypercube", D: 4}, "sparse-embed", map[string]string{"task.graph": "tree"}, 1)
	var ie *inputerr.Error
	if !errors.As(err, &ie) || ie.Key != "task.graph" {
		t.Errorf("task.graph=tree: %v", err)
	}
}
