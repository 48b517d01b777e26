// Package topology builds the static structure of a network (switches, the
// wiring of their ports, where terminals attach) and the routing functions
// that run on it. Each kind is one file that registers itself with its
// parameters, routing functions and builder (Register, registry.go).
package topology

import (
	"math/rand/v2"

	"github.com/flitsim/flitsim/flit"
	xbar "github.com/flitsim/flitsim/switch"
)

// End is the far end of an output port's link: either input port Port of
// switch Switch (then Terminal is -1), or terminal Terminal (then Switch is
// -1). Switch -1 with Terminal -1 means the port has no link (a mesh edge);
// such a port's input side is unconnected too.
type End struct {
	Switch   int32
	Port     int32
	Terminal int32
}

// ToTerminal reports whether the link ejects into a terminal.
func (e End) ToTerminal() bool { return e.Switch < 0 && e.Terminal >= 0 }

// Connected reports whether the port has a link at all.
func (e End) Connected() bool { return e.Switch >= 0 || e.Terminal >= 0 }

// Switch is one k×k switch: Out[o] is where output port o leads. A switch has
// as many input ports as output ports. Label is the name used in reports
// (for MINs the seeds' s_{i,j} written "s2,0"; for direct networks the
// router's coordinates).
type Switch struct {
	Label string
	Out   []End
}

// Topology is a network's switches and wiring. Terminal t injects into input
// port InPort[t] of switch InSwitch[t]; it is reached through the output port
// whose End names it.
type Topology struct {
	Kind     string
	Switches []Switch
	InSwitch []int32
	InPort   []int32

	// Terminal addresses are Digits digits in base Radix (a k-ary n-mesh,
	// a 2-ary d-cube, a k^n-terminal MIN); traffic patterns use this shape.
	Radix  int
	Digits int

	// PortNames optionally names ports for reports (e.g. "x+", "local");
	// when nil, ports are named by number.
	PortNames []string

	// Directed marks a network of unidirectional links whose in- and
	// out-degrees differ per switch (a pseudocube, an enhanced cube): an
	// input port may then be unfed although its paired output port has a
	// link. Otherwise every connected output's paired input is fed.
	Directed bool

	Router Router
}

// Terminals is the number of terminals (processors / network interfaces).
func (t *Topology) Terminals() int { return len(t.InSwitch) }

// Router is a routing function: the set of output ports a head flit takes at
// a switch. Init runs once per packet when it is created, and may draw random
// numbers to fix per-packet choices in w.Aux (a random start dimension, an
// extra-stage path); it writes nothing else, and its draws depend only on
// the router and on w's source, destination and length (the network draws
// them ahead of time on a scratch worm: internal/kernel/presample.go). Route must be a pure
// function of its arguments and w,
// so that it can be re-evaluated and so that runs are deterministic.
type Router interface {
	Name() string
	Init(w *flit.Worm, rng *rand.Rand)
	Route(sw, in int, w *flit.Worm) xbar.PortSet
}

// StatefulRouter is a Router whose route depends on per-packet state that
// changes as the head travels (the phase of a two-phase route through an
// intermediate node chosen at the source, a deflection count). When a
// unicast head is routed at a switch — once per switch on its path — the
// kernel calls RouteHead instead of Route, with the worm's own state
// (w.Route, zero when the worm is created), which RouteHead may update; it
// must change nothing else. Route stays pure: it routes multicast worms and
// re-evaluations that must not advance the state.
type StatefulRouter interface {
	Router
	RouteHead(sw, in int, w *flit.Worm, st *flit.RouteState) xbar.PortSet
}
