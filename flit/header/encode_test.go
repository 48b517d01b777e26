package header

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/configs/inputerr"
)

func mustEncode(t *testing.T, s Scheme, d []int, o Options) *Header {
	t.Helper()
	h, err := Encode(s, d, o)
	if err != nil {
		t.Fatalf("Encode(%s, %v, %+v): %v", s, d, o, err)
	}
	return h
}

func span(a, b int) []int {
	var d []int
	for x := a; x <= b; x++ {
		d = append(d, x)
	}
	return d
}

// Worked examples of Chiang Ch. 2–4 (digest §3.5, §4.1, §6.1–6.4). The
// String form is the thesis's notation: "counter; regions", masks in binary.
func TestEncodeExamples(t *testing.T) {
	n8 := Options{Nodes: 8, FlitBits: 3}
	n16 := Options{Nodes: 16, FlitBits: 4}
	k4 := Options{Nodes: 16, FlitBits: 4, K: 4}
	eoh16 := Options{Nodes: 16, FlitBits: 4, EOH: true}
	for _, c := range []struct {
		name  string
		s     Scheme
		d     []int
		o     Options
		want  string
		flits int
	}{
		{"Fig 3.6 all-destination", AllDestination, []int{2, 3, 5}, n8, "2 3 5 E", 4},
		{"Fig 3.8 buffered bit string", BitStringBuffered, []int{2, 3, 5}, n8, "00110100", 3},
		{"Fig 3.9 hierarchical bit string, 2·(8−1) bits", BitStringHier, []int{2, 3, 5}, n8, "11" + "010011" + "100100", 5},
		{"Fig 3.11 region broadcast", RegionBroadcast, []int{1, 3, 4, 5, 6}, n8, "2; 1:1 3:6", 5},
		{"Fig 3.12 stride, all odd nodes", RegionStride, []int{1, 3, 5, 7}, n8, "1; 1:7:2", 4},
		{"Fig 3.14 mask", RegionMask, []int{1, 4, 5}, n8, "1; 001:101:101", 4},
		{"Fig 3.16 region bit string", RegionBitString, []int{2, 3, 5}, Options{Nodes: 8, FlitBits: 4}, "1; 2:5:1101", 4},
		{"Fig 2.8 buffered bit string, 16 nodes", BitStringBuffered, []int{2, 3, 5, 7, 15}, n16, "0011010100000001", 4},
		{"Fig 2.9 hierarchical bit string, 4-port routers", BitStringHier, []int{2, 3, 5, 7, 15}, k4, "1101" + "0011" + "0101" + "0000" + "0001", 5},
		{"Fig 2.11 region broadcast, EOH form", RegionBroadcast, []int{2, 3, 4, 5, 7, 8}, eoh16, "2:5 7:8 E", 6},
		{"Fig 2.12 stride, EOH form", RegionStride, []int{1, 3, 5, 6, 7, 8, 9, 10}, eoh16, "1:5:2 6:10:1 E", 9},
		{"§2.2.6: five broadcast regions", RegionBroadcast, []int{0, 1, 3, 4, 6, 12, 13, 15}, n16, "5; 0:1 3:4 6:6 12:13 15:15", 11},
		{"§2.2.5: a complete 3-cube", RegionMask, []int{4, 5, 6, 7, 12, 13, 14, 15}, n16, "1; 0100:1111:1011", 4},
		{"§2.2.5: part of a 3-cube", RegionMask, []int{6, 7, 12, 13, 14}, n16, "1; 0110:1110:1011", 4},
		{"Fig 3.13: the 2-cube {4,5,12,13}", RegionMask, []int{4, 5, 12, 13}, n16, "1; 0100:1101:1001", 4},
		{"Fig 3.13 without 1101", RegionMask, []int{4, 5, 12}, n16, "1; 0100:1100:1001", 4},
		{"Fig 2.13 input", RegionMask, span(0, 5), eoh16, "0000:0101:0111 E", 6},
		{"Fig 2.15 input", RegionBitString, []int{2, 3, 5, 7}, eoh16, "2:7:110101 E", 6},
		{"Fig 2.3(b) row and column of 26, source excluded", RegionStride,
			[]int{2, 10, 18, 24, 25, 27, 28, 29, 30, 31, 34, 42, 50, 58}, Options{Nodes: 64, FlitBits: 6},
			"4; 2:18:8 24:25:1 27:31:1 34:58:8", 13},
		// Fig 4.7 (32-node cube): pseudo all-destination headers of 22, 20
		// and 8 addresses, each then EOH.
		{"Fig 4.7 T12 pseudo", PseudoAllDestination, []int{4, 6, 8, 24, 25}, Options{Nodes: 32, FlitBits: 5},
			"4 4' 6 6' 8" + strings.Repeat(" 8'", 15) + " 24 25 E", 23},
		{"Fig 4.7 T6 pseudo", PseudoAllDestination, []int{2, 5, 21}, Options{Nodes: 32, FlitBits: 5},
			"2 2' 2' 5" + strings.Repeat(" 5'", 15) + " 21 E", 21},
		{"Fig 4.7 T30 pseudo", PseudoAllDestination, []int{9, 10, 11, 16}, Options{Nodes: 32, FlitBits: 5},
			"9 10 11 11' 11' 11' 11' 16 E", 9},
		{"§4.4: pseudo header of a 16-node cluster is 16 flits + EOH", PseudoAllDestination, span(16, 31), Options{Nodes: 64, FlitBits: 6},
			joinInts(span(16, 31)) + " E", 17},
	} {
		h := mustEncode(t, c.s, c.d, c.o)
		if got := h.String(); got != c.want || h.Len() != c.flits {
			t.Errorf("%s: got %q (%d flits), want %q (%d flits)", c.name, got, h.Len(), c.want, c.flits)
		}
	}
}

func joinInts(d []int) string {
	s := make([]string, len(d))
	for i, x := range d {
		s[i] = itoa(x)
	}
	return strings.Join(s, " ")
}

func itoa(x int) string { return FormatDests([]int{x}) }

// Flit-level layout: labels, values, MSB-first bit packing with a partial
// last flit.
func TestFlitLayout(t *testing.T) {
	h := mustEncode(t, BitStringBuffered, []int{2, 3, 5}, Options{Nodes: 8, FlitBits: 3})
	want := []Flit{{KindBits, 0b001, 3}, {KindBits, 0b101, 3}, {KindBits, 0b00, 2}}
	if !slices.Equal(h.Flits, want) {
		t.Errorf("bit string flits %+v, want %+v", h.Flits, want)
	}
	h = mustEncode(t, BitStringBuffered, []int{2, 3, 5}, Options{Nodes: 8, FlitBits: 8})
	if len(h.Flits) != 1 || h.Flits[0].Value != 0b00110100 {
		t.Errorf("8-bit flit %+v, want 00110100", h.Flits)
	}
	h = mustEncode(t, RegionStride, []int{1, 3, 5, 7}, Options{Nodes: 8, FlitBits: 3})
	kinds := []Kind{KindCounter, KindBegin, KindEnd, KindStride}
	vals := []uint64{1, 1, 7, 2}
	for i, f := range h.Flits {
		if f.Kind != kinds[i] || f.Value != vals[i] {
			t.Errorf("stride flit %d = %+v, want %s %d", i, f, kinds[i], vals[i])
		}
	}
	h = mustEncode(t, RegionMask, []int{1, 4, 5}, Options{Nodes: 8, FlitBits: 3, EOH: true})
	last := h.Flits[len(h.Flits)-3:]
	if last[0] != (Flit{Kind: KindEOH, Value: 7}) || last[1] != (Flit{Kind: KindEOH}) || last[2] != (Flit{Kind: KindEOH}) {
		t.Errorf("mask EOH region %+v, want all 1s, all 0s, ignored", last)
	}
	h = mustEncode(t, RegionBitString, []int{0, 8}, Options{Nodes: 16, FlitBits: 4})
	// 0:8 spans 9 bits: three bit flits, the last with 1 bit. (A gap of 9
	// would exceed two 4-bit addresses and start a second region.)
	if got := h.String(); got != "1; 0:8:100000001" || h.Len() != 6 || h.Flits[5].Bits != 1 {
		t.Errorf("mrbs %s, %d flits %+v", got, h.Len(), h.Flits)
	}
}

// Table 3.1 (256-node cube MIN, 8-bit flits). Every published cell is
// reproduced except the region-bit-string row, which no single reading of
// the format gives (digest §7.2): published 19 / 14 / 8; the format
// (counter + Σ (2 + ⌈(e−b+1)/8⌉)) gives 18 / 16 / 9 — and the text itself
// says pattern 2 takes 15 flits before the counter.
func TestTable31(t *testing.T) {
	want := map[Scheme][3]int{
		AllDestination:    {49, 19, 49},
		BitStringBuffered: {32, 32, 32},
		BitStringHier:     {64, 64, 64},
		RegionBroadcast:   {45, 37, 3},
		RegionStride:      {13, 28, 4},
		RegionMask:        {40, 43, 4},
		RegionBitString:   {18, 16, 9}, // published 19, 14, 8 — see above
	}
	regions := map[Scheme][3]int{ // region counts the text states (§3.5)
		RegionBroadcast: {22, 18, 1},
		RegionStride:    {4, 9, 1},
		RegionMask:      {13, 14, 1},
		RegionBitString: {2, 1, 1},
	}
	for _, s := range Table31Schemes {
		for p := 1; p <= 3; p++ {
			f, r, err := Table31(s, p)
			if err != nil {
				t.Fatal(err)
			}
			if f != want[s][p-1] || r != regions[s][p-1] {
				t.Errorf("%s pattern %d: %d flits, %d regions; want %d, %d", s, p, f, r, want[s][p-1], regions[s][p-1])
			}
		}
	}
	if _, _, err := Table31(RegionMask, 4); err == nil {
		t.Error("pattern 4 accepted")
	}
}

// The regions the text prints or names for Table 3.1.
func TestTable31TextRegions(t *testing.T) {
	o := Table31Options()
	p1, _ := ParseDests(Table31Patterns[0], 256)
	p2, _ := ParseDests(Table31Patterns[1], 256)
	if len(p1) != 48 || len(p2) != 18 {
		t.Fatalf("patterns have %d and %d nodes, want 48 and 18", len(p1), len(p2))
	}
	h := mustEncode(t, RegionMask, p1, o)
	p, _ := h.parse()
	// The three printed mask regions of pattern 1 (the second is printed
	// with mask 00111110; bit 5 is the same in all of 32..50, so our
	// canonical 00011110 describes the same set).
	printed := []region{{b: 0b00000001, e: 0b00001100, m: 0b00001111}, {b: 0b00100000, e: 0b00110010, m: 0b00111110}, {b: 0b00111100, e: 0b01001011, m: 0b01111111}}
	for i, r := range printed {
		if !slices.Equal(r.members(RegionMask), p.regions[i].members(RegionMask)) {
			t.Errorf("mask region %d: %v, printed region gives %v", i, p.regions[i].members(RegionMask), r.members(RegionMask))
		}
	}
	if n := len(p.regions[0].members(RegionMask)) + len(p.regions[1].members(RegionMask)) + len(p.regions[2].members(RegionMask)); n != 38 {
		t.Errorf("the first three mask regions hold %d nodes, the text says 38", n)
	}
	// Pattern 2: the pairs (1,3), (64,72), (90,94), (97,99), 10 singletons.
	h = mustEncode(t, RegionMask, p2, o)
	p, _ = h.parse()
	var pairs [][]int
	for _, r := range p.regions {
		if m := r.members(RegionMask); len(m) == 2 {
			pairs = append(pairs, m)
		}
	}
	if !slices.EqualFunc(pairs, [][]int{{1, 3}, {64, 72}, {90, 94}, {97, 99}}, slices.Equal) {
		t.Errorf("pattern 2 mask pairs %v", pairs)
	}
	// Region bit string, pattern 1: regions 1–12 and 32–117.
	h = mustEncode(t, RegionBitString, p1, o)
	p, _ = h.parse()
	if len(p.regions) != 2 || p.regions[0].b != 1 || p.regions[0].e != 12 || p.regions[1].b != 32 || p.regions[1].e != 117 {
		t.Errorf("pattern 1 region bit string: %s", h)
	}
	// Pattern 2: one region, 2 + 13 flits, plus the counter.
	h = mustEncode(t, RegionBitString, p2, o)
	if h.Regions() != 1 || h.Len() != 1+2+13 {
		t.Errorf("pattern 2 region bit string: %d flits: %s", h.Len(), h)
	}
	// Without the Hamming-1 rule the mask format needs fewer regions.
	o.MaskAnyRun = true
	if h := mustEncode(t, RegionMask, p1, o); h.Regions() != 9 {
		t.Errorf("any-run masks, pattern 1: %d regions, want 9", h.Regions())
	}
	if h := mustEncode(t, RegionMask, p2, o); h.Regions() != 10 {
		t.Errorf("any-run masks, pattern 2: %d regions, want 10", h.Regions())
	}
}

func TestEncodeErrors(t *testing.T) {
	d := []int{1, 2}
	for _, c := range []struct {
		s     Scheme
		d     []int
		o     Options
		field string
		parts []string
	}{
		{"zigzag", d, Options{Nodes: 8, FlitBits: 3}, "scheme", []string{"zigzag", "mrbs", "region-broadcast"}},
		{"mrb", d, Options{Nodes: 12, FlitBits: 8}, "nodes", []string{"12", "power of the radix k = 2"}},
		{"mrb", d, Options{Nodes: 16, FlitBits: 8, K: 8}, "nodes", []string{"16", "k = 8"}},
		{"mrb", d, Options{Nodes: 1, FlitBits: 8}, "nodes", nil},
		{"mrb", d, Options{Nodes: 8, FlitBits: 8, K: 1}, "k", []string{"2 to 64"}},
		{"mrb", d, Options{Nodes: 8, FlitBits: 8, MIN: "torus"}, "min", []string{"cube, omega, baseline, butterfly"}},
		{"mrb", []int{1, 8}, Options{Nodes: 8, FlitBits: 3}, "dests", []string{"node 8", "0 to 7"}},
		{"mrb", []int{-1}, Options{Nodes: 8, FlitBits: 3}, "dests", []string{"node -1"}},
		{"mrb", nil, Options{Nodes: 8, FlitBits: 3}, "dests", []string{"at least one"}},
		{"mrb", d, Options{Nodes: 256, FlitBits: 7}, "flit-bits", []string{"7", "at least 8 for 256 nodes"}},
		{"ad", d, Options{Nodes: 256, FlitBits: 4}, "flit-bits", []string{"at least 8"}},
		{"bs", d, Options{Nodes: 256, FlitBits: 0}, "flit-bits", []string{"1 to 64"}},
		{"bs", d, Options{Nodes: 256, FlitBits: 65}, "flit-bits", []string{"1 to 64"}},
	} {
		_, err := Encode(c.s, c.d, c.o)
		var e *inputerr.Error
		if !errors.As(err, &e) || e.Key != c.field {
			t.Errorf("Encode(%s, %v, %+v) = %v, want an error on %s", c.s, c.d, c.o, err, c.field)
			continue
		}
		for _, p := range c.parts {
			if !strings.Contains(err.Error(), p) {
				t.Errorf("%q lacks %q", err, p)
			}
		}
	}
	// Bit strings need no address-wide flits.
	if _, err := Encode(BitStringHier, d, Options{Nodes: 256, FlitBits: 1}); err != nil {
		t.Errorf("1-bit flits for a bit string: %v", err)
	}
}

func TestParseSchemeAliases(t *testing.T) {
	for name, want := range map[string]Scheme{
		"ad": AllDestination, "All-Destination": AllDestination, "pseudo-all-destination": PseudoAllDestination,
		"bit-string-buffered": BitStringBuffered, "bs": BitStringBuffered, "hierarchical_bit_string": BitStringHier,
		"region-broadcast": RegionBroadcast, "region stride": RegionStride, "region-mask": RegionMask,
		"region-bit-string": RegionBitString, "MRBS": RegionBitString,
	} {
		if got, err := ParseScheme(name); got != want || err != nil {
			t.Errorf("ParseScheme(%q) = %q, %v; want %q", name, got, err, want)
		}
	}
}

// randomSet draws a nonempty destination set with a random density and
// shape (runs, strides and scattered nodes mixed).
func randomSet(rng *rand.Rand, nodes int) []int {
	in := make([]bool, nodes)
	switch rng.IntN(4) {
	case 0: // scattered
		p := rng.Float64()
		for x := range in {
			in[x] = rng.Float64() < p
		}
	case 1: // runs
		for range 1 + rng.IntN(4) {
			a := rng.IntN(nodes)
			for x := a; x < nodes && x < a+1+rng.IntN(nodes/2+1); x++ {
				in[x] = true
			}
		}
	case 2: // strided runs
		for range 1 + rng.IntN(3) {
			a, s := rng.IntN(nodes), 1+rng.IntN(5)
			for x, i := a, 0; x < nodes && i < 1+rng.IntN(12); x, i = x+s, i+1 {
				in[x] = true
			}
		}
	default: // a handful
		for range 1 + rng.IntN(5) {
			in[rng.IntN(nodes)] = true
		}
	}
	var d []int
	for x, ok := range in {
		if ok {
			d = append(d, x)
		}
	}
	if len(d) == 0 {
		d = []int{rng.IntN(nodes)}
	}
	return d
}

// Every encoding names exactly its destination set.
func TestEncodeDestinationsRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 3000 {
		k := []int{2, 3, 4, 8}[rng.IntN(4)]
		n := 1 + rng.IntN(map[int]int{2: 9, 3: 5, 4: 4, 8: 3}[k])
		nodes := pow(k, n)
		o := Options{Nodes: nodes, K: k, MIN: MINKinds[rng.IntN(4)], EOH: rng.IntN(2) == 0, MaskAnyRun: rng.IntN(2) == 0}
		o.FlitBits = addrBits(nodes) + rng.IntN(6)
		s := Table31Schemes[rng.IntN(len(Table31Schemes))]
		if rng.IntN(8) == 0 {
			s = PseudoAllDestination
		}
		d := randomSet(rng, nodes)
		h := mustEncode(t, s, d, o)
		got, err := h.Destinations()
		if err != nil || !slices.Equal(got, d) {
			t.Fatalf("trial %d: %s %+v of %v: header %s decodes to %v, %v", trial, s, o, d, h, got, err)
		}
		if s == PseudoAllDestination {
			pos := treeOrder(o.MIN, k, n)
			lo, hi := nodes, -1
			for _, x := range d {
				lo, hi = min(lo, pos(x)), max(hi, pos(x))
			}
			if h.Len() != hi-lo+2 {
				t.Fatalf("pseudo-ad of %v: %d flits, want span %d + EOH", d, h.Len(), hi-lo+1)
			}
		}
	}
}

// Every mask region is exact, b and e agree outside the mask, and the
// default encoder only groups runs whose members have Hamming-1 neighbours.
func TestMaskRunsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		nodes := 1 << (1 + rng.IntN(9))
		d := randomSet(rng, nodes)
		for _, anyRun := range []bool{false, true} {
			rs := maskRuns(d, nodes, anyRun)
			var all []int
			for _, r := range rs {
				mem := r.members(RegionMask)
				if r.b&^r.m != r.e&^r.m || mem[0] != r.b || mem[len(mem)-1] != r.e {
					t.Fatalf("bad mask region %+v", r)
				}
				if !anyRun && len(mem) > 1 {
					for _, x := range mem {
						ok := false
						for _, y := range mem {
							ok = ok || bitsDiffer(x, y) == 1
						}
						if !ok {
							t.Fatalf("member %d of %v has no Hamming-1 neighbour", x, mem)
						}
					}
				}
				all = append(all, mem...)
			}
			if !slices.Equal(all, d) {
				t.Fatalf("mask runs of %v cover %v", d, all)
			}
		}
	}
}

func bitsDiffer(a, b int) int {
	n := 0
	for x := a ^ b; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// countUpTo against brute force.
func TestAgreeCount(t *testing.T) {
	for b := 0; b < 64; b++ {
		for e := b; e < 64; e++ {
			for m := 0; m < 64; m++ {
				want := 0
				for y := b; y <= e; y++ {
					if y&^m == b&^m {
						want++
					}
				}
				if got := agreeCount(b, e, m); got != want {
					t.Fatalf("agreeCount(%d,%d,%b) = %d, want %d", b, e, m, got, want)
				}
			}
		}
	}
}

// The butterfly's tree order is the routing tag read as a number: for
// n = 3, k = 2 the first stage decides d_1, then d_2, then d_0.
func TestTreeOrder(t *testing.T) {
	pos := treeOrder("butterfly", 2, 3)
	got := make([]int, 8)
	for d := range 8 {
		got[pos(d)] = d
	}
	// Position bits t_2 t_1 t_0 = d_1 d_2 d_0.
	if want := []int{0, 1, 4, 5, 2, 3, 6, 7}; !slices.Equal(got, want) {
		t.Errorf("butterfly order %v, want %v", got, want)
	}
	if p := treeOrder("omega", 4, 3); p(37) != 37 {
		t.Errorf("omega order is not the node order")
	}
}
