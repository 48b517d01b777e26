package header

import (
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/network/topology"
	xbar "github.com/flitsim/flitsim/switch"
)

// Options are the parameters of an encoding.
type Options struct {
	Nodes    int // N, a power of K (N = K^n, n ≥ 1)
	FlitBits int // B, 1..64; schemes carrying addresses need B ≥ ⌈log2 N⌉
	K        int // switch radix k / tree arity; 0 means 2

	// MIN is the Delta MIN kind (cube, omega, baseline, butterfly; "" means
	// cube). It fixes the order of bit-string bits (the order in which a
	// switch lists the nodes its ports reach — node order except in the
	// butterfly) and the pseudo-ad padding, which follows that order.
	MIN string

	// EOH selects, for region schemes, the Ch. 2 form that ends with an EOH
	// region (all 1s, all 0s) instead of the Ch. 3 leading region counter.
	EOH bool

	// MaskAnyRun lets mrm group any run of consecutive destinations that one
	// (b:e:m) region describes exactly. Without it (the default) a run of
	// two or more also needs every member to have a member at Hamming
	// distance 1 — the grouping the thesis's text applies to Table 3.1
	// ("the Hamming distance of the last 10 destinations is no longer 1").
	MaskAnyRun bool
}

// MINKinds are the Delta MIN kinds the package handles.
var MINKinds = []string{"cube", "omega", "baseline", "butterfly"}

// check fills defaults and validates o; it returns n (Nodes = K^n).
func (o *Options) check() (n int, err error) {
	if o.K == 0 {
		o.K = 2
	}
	if o.MIN == "" {
		o.MIN = "cube"
	}
	o.MIN = strings.ToLower(strings.TrimSpace(o.MIN))
	if !slices.Contains(MINKinds, o.MIN) {
		return 0, inputerr.New("min", o.MIN, "%s", strings.Join(MINKinds, ", "))
	}
	if o.K < 2 || o.K > xbar.MaxPorts {
		return 0, inputerr.New("k", strconv.Itoa(o.K), "an integer from 2 to %d", xbar.MaxPorts)
	}
	n = stages(o.Nodes, o.K)
	if n < 1 || o.Nodes > topology.MaxTerminals {
		return 0, inputerr.New("nodes", strconv.Itoa(o.Nodes), "a power of the radix k = %d, from %d to %d (N = k^n)", o.K, o.K, topology.MaxTerminals)
	}
	if o.FlitBits < 1 || o.FlitBits > 64 {
		return 0, inputerr.New("flit-bits", strconv.Itoa(o.FlitBits), "an integer from 1 to 64")
	}
	return n, nil
}

// Validate checks the options as Encode does before looking at the
// scheme and destinations (defaults apply), and returns n with Nodes = K^n.
func (o Options) Validate() (n int, err error) { return o.check() }

// stages returns n with nodes = k^n (n ≥ 1), or 0 if there is none.
func stages(nodes, k int) int {
	n, p := 0, 1
	for p < nodes {
		if p > nodes/k {
			return 0
		}
		p *= k
		n++
	}
	if p != nodes {
		return 0
	}
	return n
}

func pow(k, n int) int {
	p := 1
	for range n {
		p *= k
	}
	return p
}

// treeOrder returns the position of each node in the order in which a
// first-stage switch of the MIN lists the nodes it reaches, port by port and
// recursively: the routing tag t_{n−1}…t_0 read as a base-k number. Cube,
// omega and baseline route on d_i at stage i, so the order is the node
// order; the butterfly routes on d_{n−i} at stage i ≥ 1 (Chiang §3.2).
func treeOrder(kind string, k, n int) func(d int) int {
	if kind != "butterfly" {
		return func(d int) int { return d }
	}
	pw := make([]int, n)
	p := 1
	for i := range pw {
		pw[i] = p
		p *= k
	}
	return func(d int) int {
		pos := d % k
		for i := 1; i < n; i++ {
			pos += d / pw[n-i] % k * pw[i]
		}
		return pos
	}
}

// Encode builds the header a source sends to the destination set dests
// (duplicates are ignored; order does not matter). s may be an alias.
func Encode(s Scheme, dests []int, o Options) (*Header, error) {
	s, err := ParseScheme(string(s))
	if err != nil {
		return nil, err
	}
	n, err := o.check()
	if err != nil {
		return nil, err
	}
	d, err := normDests(dests, o.Nodes)
	if err != nil {
		return nil, err
	}
	if a := addrBits(o.Nodes); !s.isBits() && o.FlitBits < a {
		return nil, inputerr.New("flit-bits", strconv.Itoa(o.FlitBits), "at least %d for %d nodes with scheme %s (an address fills one flit)", a, o.Nodes, s)
	}
	h := &Header{Scheme: s, Nodes: o.Nodes, FlitBits: o.FlitBits, K: o.K, MIN: o.MIN, EOH: o.EOH && s.isRegion()}
	var p parsed
	switch s {
	case AllDestination:
		for _, x := range d {
			p.addrs = append(p.addrs, addr{v: x})
		}
	case PseudoAllDestination:
		p.addrs = pseudoAddrs(d, treeOrder(o.MIN, o.K, n))
	case BitStringBuffered:
		p.bits = make([]bool, o.Nodes)
		pos := treeOrder(o.MIN, o.K, n)
		for _, x := range d {
			p.bits[pos(x)] = true
		}
	case BitStringHier:
		p.bits = hierBits(d, o.K, n, treeOrder(o.MIN, o.K, n))
	case RegionBroadcast:
		p.regions = broadcastRuns(d)
	case RegionStride:
		p.regions = strideRuns(d)
	case RegionMask:
		p.regions = maskRuns(d, o.Nodes, o.MaskAnyRun)
	case RegionBitString:
		p.regions = bitStringRuns(d, o.FlitBits)
	}
	if err := h.emit(p); err != nil {
		return nil, err
	}
	return h, nil
}

// normDests sorts and deduplicates dests and checks their range.
func normDests(dests []int, nodes int) ([]int, error) {
	if len(dests) == 0 {
		return nil, inputerr.New("dests", "an empty set", "at least one destination")
	}
	d := slices.Clone(dests)
	slices.Sort(d)
	d = slices.Compact(d)
	if d[0] < 0 || d[len(d)-1] >= nodes {
		x := d[0]
		if x >= 0 {
			x = d[len(d)-1]
		}
		return nil, inputerr.New("dests", "node "+strconv.Itoa(x), "nodes 0 to %d (%d nodes)", nodes-1, nodes)
	}
	return d, nil
}

// pseudoAddrs sorts the destinations in tree order and, between d_i and
// d_{i+1}, repeats d_i w_i = pos(d_{i+1}) − pos(d_i) − 1 times, so that each
// destination sits at header position pos(d) − pos(d_1). Under MIN decoding
// (Fig 3.5) a branch's header starts at its first destination, so every
// branch lags the first by exactly that distance (Chiang §4.3; the OCR's
// w_i = d_{i+1} − d_i contradicts the thesis's own "m − 1 or m flits" for
// an m-node cluster, hence the −1, per the digest §7.3).
func pseudoAddrs(d []int, pos func(int) int) []addr {
	d = slices.Clone(d)
	slices.SortFunc(d, func(a, b int) int { return pos(a) - pos(b) })
	var out []addr
	for i, x := range d {
		out = append(out, addr{v: x})
		if i+1 < len(d) {
			for range pos(d[i+1]) - pos(x) - 1 {
				out = append(out, addr{v: x, pseudo: true})
			}
		}
	}
	return out
}

// hierBits builds the hierarchical bit string: at a switch of stage i, k
// enable bits (port q enabled iff its subtree holds a destination) then k
// fields of L_{i−1} bits, one per port, each the string for the next switch;
// L_0 = k (the last stage's enables are the destinations), L_i = k + k·L_{i−1},
// so the source sends k(N−1)/(k−1) bits. Fields of disabled ports are zeros:
// the fields must be equal-sized for a switch to find their boundaries.
func hierBits(d []int, k, n int, pos func(int) int) []bool {
	N := pow(k, n)
	cnt := make([]int, N+1) // prefix counts of destinations by position
	for _, x := range d {
		cnt[pos(x)+1]++
	}
	for i := 1; i <= N; i++ {
		cnt[i] += cnt[i-1]
	}
	var out []bool
	var rec func(lvl, base int)
	rec = func(lvl, base int) {
		size := pow(k, lvl) // positions per port at this level
		for q := range k {
			lo := base + q*size
			out = append(out, cnt[lo+size] > cnt[lo])
		}
		if lvl > 0 {
			for q := range k {
				rec(lvl-1, base+q*size)
			}
		}
	}
	rec(n-1, 0)
	return out
}

// The region encoders cut the sorted destination list into runs of
// consecutive destinations, one region each, as the thesis's Table 3.1
// encodings do. (The formats also allow interleaved or overlapping regions,
// e.g. (2:58:8; 24:31:1) of Fig 2.3; no encoder here searches those.)

// broadcastRuns makes one region per maximal run of consecutive nodes.
func broadcastRuns(d []int) []region {
	var out []region
	for i := 0; i < len(d); {
		j := i + 1
		for j < len(d) && d[j] == d[j-1]+1 {
			j++
		}
		out = append(out, region{b: d[i], e: d[j-1]})
		i = j
	}
	return out
}

// strideRuns takes, from the first destination not yet covered, the longest
// arithmetic progression of consecutive destinations. Any piece of a
// progression is one, so this greedy choice is a fewest-region partition
// into runs (a shorter first run never leaves a suffix with fewer runs). A
// lone destination gets stride 1.
func strideRuns(d []int) []region {
	var out []region
	for i := 0; i < len(d); {
		s := 1
		j := i + 1
		if j < len(d) {
			s = d[j] - d[i]
			for j++; j < len(d) && d[j]-d[j-1] == s; j++ {
			}
		}
		out = append(out, region{b: d[i], e: d[j-1], s: s})
		i = j
	}
	return out
}

// maskRuns takes, from the first destination not yet covered, the longest
// run that one mask region describes exactly: b = first, e = last, mask m =
// the bits in which the run's members differ from b (the canonical mask of
// Figs 2.13, 3.13 and 3.14), and the nodes of [b,e] agreeing with b outside
// m are exactly the run. Unless anyRun, a run of two or more must also give
// every member a member at Hamming distance 1 (the thesis's grouping rule;
// see Options.MaskAnyRun). Once [b,e] holds a non-destination agreeing with
// b outside m, longer runs keep it (m only grows), so the scan stops there.
func maskRuns(d []int, nodes int, anyRun bool) []region {
	idx := make([]int32, nodes) // index+1 in d, 0 if not a destination
	for i, x := range d {
		idx[x] = int32(i + 1)
	}
	width := addrBits(nodes)
	hasNb := make([]bool, len(d))
	var out []region
	for i := 0; i < len(d); {
		b, m := d[i], 0
		best, bestM := i+1, 0
		lonely := 1 // members without a Hamming-1 neighbour in the run
		hasNb[i] = false
		for j := i + 1; j < len(d); j++ {
			x := d[j]
			m |= x ^ b
			if agreeCount(b, x, m) != j-i+1 {
				break
			}
			hasNb[j] = false
			for bit := range width {
				y := x ^ 1<<bit
				if y < b || y > x || y >= nodes || idx[y] == 0 {
					continue
				}
				hasNb[j] = true
				if yi := int(idx[y]) - 1; !hasNb[yi] {
					hasNb[yi] = true
					lonely--
				}
			}
			if !hasNb[j] {
				lonely++
			}
			if anyRun || lonely == 0 {
				best, bestM = j+1, m
			}
		}
		out = append(out, region{b: b, e: d[best-1], m: bestM})
		i = best
	}
	return out
}

// agreeCount is the number of nodes y in [b,e] with y&^m == b&^m.
func agreeCount(b, e, m int) int {
	c := b &^ m
	return countUpTo(e, m, c) - countUpTo(b-1, m, c)
}

// countUpTo is #{0 ≤ y ≤ x : y&^m == c}, for c with no bits in m: walk x's
// bits from the top, counting the completions below x at each bit where y
// can go lower than x.
func countUpTo(x, m, c int) int {
	if x < 0 {
		return 0
	}
	n := 0
	for bit := max(bits.Len(uint(x)), bits.Len(uint(c))) - 1; bit >= 0; bit-- {
		xb := x >> bit & 1
		below := 1 << bits.OnesCount(uint(m&(1<<bit-1))) // free completions of the lower bits
		if m>>bit&1 == 1 {
			if xb == 1 {
				n += below // y takes 0 here
			}
			continue // y follows x
		}
		switch cb := c >> bit & 1; {
		case cb < xb:
			return n + below
		case cb > xb:
			return n
		}
	}
	return n + 1 // y = x
}

// bitStringRuns starts a new region wherever two consecutive destinations
// are more than two addresses' worth of bits apart (d_{i+1} − d_i > 2B): a
// new region costs two address flits (b, e), a gap costs a bit per node
// (Chiang §3.5: "only the distance between nodes 12 and 32 is larger than 16
// (the length of two addresses)").
func bitStringRuns(d []int, w int) []region {
	var out []region
	for i := 0; i < len(d); {
		j := i + 1
		for j < len(d) && d[j]-d[j-1] <= 2*w {
			j++
		}
		r := region{b: d[i], e: d[j-1], t: make([]bool, d[j-1]-d[i]+1)}
		for _, x := range d[i:j] {
			r.t[x-r.b] = true
		}
		out = append(out, r)
		i = j
	}
	return out
}

// Destinations decodes a source header (as Encode makes it) back into its
// destination set, ascending.
func (h *Header) Destinations() ([]int, error) {
	p, err := h.parse()
	if err != nil {
		return nil, err
	}
	n := stages(h.Nodes, h.K)
	if n < 1 {
		return nil, inputerr.New("nodes", strconv.Itoa(h.Nodes), "a power of k = %d", h.K)
	}
	in := make([]bool, h.Nodes)
	switch h.Scheme {
	case AllDestination, PseudoAllDestination:
		for _, a := range p.addrs {
			in[a.v] = true
		}
	case BitStringBuffered, BitStringHier:
		pos := treeOrder(h.MIN, h.K, n)
		at := make([]int, h.Nodes) // node at each position
		for x := range h.Nodes {
			at[pos(x)] = x
		}
		leaves := p.bits
		if h.Scheme == BitStringHier {
			leaves = hierLeaves(p.bits, h.K, n)
			if leaves == nil {
				return nil, inputerr.New("header", strconv.Itoa(len(p.bits))+" bits", "k(N−1)/(k−1) = %d bits", h.K*(h.Nodes-1)/(h.K-1))
			}
		}
		if len(leaves) != h.Nodes {
			return nil, inputerr.New("header", strconv.Itoa(len(leaves))+" bits", "%d bits (one per node)", h.Nodes)
		}
		for i, x := range leaves {
			if x {
				in[at[i]] = true
			}
		}
	default:
		for _, r := range p.regions {
			for _, x := range r.members(h.Scheme) {
				in[x] = true
			}
		}
	}
	var out []int
	for x, ok := range in {
		if ok {
			out = append(out, x)
		}
	}
	return out, nil
}

// hierLeaves reads the last-stage enable bits of a hierarchical bit string
// in tree order, keeping only enabled subtrees, or nil if the length is
// wrong.
func hierLeaves(s []bool, k, n int) []bool {
	out := make([]bool, 0, pow(k, n))
	var rec func(s []bool, lvl int, on bool) bool
	rec = func(s []bool, lvl int, on bool) bool {
		if lvl == 0 {
			if len(s) != k {
				return false
			}
			for _, x := range s {
				out = append(out, x && on)
			}
			return true
		}
		if (len(s)-k)%k != 0 || len(s) <= k {
			return false
		}
		f := (len(s) - k) / k
		for q := range k {
			if !rec(s[k+q*f:k+(q+1)*f], lvl-1, on && s[q]) {
				return false
			}
		}
		return true
	}
	if !rec(s, n-1, true) {
		return nil
	}
	return out
}
