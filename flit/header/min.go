package header

import (
	"fmt"
	"slices"
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/network/topology"
)

// MIN is a Delta MIN (Chiang §3.2) of n stages of k×k switches, N = k^n
// terminals, built by the simulator's topology package. Stage G_{n−1} is the
// leftmost; a switch is named by its stage i and row (s_{i,row}).
type MIN struct {
	Kind  string
	K, N  int // radix k, stages n
	Nodes int

	topo *topology.Topology
	rows int
}

// NewMIN builds the kind (cube, omega, baseline, butterfly) MIN of k×k
// switches and n stages.
func NewMIN(kind string, k, n int) (*MIN, error) {
	kind = strings.ToLower(strings.TrimSpace(kind))
	if !slices.Contains(MINKinds, kind) {
		return nil, inputerr.New("min", kind, "%s", strings.Join(MINKinds, ", "))
	}
	t, err := topology.Build(topology.Spec{Kind: kind, K: k, N: n})
	if err != nil {
		return nil, err
	}
	return &MIN{Kind: kind, K: k, N: n, Nodes: t.Terminals(), topo: t, rows: t.Terminals() / k}, nil
}

// MINOn decodes on an already built Delta MIN (the simulator's own network,
// so that switch indexes agree); it fails for any other topology.
func MINOn(t *topology.Topology) (*MIN, error) {
	k, n := t.Radix, t.Digits
	if !slices.Contains(MINKinds, t.Kind) || k < 2 || n < 1 || len(t.Switches)*k != n*t.Terminals() {
		return nil, fmt.Errorf("topology %s is not a Delta MIN (%s)", t.Kind, strings.Join(MINKinds, ", "))
	}
	return &MIN{Kind: t.Kind, K: k, N: n, Nodes: t.Terminals(), topo: t, rows: t.Terminals() / k}, nil
}

// Topology is the network the MIN decodes on.
func (m *MIN) Topology() *topology.Topology { return m.topo }

func (m *MIN) index(stage, row int) (int, error) {
	if stage < 0 || stage >= m.N || row < 0 || row >= m.rows {
		return 0, fmt.Errorf("no switch s%d,%d in a %d-stage MIN with %d rows", stage, row, m.N, m.rows)
	}
	return (m.N-1-stage)*m.rows + row, nil
}

func (m *MIN) stageRow(sw int) (stage, row int) { return m.N - 1 - sw/m.rows, sw % m.rows }

// Inject returns the first-stage switch (stage n−1, row) terminal src feeds.
func (m *MIN) Inject(src int) (stage, row int) {
	return m.stageRow(int(m.topo.InSwitch[src]))
}

// Reach lists, for each output port of switch s_{stage,row}, the terminals
// reachable through it, found by following the wiring. Each list is in tree
// order: the next switch's port 0 list, then its port 1 list, and so on —
// the order of bit-string bits. (Paths are unique, so the lists are what
// destination-tag routing delivers through each port.)
func (m *MIN) Reach(stage, row int) ([][]int, error) {
	sw, err := m.index(stage, row)
	if err != nil {
		return nil, err
	}
	out := make([][]int, m.K)
	for p := range out {
		out[p] = m.reach(sw, p, nil)
	}
	return out, nil
}

func (m *MIN) reach(sw, port int, out []int) []int {
	e := m.topo.Switches[sw].Out[port]
	if e.ToTerminal() {
		return append(out, int(e.Terminal))
	}
	for q := range m.K {
		out = m.reach(int(e.Switch), q, out)
	}
	return out
}

// to names where output port p of switch sw leads.
func (m *MIN) to(sw, p int) string {
	e := m.topo.Switches[sw].Out[p]
	if e.ToTerminal() {
		return fmt.Sprintf("node %d", e.Terminal)
	}
	return m.topo.Switches[e.Switch].Label
}

// sameOrder reports whether two MIN kinds list nodes in the same tree order.
func sameOrder(a, b string) bool { return (a == "butterfly") == (b == "butterfly") }

// Decode is the routing decision of switch s_{stage,row} for an incoming
// header: the enabled output ports (ascending) and the header sent through
// each, following Chiang §3.4:
//
//   - ad, pseudo-ad (Fig 3.5): an address enables the port that reaches it,
//     then goes to every enabled port (useful to its own, a "useless"
//     bubble to the others); unreachable addresses go to the enabled ports
//     too. So a port's header is the input's suffix from the address that
//     enabled it.
//   - bs-buffered (Fig 3.7): the k^{i+1}-bit string of stage G_i is cut into
//     k strings of k^i bits; port ℓ is enabled if its string has a 1.
//   - bs-hierarchical: k enable bits, then k equal fields, field ℓ to port ℓ.
//   - region schemes (Figs 3.10, 3.15): each region is split into one piece
//     per port that reaches some of its members (the piece from the first to
//     the last such member; nodes in it that the port does not reach are
//     ignored downstream, as paths are unique). With the region counter, a
//     newly enabled port gets the number of regions still to come, including
//     the current one; an enabled port that gets no piece of a region gets
//     the region unchanged, as a useless region, so that its counter stays
//     right (the all-destination rule applied to regions — the digest's
//     reading of "save counter, decrement per region"). In EOH form a port
//     gets only its pieces and then the EOH.
func (m *MIN) Decode(stage, row int, h *Header) ([]PortHeader, error) {
	sw, err := m.index(stage, row)
	if err != nil {
		return nil, err
	}
	out, err := m.decode(sw, h)
	if err != nil {
		return nil, fmt.Errorf("switch %s: %w", m.topo.Switches[sw].Label, err)
	}
	return out, nil
}

func (m *MIN) decode(sw int, h *Header) ([]PortHeader, error) {
	if h.Nodes != m.Nodes {
		return nil, fmt.Errorf("header is for %d nodes, the MIN has %d", h.Nodes, m.Nodes)
	}
	if (h.Scheme.isBits() || h.Scheme == PseudoAllDestination) && (h.K != m.K || !sameOrder(h.MIN, m.Kind)) {
		return nil, fmt.Errorf("%s header was encoded for a k = %d %s MIN, this is a k = %d %s MIN", h.Scheme, h.K, h.MIN, m.K, m.Kind)
	}
	p, err := h.parse()
	if err != nil {
		return nil, err
	}
	stage, _ := m.stageRow(sw)
	// The nodes each port reaches (k^stage each), and the reverse map; the
	// cost is proportional to what the switch reaches, not to N.
	var reach [][]int
	port := map[int]int{}
	if !h.Scheme.isBits() {
		reach = make([][]int, m.K)
		for j := range m.K {
			reach[j] = m.reach(sw, j, nil)
			for _, x := range reach[j] {
				port[x] = j
			}
		}
	}
	outs := newOutputs(h, m.K)
	switch {
	case h.Scheme.isAddress():
		for i, a := range p.addrs {
			if j, ok := port[a.v]; ok {
				outs.enable(j, i)
			}
			for j, on := range outs.on {
				if on {
					outs.p[j].addrs = append(outs.p[j].addrs, a)
				}
			}
		}
	case h.Scheme == BitStringBuffered:
		err = m.splitBuffered(h, stage, p.bits, outs)
	case h.Scheme == BitStringHier:
		if want := m.K * (pow(m.K, stage+1) - 1) / (m.K - 1); len(p.bits) != want {
			return nil, fmt.Errorf("bs-hierarchical at stage %d: %d bits, want %d", stage, len(p.bits), want)
		}
		err = splitHier(p.bits, m.K, h.FlitBits, outs)
	default:
		err = m.splitRegions(h, p.regions, reach, outs)
	}
	if err != nil {
		return nil, err
	}
	res, err := outs.result()
	if err != nil {
		return nil, err
	}
	for i := range res {
		res[i].To = m.to(sw, res[i].Port)
	}
	return res, nil
}

// splitBuffered gives each port its k^stage bits of a bs-buffered string.
func (m *MIN) splitBuffered(h *Header, stage int, bits []bool, outs *outputs) error {
	size := pow(m.K, stage) // nodes per port
	if len(bits) != m.K*size {
		return fmt.Errorf("bs-buffered at stage %d: %d bits, want k^(i+1) = %d", stage, len(bits), m.K*size)
	}
	for j := range m.K {
		d := bits[j*size : (j+1)*size]
		if slices.Contains(d, true) {
			outs.enable(j, h.Len()-1)
			outs.p[j].bits = slices.Clone(d)
		}
	}
	return nil
}

// splitRegions cuts each region into the pieces each port reaches; in the
// counter form, an enabled port also gets the regions it does not reach
// (useless regions), so its counter counts them.
func (m *MIN) splitRegions(h *Header, regions []region, reach [][]int, outs *outputs) error {
	at := regionEnds(h, regions)
	for ri, reg := range regions {
		got := make([]bool, m.K)
		for j := range m.K {
			var S []int
			for _, x := range reach[j] {
				if reg.has(h.Scheme, x) {
					S = append(S, x)
				}
			}
			if len(S) == 0 {
				continue
			}
			if outs.enable(j, at[ri]) {
				outs.counter[j] = len(regions) - ri
			}
			outs.p[j].regions = append(outs.p[j].regions, piece(h.Scheme, reg, S))
			got[j] = true
		}
		if !h.EOH {
			for j, on := range outs.on {
				if on && !got[j] {
					outs.p[j].regions = append(outs.p[j].regions, reg) // useless region
				}
			}
		}
	}
	if !h.EOH {
		for j, on := range outs.on {
			if on && len(outs.p[j].regions) != outs.counter[j] {
				return fmt.Errorf("port %d: %d regions, counter %d", j, len(outs.p[j].regions), outs.counter[j])
			}
		}
	}
	return nil
}

// Visit is one switch a multicast header passes: the header it receives and
// what it sends through each enabled port.
type Visit struct {
	Stage int          `json:"stage"`
	Row   int          `json:"row"`
	Label string       `json:"label"`
	Sw    int          `json:"-"` // switch index in the topology
	Port  int          `json:"-"` // input port the header entered on
	In    *Header      `json:"in"`
	Out   []PortHeader `json:"out"`
}

// Tree is a header decoded through the whole MIN.
type Tree struct {
	Delivered []int   `json:"delivered"` // terminals reached, ascending
	Visits    []Visit `json:"visits"`    // stage by stage, leftmost first
}

// Multicast decodes header h from source terminal src: at the switch src
// feeds, then at every switch an enabled port leads to, stage by stage, until
// the terminals. A Delta MIN's multicast tree is unique, so each switch is
// visited at most once.
func (m *MIN) Multicast(src int, h *Header) (*Tree, error) {
	if src < 0 || src >= m.Nodes {
		return nil, fmt.Errorf("source %d outside 0..%d", src, m.Nodes-1)
	}
	type item struct {
		sw, in int
		h      *Header
	}
	level := []item{{int(m.topo.InSwitch[src]), int(m.topo.InPort[src]), h}}
	tr := &Tree{}
	for len(level) > 0 {
		var next []item
		for _, it := range level {
			out, err := m.decode(it.sw, it.h)
			if err != nil {
				return nil, fmt.Errorf("switch %s: %w", m.topo.Switches[it.sw].Label, err)
			}
			st, row := m.stageRow(it.sw)
			tr.Visits = append(tr.Visits, Visit{Stage: st, Row: row, Label: m.topo.Switches[it.sw].Label, Sw: it.sw, Port: it.in, In: it.h, Out: out})
			for _, o := range out {
				e := m.topo.Switches[it.sw].Out[o.Port]
				if e.ToTerminal() {
					tr.Delivered = append(tr.Delivered, int(e.Terminal))
				} else {
					next = append(next, item{int(e.Switch), int(e.Port), o.Header})
				}
			}
		}
		slices.SortFunc(next, func(a, b item) int { return a.sw - b.sw })
		level = next
	}
	slices.Sort(tr.Delivered)
	return tr, nil
}
