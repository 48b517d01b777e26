package topology

import (
	"fmt"

	"github.com/flitsim/flitsim/flit"
	xbar "github.com/flitsim/flitsim/switch"
)

// Hop is one switch on a traced route: the packet enters Switch on input port
// In and leaves on output port Out.
type Hop struct {
	Switch int
	Label  string
	In     int
	Out    int
}

// Trace walks t's routing function for a unicast worm from terminal w.Src to
// terminal w.Dst and returns the switches it crosses, as the kernel routes
// it: a StatefulRouter's RouteHead advances a copy of w.Route hop by hop. It
// does not call Router.Init: set w.Aux first if the router keeps per-packet
// state there. An AdaptiveRouter's trace is its escape path.
// It fails if a switch asks for other than one port, a port is unconnected,
// the route loops, or it ejects at the wrong terminal.
func Trace(t *Topology, w *flit.Worm) ([]Hop, error) {
	nt := t.Terminals()
	if w.Src < 0 || int(w.Src) >= nt || w.Dst < 0 || int(w.Dst) >= nt {
		return nil, fmt.Errorf("trace %d→%d: terminal out of range [0,%d)", w.Src, w.Dst, nt)
	}
	sw, in := int(t.InSwitch[w.Src]), int(t.InPort[w.Src])
	var hops []Hop
	seen := make(map[[2]int]flit.RouteState)
	sr, stateful := t.Router.(StatefulRouter)
	st := w.Route
	for {
		// A stateful route may cross a switch twice, in another state.
		if prev, ok := seen[[2]int{sw, in}]; ok && prev == st {
			return hops, fmt.Errorf("trace %d→%d: loop at switch %s input %d", w.Src, w.Dst, t.Switches[sw].Label, in)
		}
		seen[[2]int{sw, in}] = st
		if len(hops) > 4*len(t.Switches)+16 {
			return hops, fmt.Errorf("trace %d→%d: no delivery after %d hops", w.Src, w.Dst, len(hops))
		}
		s := &t.Switches[sw]
		var ps xbar.PortSet
		if stateful {
			ps = sr.RouteHead(sw, in, w, &st)
		} else if ar, ok := t.Router.(AdaptiveRouter); ok {
			ps = xbar.Port(ar.Escape(sw, in, w)) // (the one path it always has)
		} else {
			ps = t.Router.Route(sw, in, w)
		}
		if ps.Count() != 1 {
			return hops, fmt.Errorf("trace %d→%d: switch %s input %d routes to %d ports (%b)", w.Src, w.Dst, s.Label, in, ps.Count(), uint64(ps))
		}
		out := ps.First()
		if out >= len(s.Out) {
			return hops, fmt.Errorf("trace %d→%d: switch %s has no output port %d", w.Src, w.Dst, s.Label, out)
		}
		hops = append(hops, Hop{Switch: sw, Label: s.Label, In: in, Out: out})
		e := s.Out[out]
		switch {
		case e.ToTerminal():
			if e.Terminal != w.Dst {
				return hops, fmt.Errorf("trace %d→%d: ejected at terminal %d", w.Src, w.Dst, e.Terminal)
			}
			return hops, nil
		case !e.Connected():
			return hops, fmt.Errorf("trace %d→%d: switch %s output %d is unconnected", w.Src, w.Dst, s.Label, out)
		}
		sw, in = int(e.Switch), int(e.Port)
	}
}

// Validate checks the wiring: every link ends at an existing input port or
// terminal, every input port is fed by exactly one output port or terminal
// (or by none when its paired output port — same number — is unconnected, as
// at a mesh edge, or when t.Directed), every terminal injects into one input port and is reached
// by exactly one output port, and no switch has more than xbar.MaxPorts ports.
func (t *Topology) Validate() error {
	nt := len(t.InSwitch)
	if len(t.InPort) != nt {
		return fmt.Errorf("topology: %d InSwitch entries but %d InPort entries", nt, len(t.InPort))
	}
	if t.Router == nil {
		return fmt.Errorf("topology: no router")
	}
	off := make([]int, len(t.Switches)+1)
	for i, s := range t.Switches {
		if len(s.Out) == 0 || len(s.Out) > 64 {
			return fmt.Errorf("switch %d (%s): %d ports (want 1..64)", i, s.Label, len(s.Out))
		}
		off[i+1] = off[i] + len(s.Out)
	}
	fed := make([]int32, off[len(t.Switches)])
	ejected := make([]int32, nt)
	for i, s := range t.Switches {
		for o, e := range s.Out {
			switch {
			case e.Switch >= 0:
				if int(e.Switch) >= len(t.Switches) || e.Port < 0 || int(e.Port) >= len(t.Switches[e.Switch].Out) {
					return fmt.Errorf("switch %d (%s) output %d leads to nonexistent switch %d port %d", i, s.Label, o, e.Switch, e.Port)
				}
				fed[off[e.Switch]+int(e.Port)]++
			case e.Terminal >= 0:
				if int(e.Terminal) >= nt {
					return fmt.Errorf("switch %d (%s) output %d leads to nonexistent terminal %d", i, s.Label, o, e.Terminal)
				}
				ejected[e.Terminal]++
			}
		}
	}
	for term := 0; term < nt; term++ {
		sw, p := t.InSwitch[term], t.InPort[term]
		if sw < 0 || int(sw) >= len(t.Switches) || p < 0 || int(p) >= len(t.Switches[sw].Out) {
			return fmt.Errorf("terminal %d injects into nonexistent switch %d port %d", term, sw, p)
		}
		fed[off[sw]+int(p)]++
		if ejected[term] != 1 {
			return fmt.Errorf("terminal %d is reached by %d output ports (want 1)", term, ejected[term])
		}
	}
	for i, s := range t.Switches {
		for p := range s.Out {
			switch f := fed[off[i]+p]; {
			case f > 1:
				return fmt.Errorf("switch %d (%s) input %d is fed %d times", i, s.Label, p, f)
			case f == 0 && s.Out[p].Connected() && !t.Directed:
				return fmt.Errorf("switch %d (%s) input %d is not fed", i, s.Label, p)
			}
		}
	}
	if t.PortNames != nil {
		for i, s := range t.Switches {
			if len(s.Out) > len(t.PortNames) {
				return fmt.Errorf("switch %d (%s) has %d ports but only %d port names", i, s.Label, len(s.Out), len(t.PortNames))
			}
		}
	}
	return nil
}
