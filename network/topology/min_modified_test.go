package topology

import (
	"fmt"
	"slices"
	"testing"
)

// msb builds an address from its base-k digits, most significant first.
func msb(k int, ds ...int) int {
	x := 0
	for _, d := range ds {
		x = x*k + d
	}
	return x
}

// lsb returns x's n base-k digits, least significant first (x_0 … x_{n−1}).
func lsb(x, k, n int) []int {
	ds := make([]int, n)
	for i := range ds {
		ds[i] = x % k
		x /= k
	}
	return ds
}

// The modified networks are the plain ones with only C_n replaced: γ
// (Def 8) for the baseline, σ̄ (Def 9) for the butterfly, checked against
// the definitions written on digit lists.
func TestModifiedMINWiring(t *testing.T) {
	defs := map[string]struct {
		plain string
		cn    func(x []int) []int // C_n on digits x_{n−1}…x_0 (MSB first)
	}{
		"modified-baseline": {"baseline", func(x []int) []int { y := slices.Clone(x); slices.Reverse(y); return y }},
		"modified-butterfly": {"butterfly", func(x []int) []int {
			return append([]int{x[len(x)-1]}, x[:len(x)-1]...) // x_0 x_{n−1} … x_1
		}},
	}
	for kind, def := range defs {
		for _, kn := range [][2]int{{2, 1}, {2, 2}, {2, 3}, {2, 4}, {2, 5}, {3, 2}, {3, 3}, {4, 2}, {4, 3}, {8, 2}} {
			k, n := kn[0], kn[1]
			t.Run(fmt.Sprintf("%s/k=%d,n=%d", kind, k, n), func(t *testing.T) {
				m := mustBuild(t, Spec{Kind: kind, K: k, N: n})
				p := mustBuild(t, Spec{Kind: def.plain, K: k, N: n})
				if fmt.Sprint(m.Switches) != fmt.Sprint(p.Switches) {
					t.Fatalf("the connections C_{n−1} … C_0 differ from the %s's", def.plain)
				}
				for src := range m.Terminals() {
					d := lsb(src, k, n)
					slices.Reverse(d) // MSB first
					want := msb(k, def.cn(d)...)
					if got := int(m.InSwitch[src])*k + int(m.InPort[src]); got != want {
						t.Fatalf("C_n(%d) = %d, want %d", src, got, want)
					}
				}
			})
		}
	}
}

// TestModifiedMINChannels checks every route against the digit
// substitutions of Lemmas 12 and 13: the channel leaving G_i (its output
// address) replaces s_i by d_i, digit by digit, which is what makes cube
// clusters contention-free and channel-balanced.
func TestModifiedMINChannels(t *testing.T) {
	// exit[kind](s, d, i) = G_i's output address on the route s → d, as
	// MSB-first digits (s, d least significant first).
	exit := map[string]func(s, d []int, n, i int) []int{
		// Lemma 12: d_{n−1}…d_{i+1} s_0 s_1 … s_{i−1} d_i.
		"modified-baseline": func(s, d []int, n, i int) []int {
			var x []int
			for j := n - 1; j > i; j-- {
				x = append(x, d[j])
			}
			x = append(x, s[:i]...)
			return append(x, d[i])
		},
		// Lemma 13: G_{n−j} (1 ≤ j ≤ n−1) leaves on s_0 s_{n−1} … s_{j+1}
		// d_{j−1} … d_1 d_j; G_0 on d.
		"modified-butterfly": func(s, d []int, n, i int) []int {
			if i == 0 {
				x := slices.Clone(d)
				slices.Reverse(x)
				return x
			}
			j := n - i
			x := []int{s[0]}
			for l := n - 1; l > j; l-- {
				x = append(x, s[l])
			}
			for l := j - 1; l >= 1; l-- {
				x = append(x, d[l])
			}
			return append(x, d[j])
		},
	}
	for kind, f := range exit {
		for _, kn := range [][2]int{{2, 2}, {2, 3}, {2, 4}, {3, 3}, {4, 3}, {8, 2}} {
			k, n := kn[0], kn[1]
			topo := mustBuild(t, Spec{Kind: kind, K: k, N: n})
			for src := range topo.Terminals() {
				for dst := range topo.Terminals() {
					hops := trace(t, topo, src, dst, 0)
					for h, hop := range hops {
						i := n - 1 - h
						row := hop.Switch - h*topo.Terminals()/k
						got := row*k + hop.Out
						if want := msb(k, f(lsb(src, k, n), lsb(dst, k, n), n, i)...); got != want {
							t.Fatalf("%s k=%d n=%d %d→%d: G_%d output %d, want %d", kind, k, n, src, dst, i, got, want)
						}
					}
				}
			}
		}
	}
}
