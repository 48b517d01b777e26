package topology

import (
	"fmt"
	"math/rand/v2"

	"github.com/flitsim/flitsim/flit"
	xbar "github.com/flitsim/flitsim/switch"
)

// Delta MINs (Chiang §3.2): C_n G_{n−1} C_{n−1} … C_1 G_0 C_0 with k×k
// switches and N = k^n terminals. Stage G_{n−1} is leftmost; its switches
// come first in Topology.Switches: switch index = (n−1−i)·(N/k) + row for
// stage i. A port address x has row ⌊x/k⌋ and port x mod k; output port j of
// row r has address r·k + j, which C_i maps to the next stage's input
// address (C_0 = I maps G_0's output address to the terminal).

func init() {
	for _, k := range []struct {
		name, desc string
		w          minWiring
	}{
		{"omega", "Lawrie's omega MIN: n stages of k×k switches, k^n terminals, shuffle connections (aliases dest-tag, tag)",
			minWiring{in: digits.sigma, conn: func(g digits, _, a int) int { return g.sigma(a) }}},
		{"baseline", "Wu & Feng baseline MIN: n stages of k×k switches, k^n terminals",
			minWiring{in: digits.sigma, conn: baselineConn}},
		{"butterfly", "butterfly MIN: n stages of k×k switches, k^n terminals, β_i connections",
			minWiring{in: func(_ digits, x int) int { return x }, conn: butterflyConn, butterflyTags: true}},
		{"cube", "multistage cube (Siegel): n stages of k×k switches, k^n terminals",
			minWiring{in: digits.sigma, conn: func(g digits, i, a int) int { return g.beta(a, i) }}},
	} {
		registerMIN(k.name, k.desc, k.w)
	}
}

// minWiring is a Delta MIN kind's connections (Chiang §3.2, §5.5): in is
// C_n (terminal → G_{n−1}), conn(i, a) is C_i for 1 ≤ i ≤ n−1, C_0 = I for
// all; butterflyTags: the tag at G_i (i ≥ 1) is digit n−i of the
// destination rather than digit i.
type minWiring struct {
	in            func(g digits, x int) int
	conn          func(g digits, i, a int) int
	butterflyTags bool
}

// minWirings holds each registered Delta MIN kind's wiring (registerMIN).
var minWirings = map[string]minWiring{}

func baselineConn(g digits, i, a int) int  { return g.delta(a, i) }
func butterflyConn(g digits, i, a int) int { return g.beta(a, g.n-i) } // C_{n−i} = β_i

// registerMIN registers a Delta MIN kind: parameters k and n,
// destination-tag routing, wired by w.
func registerMIN(name, desc string, w minWiring) {
	minWirings[name] = w
	Register(KindSpec{
		Name: name, Desc: desc,
		Params: []Param{
			{Key: "k", Default: "2", Allowed: fmt.Sprintf("an integer from 2 to %d", xbar.MaxPorts),
				Desc: "switch size k×k", Check: checkMINK},
			{Key: "n", Default: "3", Allowed: fmt.Sprintf("an integer from 1 up to k^n ≤ %d terminals", MaxTerminals),
				Desc: "stages", Check: checkMINN},
		},
		Routings: []Routing{destinationTag(newTagRouter)},
		Build:    buildMIN,
		Size:     sizeMIN,
	})
}

// destinationTag is the routing of the MINs: the destination's address
// digits (bits in an ESMIN) select the output port stage by stage.
func destinationTag(newRouter func(*Topology, Spec) (Router, error)) Routing {
	return Routing{Name: "destination-tag", Aliases: []string{"dest-tag", "tag"}, New: newRouter,
		Desc: "the destination's address digits select the output port at each stage"}
}

func checkMINK(s Spec) string {
	if s.K < 2 || s.K > xbar.MaxPorts {
		return fmt.Sprintf("an integer from 2 to %d (switch radix k ≤ %d)", xbar.MaxPorts, xbar.MaxPorts)
	}
	return ""
}

func checkMINN(s Spec) string {
	maxN := 0
	for p := 1; p*s.K <= MaxTerminals; p *= s.K {
		maxN++
	}
	if s.N < 1 || s.N > maxN {
		return fmt.Sprintf("an integer from 1 to %d for k = %d (k^n ≤ %d terminals)", maxN, s.K, MaxTerminals)
	}
	return ""
}

// digits does base-k digit arithmetic on n-digit addresses.
type digits struct {
	k, n int
	pow  []int // pow[i] = k^i, i = 0..n
}

func newDigits(k, n int) digits {
	p := make([]int, n+1)
	p[0] = 1
	for i := 1; i <= n; i++ {
		p[i] = p[i-1] * k
	}
	return digits{k, n, p}
}

func (g digits) digit(x, i int) int { return x / g.pow[i] % g.k }

// sigma is the perfect k-shuffle: cyclic left rotation of the digits.
func (g digits) sigma(x int) int { return x*g.k%g.pow[g.n] + x/g.pow[g.n-1] }

// beta swaps digit 0 and digit i.
func (g digits) beta(x, i int) int {
	if i == 0 {
		return x
	}
	d0, di := x%g.k, g.digit(x, i)
	return x - d0 - di*g.pow[i] + di + d0*g.pow[i]
}

// delta is the i-th baseline permutation: cyclic right rotation of the low
// i+1 digits.
func (g digits) delta(x, i int) int {
	m := g.pow[i+1]
	low := x % m
	return x - low + low/g.k + low%g.k*g.pow[i]
}

// buildMIN wires the Delta MIN s.Kind.
func buildMIN(s Spec) (*Topology, error) {
	k, n := s.K, s.N
	g := newDigits(k, n)
	N := g.pow[n]
	rows := N / k

	w := minWirings[norm(s.Kind)]
	cin := func(x int) int { return w.in(g, x) }
	conn := func(i, a int) int { return w.conn(g, i, a) }

	t := &Topology{
		Switches: newSwitches(n*rows, k),
		InSwitch: make([]int32, N),
		InPort:   make([]int32, N),
		Radix:    k,
		Digits:   n,
	}
	for i := n - 1; i >= 0; i-- {
		base := (n - 1 - i) * rows
		for r := 0; r < rows; r++ {
			sw := &t.Switches[base+r]
			sw.Label = fmt.Sprintf("s%d,%d", i, r)
			for j := 0; j < k; j++ {
				a := r*k + j
				if i == 0 {
					sw.Out[j] = End{Switch: -1, Terminal: int32(a)}
					continue
				}
				x := conn(i, a)
				sw.Out[j] = End{Switch: int32((n-i)*rows + x/k), Port: int32(x % k), Terminal: -1}
			}
		}
	}
	for src := 0; src < N; src++ {
		x := cin(src)
		t.InSwitch[src] = int32(x / k)
		t.InPort[src] = int32(x % k)
	}
	return t, nil
}

// newTagRouter builds destination-tag routing for the Delta MIN t.
func newTagRouter(t *Topology, s Spec) (Router, error) {
	k, n := s.K, s.N
	g := newDigits(k, n)
	N, rows := g.pow[n], g.pow[n]/k
	tag := make([]int, n) // tag[i] = destination digit selecting the output port at G_i
	for i := range tag {
		tag[i] = i
		if minWirings[t.Kind].butterflyTags && i > 0 {
			tag[i] = n - i
		}
	}
	div := make([]int, n)
	for i := range div {
		div[i] = g.pow[tag[i]]
	}
	// Stages and tag digits are tabulated: Route runs per head flit, and
	// integer division would dominate its cost.
	r := &tagRouter{n: n, stage: make([]uint8, len(t.Switches)), tag: make([]uint8, N*n)}
	for sw := range t.Switches {
		r.stage[sw] = uint8(n - 1 - sw/rows)
	}
	for d := 0; d < N; d++ {
		for i := 0; i < n; i++ {
			r.tag[d*n+i] = uint8(d / div[i] % k)
		}
	}
	return r, nil
}

// tagRouter is destination-tag routing in a Delta MIN: at stage G_i the
// output port is the destination digit tag(i).
type tagRouter struct {
	n     int
	stage []uint8 // stage index i of each switch (G_i)
	tag   []uint8 // tag[d*n+i]: output port at stage G_i toward terminal d
}

func (r *tagRouter) Name() string { return "destination-tag" }

func (r *tagRouter) Init(*flit.Worm, *rand.Rand) {}

func (r *tagRouter) Route(sw, in int, w *flit.Worm) xbar.PortSet {
	return xbar.Port(int(r.tag[int(w.Dst)*r.n+int(r.stage[sw])]))
}

// sizeMIN is a delta MIN's size: n stages of k^(n−1) k×k switches.
func sizeMIN(s Spec) Size {
	n := int64(ipow(s.K, s.N))
	rows := n / int64(s.K)
	return Size{Switches: int64(s.N) * rows, Ports: int64(s.N) * n, Terminals: n}
}
