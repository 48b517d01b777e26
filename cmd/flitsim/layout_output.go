package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
)

func writeLayoutJSON(w io.Writer, rep *layoutReport) error {
	if rep.EdgeLengths == nil {
		rep.EdgeLengths = map[int]int{} // "edge_lengths": {} rather than null
	}
	return writeLayoutAny(w, rep)
}

// writeLayoutAny writes v indented, leaving &, < and > as they are.
func writeLayoutAny(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// writeLayoutTable prints the summary, then the edge-length distribution.
func writeLayoutTable(w io.Writer, rep *layoutReport) error {
	rows := [][]string{{"topology", fmt.Sprintf("%s: %d vertices, %d undirected edges, degree %d", rep.Topology, rep.Nodes, rep.Edges, rep.Degree)}}
	if rep.Nodes == 0 || rep.Edges == 0 {
		rows[0][1] = rep.Topology
		if rep.Nodes > 0 {
			rows[0][1] += fmt.Sprintf(": %d vertices", rep.Nodes)
		}
	}
	if rep.Construction != "" {
		box := rep.Box
		rows = append(rows,
			[]string{"construction", rep.Construction},
			[]string{"vertex square", fmt.Sprintf("%d×%d grid vertices (⌈degree/4⌉)", rep.VertexSide, rep.VertexSide)},
			[]string{"width × height", fmt.Sprintf("%d × %d", rep.Width, rep.Height)},
			[]string{"area", fmt.Sprintf("%d grid vertices = %s per vertex = %s N²", rep.Area, num(rep.AreaPerNode), num(rep.AreaOverN2))},
			[]string{"bounding box", fmt.Sprintf("x %d..%d, y %d..%d", box.MinX, box.MaxX, box.MinY, box.MaxY)},
			[]string{"vertex squares alone", fmt.Sprintf("%d grid vertices (Thm 5.4: a lower bound on the area)", rep.SquaresArea)},
		)
	}
	rows = append(rows, areaBoundRows(rep)...)
	if b := rep.Bisection; b != nil {
		rows = append(rows, []string{"bisection width ≥", fmt.Sprintf("%d — %s", b.Lower, b.LowerSource)})
		if b.Upper > 0 {
			rows = append(rows, []string{"bisection width ≤", fmt.Sprintf("%d — %s", b.Upper, b.UpperSource)})
		}
	}
	if rep.Construction != "" {
		rows = append(rows,
			[]string{"longest edge", strconv.Itoa(rep.MaxLength) + " grid edges"},
			[]string{"total wire", strconv.FormatInt(rep.WireLength, 10) + " grid edges"})
	}
	if m := rep.GridInCube; m != nil {
		grid := "mesh"
		if m.Torus {
			grid = "torus"
		}
		rows = append(rows, []string{"grid in cube (Thm 5.16)", fmt.Sprintf("the %d×%d %s in the %d-cube (%d nodes) by Gray codes: dilation %d, %d of %d edges on cube edges",
			m.Side, m.Side, grid, m.CubeDim, m.Nodes, m.Dilation, m.CubeEdges, m.Edges)})
	}
	check := "no"
	if rep.Checked {
		check = "yes: every network edge once, unit steps, edge-disjoint, no path through another square"
	}
	rows = append(rows, []string{"checked", check})
	if rep.Note != "" {
		rows = append(rows, []string{"note", rep.Note})
	}
	if err := renderTable(w, []string{"layout", "value"}, rows); err != nil {
		return err
	}
	if err := writeScaling(w, rep); err != nil {
		return err
	}
	if len(rep.EdgeLengths) == 0 {
		return nil
	}
	lengths := make([]int, 0, len(rep.EdgeLengths))
	for l := range rep.EdgeLengths {
		lengths = append(lengths, l)
	}
	sort.Ints(lengths)
	if _, err := fmt.Fprintln(w); err != nil {
		return err
	}
	return renderTable(w, []string{"edge length", "edges"}, lengthRows(lengths, rep.EdgeLengths))
}

// lengthRows is the edge-length distribution as table rows: one per length,
// or, past 32 distinct lengths (a channel-routed layout has hundreds), one
// per power-of-two range lo–hi, so the table stays short; the JSON keeps
// every length.
func lengthRows(lengths []int, count map[int]int) [][]string {
	if len(lengths) <= 32 {
		rows := make([][]string, len(lengths))
		for i, l := range lengths {
			rows[i] = []string{strconv.Itoa(l), strconv.Itoa(count[l])}
		}
		return rows
	}
	var rows [][]string
	for i := 0; i < len(lengths); {
		lo := 1
		for lo*2 <= lengths[i] {
			lo *= 2
		}
		hi, n := 2*lo-1, 0
		for ; i < len(lengths) && lengths[i] <= hi; i++ {
			n += count[lengths[i]]
		}
		rows = append(rows, []string{fmt.Sprintf("%d–%d", lo, hi), strconv.Itoa(n)})
	}
	return rows
}
