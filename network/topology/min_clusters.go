package topology

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/flit"
	xbar "github.com/flitsim/flitsim/switch"
)

// Cluster partitions of a MIN (Chiang ch. 5): a cluster is the set of
// terminals matching a mask over their binary address ("x0xx": x = any bit,
// most significant first); the channels its intra-cluster traffic uses at
// each connection C_{h−1} … C_0 (C_i: the links leaving stage G_i, named by
// G_i's output address) are read off the routes the routing function
// takes for every ordered pair of distinct members.

// ClusterFlag is the flag the masks come from, named in bad-input errors.
const ClusterFlag = "--clusters"

// Cluster is one mask: the terminals t with t&Fixed == Value.
type Cluster struct {
	Mask         string
	Fixed, Value uint64
}

// Members lists the cluster's terminals in ascending order.
func (c Cluster) Members(n int) []int {
	var m []int
	for t := range n {
		if uint64(t)&c.Fixed == c.Value {
			m = append(m, t)
		}
	}
	return m
}

// ParseClusters reads masks, each as wide as the addresses of n terminals
// (n a power of two), and checks that no two share a terminal.
func ParseClusters(masks []string, n int) ([]Cluster, error) {
	joined := strings.Join(masks, ",")
	if n < 2 || n&(n-1) != 0 {
		return nil, inputerr.New(ClusterFlag, joined, "masks over binary addresses: the network's %d terminals are not a power of two", n)
	}
	width := bits.TrailingZeros(uint(n))
	if len(masks) == 0 {
		return nil, inputerr.New(ClusterFlag, `""`, "one or more masks of %d characters 0, 1 or x, comma-separated, e.g. %s", width, strings.Repeat("x", width))
	}
	var cs []Cluster
	for _, m := range masks {
		c := Cluster{Mask: m}
		if len([]rune(m)) != width {
			return nil, inputerr.New(ClusterFlag, m, "a mask of %d characters (0, 1 or x; %d terminals have %d-bit addresses)", width, n, width)
		}
		for i, r := range m {
			bit := uint64(1) << (width - 1 - i)
			switch r {
			case '0', '1':
				c.Fixed |= bit
				if r == '1' {
					c.Value |= bit
				}
			case 'x', 'X':
			default:
				return nil, inputerr.New(ClusterFlag, m, "a mask of the characters 0, 1 and x (any bit); %q is none of them", r)
			}
		}
		for _, o := range cs {
			if common := c.Fixed & o.Fixed; c.Value&common == o.Value&common {
				t := c.Value | o.Value // (a terminal in both)
				return nil, inputerr.New(ClusterFlag, joined, "disjoint clusters: %s and %s both hold terminal %d", o.Mask, m, t)
			}
		}
		cs = append(cs, c)
	}
	return cs, nil
}

// Staged is a MIN's stage layout: h stages of rows k×k switches each,
// stage G_{h−1} (the leftmost) first in Topology.Switches, each stage's
// switches in row order, terminals injecting into G_{h−1} and ejected by
// G_0 (the layout of the Delta MINs and the ESMIN).
type Staged struct {
	K, Rows, Stages int
}

// StagedLayout reports t's stage layout, or false when t is not a MIN
// laid out in stages.
func StagedLayout(t *Topology) (Staged, bool) {
	n := t.Terminals()
	if len(t.Switches) == 0 || n == 0 {
		return Staged{}, false
	}
	k := len(t.Switches[0].Out)
	if k < 2 || n%k != 0 || len(t.Switches)%(n/k) != 0 {
		return Staged{}, false
	}
	l := Staged{K: k, Rows: n / k, Stages: len(t.Switches) / (n / k)}
	for sw, s := range t.Switches {
		if len(s.Out) != k {
			return Staged{}, false
		}
		b := sw / l.Rows
		for _, e := range s.Out {
			last := b == l.Stages-1
			if last != e.ToTerminal() || !last && int(e.Switch)/l.Rows != b+1 {
				return Staged{}, false
			}
		}
	}
	for _, s := range t.InSwitch {
		if int(s) >= l.Rows {
			return Staged{}, false
		}
	}
	return l, true
}

// ChannelName names output address a of stage G_i as the simulator's
// channel reports do ("s1,0.out[1]").
func (l Staged) ChannelName(t *Topology, i, a int) string {
	sw := (l.Stages-1-i)*l.Rows + a/l.K
	return fmt.Sprintf("%s.out[%d]", t.Switches[sw].Label, a%l.K)
}

// ClusterUse is the channels one cluster's traffic uses: Used[j] lists
// the output addresses of stage G_{h−1−j} (connection C_{h−1−j}) on some
// route between two distinct members, ascending.
type ClusterUse struct {
	Cluster Cluster
	Members []int
	Used    [][]int
}

// Counts is the number of channels used at each connection C_{h−1} … C_0.
func (u ClusterUse) Counts() []int {
	c := make([]int, len(u.Used))
	for j, a := range u.Used {
		c[j] = len(a)
	}
	return c
}

// route appends the output address w takes at each stage, G_{h−1} first:
// Trace's walk (the kernel's routing calls) without its bookkeeping, as a
// staged network cannot loop. It fails where Trace would, or if the route
// leaves the stages' order.
func (l Staged) route(t *Topology, w *flit.Worm, out []int) ([]int, error) {
	sw, in := int(t.InSwitch[w.Src]), int(t.InPort[w.Src])
	sr, stateful := t.Router.(StatefulRouter)
	st := w.Route
	for j := range l.Stages {
		if sw/l.Rows != j {
			return out, fmt.Errorf("route %d→%d: hop %d at %s is not in stage G_%d", w.Src, w.Dst, j, t.Switches[sw].Label, l.Stages-1-j)
		}
		var ps xbar.PortSet
		if stateful {
			ps = sr.RouteHead(sw, in, w, &st)
		} else {
			ps = t.Router.Route(sw, in, w)
		}
		if ps.Count() != 1 || ps.First() >= l.K {
			return out, fmt.Errorf("route %d→%d: switch %s routes to ports %b", w.Src, w.Dst, t.Switches[sw].Label, uint64(ps))
		}
		p := ps.First()
		out = append(out, sw%l.Rows*l.K+p)
		e := t.Switches[sw].Out[p]
		if e.ToTerminal() {
			if e.Terminal != w.Dst {
				return out, fmt.Errorf("route %d→%d: ejected at terminal %d", w.Src, w.Dst, e.Terminal)
			}
			return out, nil
		}
		sw, in = int(e.Switch), int(e.Port)
	}
	return out, fmt.Errorf("route %d→%d: not delivered after %d stages", w.Src, w.Dst, l.Stages)
}

// ClusterChannels traces, for each cluster, every route between two of
// its members (Router.Init per packet with rng first: an ESMIN's random
// paths) and collects the channels used per connection. It fails if a
// route does not cross one stage per hop (an internal error).
func ClusterChannels(t *Topology, l Staged, cs []Cluster, rng *rand.Rand) ([]ClusterUse, error) {
	if rng == nil {
		rng = rand.New(rand.NewPCG(1, 2))
	}
	out := make([]ClusterUse, len(cs))
	seen := make([]bool, l.Stages*l.Rows*l.K)
	var w flit.Worm
	route := make([]int, 0, l.Stages)
	for ci, c := range cs {
		u := ClusterUse{Cluster: c, Members: c.Members(t.Terminals()), Used: make([][]int, l.Stages)}
		clear(seen)
		for _, s := range u.Members {
			for _, d := range u.Members {
				if s == d {
					continue
				}
				w.Src, w.Dst, w.Aux, w.Route = int32(s), int32(d), 0, flit.RouteState{}
				t.Router.Init(&w, rng)
				var err error
				if route, err = l.route(t, &w, route[:0]); err != nil {
					return nil, err
				}
				for j, a := range route {
					if x := j*l.Rows*l.K + a; !seen[x] {
						seen[x] = true
						u.Used[j] = append(u.Used[j], a)
					}
				}
			}
		}
		for _, a := range u.Used {
			slices.Sort(a)
		}
		out[ci] = u
	}
	return out, nil
}

// SharedChannels is the channels two clusters (indices A < B) both use at
// connection C_{h−1−J}: output addresses of that stage, ascending.
type SharedChannels struct {
	A, B, J  int
	Channels []int
}

// Shared lists, for every two clusters and connection, the channels both
// use (only the non-empty ones, clusters then connections in order).
func Shared(us []ClusterUse) []SharedChannels {
	var out []SharedChannels
	for a := range us {
		for b := a + 1; b < len(us); b++ {
			for j := range us[a].Used {
				var both []int
				for _, x := range us[a].Used[j] {
					if _, ok := slices.BinarySearch(us[b].Used[j], x); ok {
						both = append(both, x)
					}
				}
				if len(both) > 0 {
					out = append(out, SharedChannels{A: a, B: b, J: j, Channels: both})
				}
			}
		}
	}
	return out
}

// Partition is the channel use of a cluster partition of a MIN: each
// cluster's channels and the channels two clusters share.
type Partition struct {
	Layout Staged
	Uses   []ClusterUse
	Shared []SharedChannels
}

// PartitionChannels checks that t is a MIN and masks a partition of its
// terminals (bad input: an *inputerr.Error naming topology.kind or
// ClusterFlag), then traces every cluster's routes (ClusterChannels).
func PartitionChannels(t *Topology, masks []string, rng *rand.Rand) (*Partition, error) {
	l, ok := StagedLayout(t)
	if !ok {
		return nil, inputerr.New("topology.kind", t.Kind, "a multistage network for %s: %s", ClusterFlag, strings.Join(StagedKinds(), ", "))
	}
	cs, err := ParseClusters(masks, t.Terminals())
	if err != nil {
		return nil, err
	}
	us, err := ClusterChannels(t, l, cs, rng)
	if err != nil {
		return nil, err
	}
	return &Partition{Layout: l, Uses: us, Shared: Shared(us)}, nil
}

// StagedKinds lists the kinds whose networks, built with their defaults,
// are laid out in stages (the MINs).
func StagedKinds() []string {
	var out []string
	for _, k := range Kinds() {
		s, err := k.Defaults()
		if err != nil {
			continue
		}
		if t, err := Build(s); err == nil {
			if _, ok := StagedLayout(t); ok {
				out = append(out, k.Name)
			}
		}
	}
	return out
}
