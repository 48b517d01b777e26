package collective

import (
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network/topology"
)

// Folded-cube total exchange (thesis §7.4, paper §4; digest 000b §4.14(g)):
// every node sends a packet to every other along a shortest path given by
// a (d+1)-bit routing tag — the offset x = s ⊕ t itself when h(x) < (d+1)/2,
// the c-bit and the complement of x when h(x) > (d+1)/2; for odd d the
// offsets of weight (d+1)/2 (both ways shortest) are split between the two,
// the same way at every node. The task matrix (rows: tags, columns: the
// d+1 dimensions) is the same at every node; it is decomposed into
// partial permutation matrices by a bipartite edge colouring with h
// colours (König), h the critical sum, and every node applies S_k in
// slot k (symmetric switching, Lemma 2 of the paper).

// foldedTags are the TE routing tags, one row per offset x = 1..N−1 (bit d
// is the c-bit), with the split of the middle weight for odd d.
func foldedTags(d int) []uint32 {
	n, all := 1<<d, uint32(1<<d-1)
	tags := make([]uint32, n-1)
	var middle []uint32
	for x := 1; x < n; x++ {
		h := bits.OnesCount(uint(x))
		switch {
		case 2*h < d+1:
			tags[x-1] = uint32(x)
		case 2*h > d+1:
			tags[x-1] = 1<<d | ^uint32(x)&all
		default:
			middle = append(middle, uint32(x))
		}
	}
	for x, viaC := range middleSplit(d, middle) {
		if viaC {
			tags[x-1] = 1<<d | ^uint32(x)&all
		} else {
			tags[x-1] = uint32(x)
		}
	}
	return tags
}

// middleSplit chooses, for odd d, which weight-(d+1)/2 offsets take the
// complement link: whole cyclic-rotation orbits (so that every regular
// column gets the same count), as near half of them as the orbit sizes
// allow (digest 000b §5.4 and §7 item 21: an equal split is impossible
// when C(d,⌈d/2⌉) is odd, d = 2^j − 1). Every node splits alike.
func middleSplit(d int, middle []uint32) map[uint32]bool {
	all := uint32(1<<d - 1)
	rot := func(x uint32) uint32 { return (x<<1 | x>>(d-1)) & all }
	seen := map[uint32]bool{}
	var orbits [][]uint32
	for _, x := range middle {
		if seen[x] {
			continue
		}
		var o []uint32
		for y := x; !seen[y]; y = rot(y) {
			seen[y] = true
			o = append(o, y)
		}
		orbits = append(orbits, o)
	}
	// Subset sum over the orbit sizes: the reachable totals, then walk back
	// from the one nearest half.
	half := len(middle) / 2
	from := make([]int, len(middle)+1) // total → the orbit that first reached it, +1
	from[0] = -1
	for i, o := range orbits {
		for t := len(middle); t >= len(o); t-- {
			if from[t] == 0 && from[t-len(o)] != 0 {
				from[t] = i + 1
			}
		}
	}
	best := 0
	for t := range from {
		if from[t] != 0 && abs(t-half) < abs(best-half) {
			best = t
		}
	}
	out := make(map[uint32]bool, len(middle))
	for _, x := range middle {
		out[x] = false
	}
	for t := best; t > 0; {
		o := orbits[from[t]-1]
		for _, x := range o {
			out[x] = true
		}
		t -= len(o)
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// setupFoldedTE loads the folded-cube TE and its schedule: the edge
// colouring (optimal) or the greedy symmetric rule.
func setupFoldedTE(k *kernel.Kernel, x *dims, greedy bool, px *proxy, r *Result) *checker {
	d, n := x.d, x.n
	tags := foldedTags(d)
	h, _ := critical(tags, d+1)
	var steps [][]rowStep
	if greedy {
		steps = greedySteps(tags, d+1, nil)
	} else {
		steps = edgeColour(tags, d+1, h)
	}
	ck := newChecker(n)
	expectTE(ck, n)
	s := newXrowSched(x, len(tags), steps, ck)
	s.load(k, func(v, i int) int { return v ^ tagNode(d, tags[i]) })
	px.SlotScheduler, px.limit = s, int64(len(steps))+1
	r.Packets = int64(n * (n - 1))
	f := foldedTE(d)
	r.Formula, r.FormulaText = &f, "2^{d−1} − ½·C(d,⌈d/2⌉) (optimal TE, thesis §7.4, paper §4)"
	r.LowerBound = math.Ceil(f)
	r.LowerText = "⌈2^{d−1} − ½·C(d,⌈d/2⌉)⌉: Ho's bound, all shortest-path hops over the N(d+1) links (N·MID/(d+1)), in whole slots"
	r.Reading = fmt.Sprintf("tags (0, s⊕t) or (1, ¬(s⊕t)); task matrix critical sum h = %d", h)
	if d%2 == 1 {
		r.Reading += "; odd d: the weight-(d+1)/2 offsets split by whole rotation orbits, as near half as the orbit sizes allow (digest 000b §7 item 21; ⌈formula⌉ when C(d,⌈d/2⌉) is odd)"
	}
	if greedy {
		u := f + float64(d) - 1
		r.UpperBound, r.UpperText = &u, "2^{d−1} − ½·C(d,⌈d/2⌉) + d − 1 (greedy symmetric schemes, paper §4)"
		r.Reading += "; greedy symmetric rule: in every slot each dimension takes the heaviest remaining row that wants it and is not yet sent (no link idle while a packet wants it)"
	} else {
		r.Reading += "; bipartite edge colouring of the task matrix with h colours (König), slot k applies colour k at every node"
	}
	return ck
}

// tagNode is the offset a routing tag leads to: the XOR of its generators.
func tagNode(d int, tag uint32) int {
	off := 0
	for t := tag; t != 0; t &= t - 1 {
		off ^= foldGen(d, bits.TrailingZeros32(t))
	}
	return off
}

// edgeColour decomposes the task matrix with rows tags and cols columns
// into h partial permutation matrices (h ≥ the largest row or column sum):
// a proper edge colouring of the bipartite rows × columns graph, each edge
// coloured in turn, swapping two colours along an alternating path when
// no colour is free at both ends (König's theorem, [Rys65]).
func edgeColour(tags []uint32, cols, h int) [][]rowStep {
	type ent struct{ col, colour int32 }
	rowEnt := make([][]ent, len(tags))
	colAt := make([][]int32, cols) // column × colour → row, or −1
	for j := range colAt {
		colAt[j] = slices.Repeat([]int32{-1}, h)
	}
	colourAt := func(r int32, colour int32) int32 { // r's column of this colour, or −1
		for _, e := range rowEnt[r] {
			if e.colour == colour {
				return e.col
			}
		}
		return -1
	}
	setColour := func(r, col, colour int32) {
		for i := range rowEnt[r] {
			if rowEnt[r][i].col == col {
				rowEnt[r][i].colour = colour
			}
		}
	}
	for r, t := range tags {
		for ; t != 0; t &= t - 1 {
			j := int32(bits.TrailingZeros32(t))
			a, b := int32(0), int32(0)
			for colourAt(int32(r), a) >= 0 {
				a++
			}
			for colAt[j][b] >= 0 {
				b++
			}
			if colAt[j][a] >= 0 { // flip the a/b path from column j: col −a→ row −b→ col …
				type edge struct{ row, col int32 }
				var path []edge
				for col := j; ; {
					row := colAt[col][a]
					if row < 0 {
						break
					}
					path = append(path, edge{row, col})
					next := colourAt(row, b)
					if next < 0 {
						break
					}
					path = append(path, edge{row, next})
					col = next
				}
				for i, e := range path {
					colAt[e.col][[2]int32{a, b}[i%2]] = -1
				}
				for i, e := range path {
					c := [2]int32{b, a}[i%2]
					setColour(e.row, e.col, c)
					colAt[e.col][c] = e.row
				}
			}
			rowEnt[r] = append(rowEnt[r], ent{j, a})
			colAt[j][a] = int32(r)
		}
	}
	steps := make([][]rowStep, h)
	for j := range colAt {
		for c, r := range colAt[j] {
			if r >= 0 {
				steps[c] = append(steps[c], rowStep{r, int32(j)})
			}
		}
	}
	for len(steps) > 0 && len(steps[len(steps)-1]) == 0 {
		steps = steps[:len(steps)-1]
	}
	return steps
}

// greedySteps is the greedy symmetric rule: in every slot each dimension
// in turn takes, among the rows that still need it and are not sent yet
// this slot, the one with the most remaining entries (then the lowest
// row); a row may not use a column that allowed rejects (nil: any).
func greedySteps(tags []uint32, cols int, allowed func(rest uint32, j int) bool) [][]rowStep {
	rest := slices.Clone(tags)
	left := 0
	for _, t := range rest {
		left += bits.OnesCount32(t)
	}
	var steps [][]rowStep
	used := make([]int, len(rest)) // the step a row was last sent in, +1
	for left > 0 {
		var st []rowStep
		for j := 0; j < cols; j++ {
			best, bw := -1, 0
			for i, t := range rest {
				if t>>j&1 == 0 || used[i] == len(steps)+1 || allowed != nil && !allowed(t, j) {
					continue
				}
				if w := bits.OnesCount32(t); w > bw {
					best, bw = i, w
				}
			}
			if best >= 0 {
				st = append(st, rowStep{int32(best), int32(j)})
				used[best] = len(steps) + 1
				rest[best] &^= 1 << j
				left--
			}
		}
		if len(st) == 0 {
			panic("collective: greedy rule found no row to send") // (allowed rejected every remaining entry)
		}
		steps = append(steps, st)
	}
	return steps
}

// RunFoldedOffsets carries out, on the folded d-cube, the isotropic task in
// which every node s sends a packet to s ⊕ x for each offset x (distinct,
// nonzero), along the TE's shortest-path tags, by the edge-colouring
// schedule. Slots should equal the critical sum h of the task matrix,
// which is also Theorem 1's lower bound for those paths.
func RunFoldedOffsets(d int, offsets []int, seed uint64) (*Result, error) {
	if d < 2 || d > MaxFoldedD {
		return nil, inputerr.New("topology.d", d, "an integer from 2 to %d", MaxFoldedD)
	}
	all := foldedTags(d)
	seen := map[int]bool{}
	tags := make([]uint32, len(offsets))
	for i, x := range offsets {
		if x <= 0 || x >= 1<<d || seen[x] {
			return nil, fmt.Errorf("offset %d is not a distinct nonzero %d-bit string", x, d)
		}
		seen[x], tags[i] = true, all[x-1]
	}
	spec := topology.Spec{Kind: "folded-cube", D: d}
	return runNet(spec, "isotropic", seed, nil, func(k *kernel.Kernel, g *Net, px *proxy, r *Result) (*checker, error) {
		x, err := newDims(g, d, d+1, func(v, j int) int { return v ^ foldGen(d, j) })
		if err != nil {
			return nil, err
		}
		h, _ := critical(tags, d+1)
		steps := edgeColour(tags, d+1, h)
		ck := newChecker(x.n)
		s := newXrowSched(x, len(tags), steps, ck)
		s.load(k, func(v, i int) int { return v ^ offsets[i] })
		for v := 0; v < x.n; v++ {
			for _, off := range offsets {
				ck.expect(v^off, v)
			}
		}
		px.SlotScheduler, px.limit = s, int64(len(steps))+1
		r.Packets = int64(x.n * len(tags))
		r.LowerBound, r.LowerText = float64(h), "Theorem 1: critical sum of the task matrix (largest row or column sum)"
		return ck, nil
	})
}
