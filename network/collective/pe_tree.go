package collective

import (
	"math/bits"
	"slices"
)

// scatterTree is a balanced single-node-scatter tree of the k-cube rooted
// at 0 (digest 000a §10.6 (b)): node y ≠ 0 is in subtree sub[y] (rooted
// at e_{sub[y]}), its parent is one hop closer to 0 and in the same
// subtree. Level by level, a node joins the least-filled subtree among its
// possible parents': each level is assigned by a capacitated bipartite
// matching (nodes × subtrees) with the smallest cap on the subtrees'
// sizes that admits one, which keeps every subtree near ⌈(2^k − 1)/k⌉.
type scatterTree struct {
	k      int
	sub    []int8
	parent []int32
	depth  []int8
	size   []int // per subtree
}

func newScatterTree(k int) *scatterTree {
	n := 1 << k
	t := &scatterTree{k: k, sub: make([]int8, n), parent: make([]int32, n), depth: make([]int8, n), size: make([]int, k)}
	t.sub[0], t.parent[0] = -1, -1
	byLevel := make([][]int, k+1)
	for y := 1; y < n; y++ {
		w := bits.OnesCount(uint(y))
		byLevel[w] = append(byLevel[w], y)
	}
	for w := 1; w <= k; w++ {
		t.level(byLevel[w])
	}
	return t
}

// largest is the largest subtree's size.
func (t *scatterTree) largest() int {
	if t.k == 0 {
		return 0
	}
	return slices.Max(t.size)
}

// next is the node after y on the tree path down to z (z in y's subtree
// below y, or y = 0).
func (t *scatterTree) next(y, z int) int {
	for int(t.depth[z]) > int(t.depth[y])+1 {
		z = int(t.parent[z])
	}
	return z
}

// options are the subtrees node y may join: its parents' (e_b's own).
func (t *scatterTree) options(y int) []int {
	var out []int
	for x := y; x != 0; x &= x - 1 {
		b := bits.TrailingZeros(uint(x))
		s := b
		if p := y ^ 1<<b; p != 0 {
			s = int(t.sub[p])
		}
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// level assigns the nodes lv of one level to subtrees.
func (t *scatterTree) level(lv []int) {
	opts := make([][]int, len(lv))
	for i, y := range lv {
		opts[i] = t.options(y)
	}
	for cap := t.largest(); ; cap++ {
		as := make([][]int, t.k) // per subtree: indices into lv
		seen := make([]int, t.k)
		stamp := 0
		var try func(i int) bool
		try = func(i int) bool {
			slices.SortStableFunc(opts[i], func(a, b int) int { return t.size[a] + len(as[a]) - t.size[b] - len(as[b]) })
			for _, s := range opts[i] {
				if seen[s] == stamp {
					continue
				}
				seen[s] = stamp
				if t.size[s]+len(as[s]) < cap {
					as[s] = append(as[s], i)
					return true
				}
				for q, o := range as[s] {
					if try(o) {
						as[s][q] = i
						return true
					}
				}
			}
			return false
		}
		ok := true
		for i := range lv {
			stamp++
			if !try(i) {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		for s, is := range as {
			for _, i := range is {
				y := lv[i]
				t.sub[y], t.depth[y] = int8(s), int8(bits.OnesCount(uint(y)))
				for x := y; x != 0; x &= x - 1 {
					p := y ^ 1<<bits.TrailingZeros(uint(x))
					if p == 0 || int(t.sub[p]) == s {
						t.parent[y] = int32(p)
						break
					}
				}
			}
			t.size[s] += len(is)
		}
		return
	}
}

// branches is, over the children of the subtrees' roots, the most nodes
// one carries below it (itself included) and the most hops below one:
// phase 3 pushes M packets per node of a branch through the link to its
// top, furthest first.
func (t *scatterTree) branches() (most, height int) {
	size := make([]int, 1<<t.k)
	for y := 1; y < 1<<t.k; y++ {
		top := y
		for top != 0 && t.parent[top] != 0 && t.parent[t.parent[top]] != 0 {
			top = int(t.parent[top])
		}
		if t.parent[top] == 0 { // (y is a subtree's root)
			continue
		}
		size[top]++
		most, height = max(most, size[top]), max(height, int(t.depth[y]-t.depth[top]))
	}
	return most, height
}
