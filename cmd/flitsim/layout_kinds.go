package main

import (
	"fmt"
	"io"
	"strconv"

	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/network/gridlayout"
	"github.com/flitsim/flitsim/network/topology"
)

// areaBound is what the seed says of a layout's area, next to the measured
// one: Formula and Value when the seed gives a number or an order, Ratio =
// area / Value, and Note saying what kind of figure it is (a Θ order with
// no constant, an upper bound, or none).
type areaBound struct {
	Formula string  `json:"formula"`
	Value   float64 `json:"value,omitempty"`
	Ratio   float64 `json:"ratio,omitempty"`
	Source  string  `json:"source"`
	Note    string  `json:"note"`
	// HypercubeArea is, for the folded cube, the area of the plain d-cube
	// laid out by the same construction (the bound's A_cube).
	HypercubeArea int64 `json:"hypercube_area,omitempty"`
	// Side and SideBound: the pseudocube's Proposition 1 bounds the side.
	Side      int   `json:"side,omitempty"`
	SideBound int64 `json:"side_bound,omitempty"`
}

// binaryCoded is Thm 5.12's binary-coded d-ary mapping measured on this d
// and n: the most d-shuffle links routed over one 2-shuffle link, against
// the theorem's ⌈lg d⌉·2^(⌈lg d⌉−1).
type binaryCoded struct {
	BitsPerDigit int `json:"bits_per_digit"`
	MaxLoad      int `json:"max_load"`
	Bound        int `json:"bound"`
}

// buildKindLayout lays out the d-shuffle and Varvarigos's cube-like
// networks: each by the general channel router (gridlayout.ArrayLayout) on
// the graph topology.Build wires, then checked against it.
func buildKindLayout(tc network.TopologyConfig, rep *layoutReport) (*layoutReport, *gridlayout.Embedding, error) {
	spec := topology.Spec{Kind: rep.Kind, D: tc.D, N: tc.N, Symmetric: tc.Symmetric, Seed: tc.Seed}
	switch rep.Kind {
	case "dshuffle":
		if maxLayoutDigits(tc.D) == 0 {
			return nil, nil, badLayout("topology.d", tc.D, fmt.Sprintf("an integer from 2 to 32 for a layout (N·d² ≤ %d)", gridlayout.MaxDShuffleWeight))
		}
		if p, ok := intPow(tc.D, tc.N); !ok || p > gridlayout.MaxDShuffleNodes || p*tc.D*tc.D > gridlayout.MaxDShuffleWeight {
			return nil, nil, badLayout("topology.n", tc.N,
				fmt.Sprintf("at most %d digits for d = %d (a layout needs N = d^n ≤ %d and N·d² ≤ %d)",
					maxLayoutDigits(tc.D), tc.D, gridlayout.MaxDShuffleNodes, gridlayout.MaxDShuffleWeight))
		}
		rep.D, rep.N = tc.D, tc.N
		rep.Topology = fmt.Sprintf("%d-shuffle n=%d", tc.D, tc.N)
	case "folded-cube", "permutation-cube", "pseudocube":
		if tc.D > gridlayout.MaxCubeLikeDim {
			return nil, nil, badLayout("topology.d", tc.D, fmt.Sprintf("an integer from 2 to %d for a layout", gridlayout.MaxCubeLikeDim))
		}
		rep.D = tc.D
		rep.Topology = fmt.Sprintf("%s d=%d", rep.Kind, tc.D)
		if rep.Kind == "permutation-cube" && tc.Symmetric {
			rep.Topology += " (symmetric)"
		}
	default:
		return nil, nil, badLayout("topology.kind", tc.Kind, layoutKinds)
	}
	emb, g, nodes, err := kindEmbedding(spec)
	if err != nil {
		return nil, nil, err
	}
	fillMeasures(rep, emb, nodes, g)
	if rep.Kind == "dshuffle" {
		err = dshuffleReport(rep, tc.D, tc.N)
	} else {
		err = cubeLikeReport(rep, tc.D)
	}
	if err == nil {
		rep.Scaling, err = areaScaling(spec)
	}
	return rep, emb, err
}

// kindEmbedding builds the network spec describes, lays it out and checks
// the layout against it.
func kindEmbedding(spec topology.Spec) (*gridlayout.Embedding, []gridlayout.Pair, int, error) {
	topo, err := topology.Build(spec)
	if err != nil {
		return nil, nil, 0, err
	}
	g := gridlayout.GraphOf(topo)
	nodes := len(topo.Switches)
	var emb *gridlayout.Embedding
	if spec.Kind == "dshuffle" {
		emb, err = gridlayout.DShuffle(spec.D, spec.N, g)
	} else {
		emb, err = gridlayout.CubeLike(spec.Kind, spec.D, g)
	}
	if err != nil {
		return nil, nil, 0, err
	}
	if err := checkLayout(emb, nodes, g); err != nil {
		return nil, nil, 0, err
	}
	return emb, g, nodes, nil
}

// scaleRow is one size of the same family: its area against the seed's
// figure, so the ratio's trend with N is visible.
type scaleRow struct {
	N     int     `json:"n,omitempty"`
	D     int     `json:"d"`
	Nodes int     `json:"nodes"`
	Area  int64   `json:"area"`
	Bound float64 `json:"bound"`
	Ratio float64 `json:"ratio"`
}

// areaScaling lays out every smaller member of spec's family (the
// d-shuffle with n' ≤ n digits, the cube-like kinds with 2 ≤ d' ≤ d), the
// requested size last, each checked, with area / the seed's figure.
func areaScaling(spec topology.Spec) ([]scaleRow, error) {
	var out []scaleRow
	last := spec.D
	if spec.Kind == "dshuffle" {
		last = spec.N
	}
	for size := min(2, last); size <= last; size++ {
		s := spec
		if spec.Kind == "dshuffle" {
			s.N = size
		} else {
			s.D = size
		}
		emb, _, nodes, err := kindEmbedding(s)
		if err != nil {
			return nil, err
		}
		row := scaleRow{D: s.D, Nodes: nodes, Area: emb.Bounds().Area()}
		switch spec.Kind {
		case "dshuffle":
			row.N, row.Bound = s.N, gridlayout.DShuffleAreaBound(s.D, s.N)
		case "folded-cube":
			cube, _, _, err := kindEmbedding(topology.Spec{Kind: "hypercube", D: s.D})
			if err != nil {
				return nil, err
			}
			row.Bound = float64(gridlayout.FoldedCubeArea(cube.Bounds().Area(), s.D))
		default:
			row.Bound = float64(nodes) * float64(nodes)
		}
		row.Ratio = float64(row.Area) / row.Bound
		out = append(out, row)
	}
	return out, nil
}

func dshuffleReport(rep *layoutReport, d, n int) error {
	lower, err := gridlayout.DShuffleBisectionLower(d, n)
	if err != nil {
		return err
	}
	rep.Bisection = &gridlayout.Bisection{Lower: lower,
		LowerSource: "Brebner Thm 5.9: ⌊N/2⌋·⌈N/2⌉ standard n-step paths, at most n·d^(n−1) through an edge"}
	bound := gridlayout.DShuffleAreaBound(d, n)
	rep.AreaBound = &areaBound{
		Formula: "(dN/log_d N)²", Value: bound, Ratio: float64(rep.Area) / bound,
		Source: "Brebner Cor 5.10 (lower) and Thm 5.12 (upper): area Θ((dN/log_d N)²)",
		Note: "an order, no constant: the ratio staying flat as N grows is the test. " +
			"Deviation: this is not the thesis's construction (Thm 5.11's 2-shuffle layout on the Kleitman–Leighton–Lepley–Miller " +
			"shuffle-exchange layout, Thm 5.12's binary coding) but a complex-plane placement with a channel router; self-loops are not wires",
	}
	load, err := gridlayout.BinaryCodedLoad(d, n)
	if err != nil {
		return err
	}
	rep.BinaryCoded = &binaryCoded{BitsPerDigit: gridlayout.CodeBits(d), MaxLoad: load, Bound: gridlayout.BinaryCodedLoadBound(d)}
	return nil
}

func cubeLikeReport(rep *layoutReport, d int) error {
	nn := float64(int64(1) << (2 * d))
	switch rep.Kind {
	case "folded-cube":
		cube, _, _, err := kindEmbedding(topology.Spec{Kind: "hypercube", D: d})
		if err != nil {
			return err
		}
		ca := cube.Bounds().Area()
		b := gridlayout.FoldedCubeArea(ca, d)
		rep.AreaBound = &areaBound{Formula: "A_cube + 16N²", Value: float64(b), Ratio: float64(rep.Area) / float64(b), HypercubeArea: ca,
			Source: "Varvarigos 1992 §7.5: the hypercube's Θ(N²) layout plus the complement links in ≤ 4N horizontal and 4N vertical channels",
			Note:   "an upper bound; A_cube is the d-cube laid out by this same construction (hypercube_area)"}
	case "permutation-cube":
		rep.AreaBound = &areaBound{Formula: "N²", Value: nn, Ratio: float64(rep.Area) / nn,
			Source: "Varvarigos 1992 §7.5: the hypercube's recursive layout (same degree, same separators), Θ(N²)",
			Note:   "an order, no constant given: the ratio is area/N²"}
	case "pseudocube":
		side := max(rep.Width, rep.Height)
		rep.AreaBound = &areaBound{Formula: "N²", Value: nn, Ratio: float64(rep.Area) / nn, Side: side, SideBound: gridlayout.PseudocubeSide(d),
			Source: "Varvarigos 1992 §7.5 Proposition 1: side ≤ 8N + Θ(√maxdeg)·√N, area Θ(N²)",
			Note: "side_bound is 8N without the Θ(√maxdeg)·√N term, whose constant is not given; " +
				"here every vertex is one square of side ⌈maxdeg/4⌉ (Def 5.2), not §7.5's binary tree of Θ(√maxdeg) side"}
	}
	return nil
}

// maxLayoutDigits is the largest n the d-shuffle layout takes for d (0
// when even n = 1 is too large).
func maxLayoutDigits(d int) int {
	n := 0
	for p := d; d >= 2 && p <= gridlayout.MaxDShuffleNodes && p*d*d <= gridlayout.MaxDShuffleWeight; p *= d {
		n++
	}
	return n
}

// areaBoundRows are the table rows for an areaBound and a binaryCoded.
func areaBoundRows(rep *layoutReport) [][]string {
	var rows [][]string
	if a := rep.AreaBound; a != nil {
		v := fmt.Sprintf("%s = %s; area / bound = %s — %s. %s", a.Formula, num(a.Value), num(a.Ratio), a.Source, a.Note)
		if a.HypercubeArea > 0 {
			v += fmt.Sprintf("; A_cube = %d", a.HypercubeArea)
		}
		rows = append(rows, []string{"area, seed's figure", v})
		if a.SideBound > 0 {
			rows = append(rows, []string{"side, seed's figure", fmt.Sprintf("%d measured (longer side), 8N = %d", a.Side, a.SideBound)})
		}
	}
	if b := rep.BinaryCoded; b != nil {
		rows = append(rows, []string{"binary-coded d-ary (Thm 5.12)", fmt.Sprintf("%d bits per digit; most d-shuffle links on one 2-shuffle link: %d (bound ⌈lg d⌉·2^(⌈lg d⌉−1) = %d)",
			b.BitsPerDigit, b.MaxLoad, b.Bound)})
	}
	return rows
}

// writeScaling prints the area against the seed's figure for each size.
func writeScaling(w io.Writer, rep *layoutReport) error {
	if len(rep.Scaling) == 0 || rep.AreaBound == nil {
		return nil
	}
	rows := make([][]string, len(rep.Scaling))
	for i, r := range rep.Scaling {
		size := fmt.Sprintf("d=%d", r.D)
		if rep.Kind == "dshuffle" {
			size = fmt.Sprintf("d=%d n=%d", r.D, r.N)
		}
		rows[i] = []string{size, strconv.Itoa(r.Nodes), strconv.FormatInt(r.Area, 10), num(r.Bound), fmt.Sprintf("%.3f", r.Ratio)}
	}
	if _, err := fmt.Fprintln(w); err != nil {
		return err
	}
	return renderTable(w, []string{"size", "N", "area", "bound", "area / bound"}, rows)
}
