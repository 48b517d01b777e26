package header

import "fmt"

// Table 3.1 of Chiang 1995 (§3.5): header flits of each encoding for three
// destination patterns on a 256-node cube MIN of 2×2 switches, 8-bit
// addresses and 8-bit flits; "a header consists of a counter and addresses".

// Table31Patterns are the three destination sets, in ParseDests notation.
var Table31Patterns = [3]string{
	"1:12:1,32:50:2,60:75:1,90:117:3",                    // 48 nodes
	"1,3,6,10,15,21,28,36,45,55,64,72,79,85,90,94,97,99", // 18 nodes
	"1:48", // 48 nodes
}

// Table31Schemes are the table's rows, in its order.
var Table31Schemes = []Scheme{AllDestination, BitStringBuffered, BitStringHier,
	RegionBroadcast, RegionStride, RegionMask, RegionBitString}

// Table31Options are the table's parameters.
func Table31Options() Options {
	return Options{Nodes: 256, FlitBits: 8, K: 2, MIN: "cube"}
}

// Table31 encodes pattern (1–3) with scheme under Table31Options and returns
// the header length in flits and, for region schemes, the number of regions
// (0 otherwise).
func Table31(s Scheme, pattern int) (flits, regions int, err error) {
	if pattern < 1 || pattern > len(Table31Patterns) {
		return 0, 0, fmt.Errorf("Table 3.1 has patterns 1 to %d, not %d", len(Table31Patterns), pattern)
	}
	o := Table31Options()
	d, err := ParseDests(Table31Patterns[pattern-1], o.Nodes)
	if err != nil {
		return 0, 0, err
	}
	h, err := Encode(s, d, o)
	if err != nil {
		return 0, 0, err
	}
	return h.Len(), h.Regions(), nil
}

// Regions is the number of regions of a region-scheme header (0 for other
// schemes or a malformed header).
func (h *Header) Regions() int {
	if !h.Scheme.isRegion() {
		return 0
	}
	p, err := h.parse()
	if err != nil {
		return 0
	}
	return len(p.regions)
}
