package header

import (
	"fmt"
	"slices"
)

// PortHeader is what a router or switch sends through one enabled output
// port: the rewritten header, and the index of the input flit on which the
// port was enabled (for a buffered bit string, the last flit: the whole
// string is buffered before any decision; for a region, the region's last
// flit: a region is buffered whole, Chiang §2.2.3).
type PortHeader struct {
	Port      int     `json:"port"`
	EnabledAt int     `json:"enabled_at"`
	To        string  `json:"to,omitempty"` // where the port leads (MIN decoding): "s1,0" or "node 5"
	Header    *Header `json:"header"`
}

// Router is a generic k-port router (Chiang Ch. 2): Reach[j] lists the nodes
// reachable through output port j (k = len(Reach)). A node listed under
// several ports goes through the lowest of them — the thesis's router
// "selects exactly one port" so that no node receives twice when alternate
// paths exist — which makes the per-port destination subsets disjoint.
// Nodes no port reaches are dropped. A buffered bit string is read over the
// router's domain, the ascending union of the Reach lists; the string for
// port j covers Reach[j] in the order given.
type Router struct {
	Reach [][]int
}

// Decode splits an incoming header into one header per enabled port
// (ascending port order), following Figs 2.5, 2.7, 2.10 and 2.14:
//
//   - ad, pseudo-ad: each address goes to its own port only; the EOH to
//     every enabled port. (Between a port's addresses it idles: a wormhole
//     bubble, a gap in time, not a flit.)
//   - bs-buffered: port j gets the bits of Reach[j]; enabled if any is 1.
//   - bs-hierarchical: the first k bits enable ports, the rest is k equal
//     fields, field j to port j if enabled, otherwise dropped.
//   - mrb, mrs, mrm: each region is cut into runs of consecutive members
//     that go through the same port, one sub-region per run (a port may get
//     several from one region); the mask of a piece is recomputed so that
//     it holds exactly the piece (Fig 2.13).
//   - mrbs: each port gets one sub-region spanning its first to last member,
//     with the bits of nodes it does not route zeroed (Fig 2.14).
//
// A counter-form region header gets a counter per port (the number of
// regions that port receives), which a router can only write once it has
// seen the whole header — why Ch. 2 uses the EOH form.
func (r Router) Decode(h *Header) ([]PortHeader, error) {
	k := len(r.Reach)
	if k < 1 {
		return nil, fmt.Errorf("router has no ports")
	}
	p, err := h.parse()
	if err != nil {
		return nil, err
	}
	port, err := r.portOf(h.Nodes)
	if err != nil {
		return nil, err
	}
	outs := newOutputs(h, k)
	switch {
	case h.Scheme.isAddress():
		for i, a := range p.addrs {
			if j := port[a.v]; j >= 0 {
				outs.enable(j, i)
				outs.p[j].addrs = append(outs.p[j].addrs, a)
			}
		}
	case h.Scheme == BitStringBuffered:
		if err := r.splitBuffered(h, p.bits, port, outs); err != nil {
			return nil, err
		}
	case h.Scheme == BitStringHier:
		if err := splitHier(p.bits, k, h.FlitBits, outs); err != nil {
			return nil, err
		}
	default:
		at := regionEnds(h, p.regions)
		for ri, reg := range p.regions {
			if h.Scheme == RegionBitString {
				splitSpan(h.Scheme, reg, at[ri], port, outs)
			} else {
				splitRuns(h.Scheme, reg, at[ri], port, outs)
			}
		}
	}
	return outs.result()
}

// portOf maps each node to the lowest port that reaches it, or −1.
func (r Router) portOf(nodes int) ([]int, error) {
	port := make([]int, nodes)
	for i := range port {
		port[i] = -1
	}
	for j := len(r.Reach) - 1; j >= 0; j-- {
		for _, x := range r.Reach[j] {
			if x < 0 || x >= nodes {
				return nil, fmt.Errorf("router port %d reaches node %d, outside 0..%d", j, x, nodes-1)
			}
			port[x] = j
		}
	}
	return port, nil
}

// splitBuffered gives port j the bits of Reach[j] (bs-buffered), enabled on
// the header's last flit if any is 1.
func (r Router) splitBuffered(h *Header, bits []bool, port []int, outs *outputs) error {
	var domain []int
	for x, j := range port {
		if j >= 0 {
			domain = append(domain, x)
		}
	}
	if len(bits) != len(domain) {
		return fmt.Errorf("bs-buffered: %d bits, the router's domain has %d nodes", len(bits), len(domain))
	}
	dest := make([]bool, h.Nodes)
	for i, x := range domain {
		dest[x] = bits[i]
	}
	for j, reach := range r.Reach {
		mine := make([]bool, len(reach))
		hit := false
		for i, x := range reach {
			mine[i] = dest[x] && port[x] == j
			hit = hit || mine[i]
		}
		if hit {
			outs.enable(j, h.Len()-1)
			outs.p[j].bits = mine
		}
	}
	return nil
}

// splitSpan (mrbs) gives each port one sub-region from its first to its
// last member of reg, the other ports' bits zeroed.
func splitSpan(s Scheme, reg region, at int, port []int, outs *outputs) {
	first := map[int]int{}
	var order []int
	for _, x := range reg.members(s) {
		if j := port[x]; j >= 0 {
			if _, ok := first[j]; !ok {
				first[j] = x
				order = append(order, j)
			}
		}
	}
	for _, j := range order {
		var mine []int
		for _, x := range reg.members(s) {
			if port[x] == j {
				mine = append(mine, x)
			}
		}
		sub := region{b: mine[0], e: mine[len(mine)-1]}
		sub.t = make([]bool, sub.e-sub.b+1)
		for _, x := range mine {
			sub.t[x-sub.b] = true
		}
		outs.enable(j, at)
		outs.p[j].regions = append(outs.p[j].regions, sub)
	}
}

// splitRuns (mrb, mrs, mrm) cuts reg into runs of consecutive members that
// go through the same port, one sub-region per run.
func splitRuns(s Scheme, reg region, at int, port []int, outs *outputs) {
	var run []int
	flush := func() {
		if len(run) > 0 {
			j := port[run[0]]
			outs.enable(j, at)
			outs.p[j].regions = append(outs.p[j].regions, piece(s, reg, run))
			run = nil
		}
	}
	for _, x := range reg.members(s) {
		j := port[x]
		if len(run) > 0 && port[run[0]] != j {
			flush()
		}
		if j >= 0 {
			run = append(run, x)
		}
	}
	flush()
}

// piece is the region describing the members S (ascending, nonempty) of
// region r. It holds every node of r in [min S, max S] (for a run of
// consecutive members, exactly S): stride and bit string keep r's stride and
// bits, a mask becomes the bits in which S's members differ from min S.
func piece(s Scheme, r region, S []int) region {
	lo, hi := slices.Min(S), slices.Max(S)
	p := region{b: lo, e: hi, s: r.s}
	switch s {
	case RegionMask:
		for _, x := range S {
			p.m |= x ^ lo
		}
	case RegionBitString:
		p.t = slices.Clone(r.t[lo-r.b : hi-r.b+1])
	}
	return p
}

// regionEnds gives the index of each region's last flit in h.
func regionEnds(h *Header, rs []region) []int {
	at := make([]int, len(rs))
	i := -1
	if !h.EOH {
		i = 0 // the counter
	}
	for ri, r := range rs {
		i += h.Scheme.regionFields()
		if h.Scheme == RegionBitString {
			i += (r.e - r.b + h.FlitBits) / h.FlitBits
		}
		at[ri] = i
	}
	return at
}

// splitHier decodes one level of a hierarchical bit string: k enable bits,
// then k equal fields.
func splitHier(bits []bool, k, w int, outs *outputs) error {
	if len(bits) < k || (len(bits)-k)%k != 0 {
		return fmt.Errorf("bs-hierarchical: %d bits is not k + k·L for k = %d", len(bits), k)
	}
	f := (len(bits) - k) / k
	for j := range k {
		if bits[j] {
			outs.enable(j, j/w)
			outs.p[j].bits = slices.Clone(bits[k+j*f : k+(j+1)*f])
		}
	}
	return nil
}

// outputs collects the per-port pieces while a header is decoded.
type outputs struct {
	h       *Header
	on      []bool
	at      []int
	p       []parsed
	counter []int // counter form: regions still to come when the port was enabled (MIN decoding)
}

func newOutputs(h *Header, k int) *outputs {
	return &outputs{h: h, on: make([]bool, k), at: make([]int, k), p: make([]parsed, k), counter: make([]int, k)}
}

// enable turns port j on at input flit i; it reports whether the port was
// newly enabled.
func (o *outputs) enable(j, i int) bool {
	if o.on[j] {
		return false
	}
	o.on[j], o.at[j] = true, i
	return true
}

func (o *outputs) result() ([]PortHeader, error) {
	var out []PortHeader
	for j, on := range o.on {
		if !on {
			continue
		}
		h := o.h.clone()
		if err := h.emit(o.p[j]); err != nil {
			return nil, err
		}
		out = append(out, PortHeader{Port: j, EnabledAt: o.at[j], Header: h})
	}
	return out, nil
}
