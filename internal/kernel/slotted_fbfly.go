package kernel

import "math/bits"

// The folded butterfly under the slotted router (Varvarigos 1992 §5.5,
// Fig. 5.8; digest 000b §2.2): a d-stage butterfly whose last stage is
// its first. Its node (i, r) is switch i·2^d + r; port 0 is the straight
// link to ((i−1) mod d, r), port 1 the cross link to ((i−1) mod d,
// r ⊕ 2^i), each holding one packet. The router's link layout, link
// (i·N + r)·2 + b, is port b of that switch: the folded butterfly's own
// links, stage by stage. The hypercube's descending-dimensions node maps
// onto it — queue Q_i(r) is node (i, r), its internal buffer the straight
// link and its forward buffer the cross link — which is the thesis's
// statement that the simple scheme is greedy routing on the folded
// butterfly. New packets appear at every link buffer (intermediate stages
// included) and are delivered after d links at the row they were sent to,
// at the stage they entered.

// SlottedLinks is the number of links of the slotted router's model of a
// d-dimensional network of rows nodes (2^d): two per stage of each node
// (the 2d links of a hypercube node, or a folded-butterfly node's straight
// and cross link) for the descending schemes, d per node for the
// deflecting crossbar node.
func SlottedLinks(scheme uint8, d, rows int) int {
	if IsDeflection(scheme) {
		return deflLinks(d, rows)
	}
	return 2 * d * rows
}

// slottedShape is the dimension d and the rows (2^d hypercube nodes) of
// the network of the given switches.
func slottedShape(sp SlottedSpec, switches int) (d, rows int) {
	if !sp.Butterfly {
		return bits.TrailingZeros(uint(switches)), switches
	}
	for d = 1; d<<d < switches; d++ {
	}
	return d, 1 << d
}

// IsSlottedButterfly reports whether a network of nodes switches is the
// folded butterfly the layout above reads (nbr(s, port) is −1 for a port
// without a link to a switch), and its number of stages d.
func IsSlottedButterfly(nbr func(s, port int) int, nodes, ports int) (int, bool) {
	d := 2
	for ; d<<d < nodes && d < 20; d++ {
	}
	if d<<d != nodes || ports < 2 {
		return 0, false
	}
	rows := 1 << d
	for v := range nodes {
		i, r := v/rows, v%rows
		next := (i+d-1)%d*rows + r
		if nbr(v, 0) != next || nbr(v, 1) != next^1<<i {
			return 0, false
		}
		for p := 2; p < ports; p++ {
			if nbr(v, p) >= 0 {
				return 0, false
			}
		}
	}
	return d, true
}
