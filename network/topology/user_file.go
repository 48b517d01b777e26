package topology

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/flit"
	xbar "github.com/flitsim/flitsim/switch"
)

// A topology read from a file (topology.kind: file, topology.file: PATH):
// switches, directed links, terminal attachments and a routing table or
// rule, in the format of user_file_parse.go (docs/configuration.md, "Topology files").

func init() {
	Register(KindSpec{
		Name: "file",
		Desc: "a topology file: switches, directed links between their ports, terminals, and a routing table or the rule shortest (docs/configuration.md: Topology files)",
		Params: []Param{{Key: "file", Default: "configs/topologies/ring6.topo",
			Allowed: "the path of a topology file (in a config file: relative to that file)",
			Desc:    "the topology file",
			Check: func(s Spec) string {
				if s.File == "" {
					return "the path of a topology file (docs/configuration.md: Topology files)"
				}
				return ""
			}}},
		Routings: []Routing{
			{Name: "file", New: func(t *Topology, _ Spec) (Router, error) { return t.Router, nil },
				Desc: "what the file says: its route lines, over shortest paths when it says routing shortest"},
			{Name: "shortest", Aliases: []string{"bfs"}, New: func(t *Topology, _ Spec) (Router, error) { return shortestRouter(t) },
				Desc: "shortest paths over the file's links, the lowest port on ties; the file's route lines are not used"},
		},
		Build: buildFile,
	})
}

// buildFile reads and parses s.File. ParseFile also sets the Router the
// file gives, which the routing "file" keeps.
func buildFile(s Spec) (*Topology, error) {
	bad := func(err error) error {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return &inputerr.Error{Key: "topology.file", Value: s.File, Problem: fmt.Sprintf("cannot read %s: %v", s.File, err)}
	}
	// Only a regular file of bounded size: a pipe or device would block
	// or never end.
	switch st, err := os.Stat(s.File); {
	case err != nil:
		return nil, bad(err)
	case !st.Mode().IsRegular():
		return nil, bad(errors.New("not a regular file"))
	case st.Size() > maxFileBytes:
		return nil, bad(fmt.Errorf("larger than %d MiB", maxFileBytes>>20))
	}
	data, err := os.ReadFile(s.File)
	if err != nil {
		return nil, bad(err)
	}
	return ParseFile(data, s.File)
}

// maxFileBytes bounds a topology file's size.
const maxFileBytes = 64 << 20

// noPort marks a routing table entry that is not set.
const noPort = -1

// tableRouter routes by a table of output ports indexed by switch and
// destination terminal; the input port does not matter.
type tableRouter struct {
	name string
	n    int    // terminals
	port []int8 // port[sw*n+dst], noPort where no packet goes
}

func (r *tableRouter) Name() string                { return r.name }
func (r *tableRouter) Init(*flit.Worm, *rand.Rand) {}
func (r *tableRouter) at(sw, dst int) int          { return int(r.port[sw*r.n+dst]) }
func (r *tableRouter) Route(sw, _ int, w *flit.Worm) xbar.PortSet {
	if p := r.port[sw*r.n+int(w.Dst)]; p >= 0 {
		return xbar.Port(int(p))
	}
	return 0
}

// shortestTable is the table of shortest-path routes over t's links: at
// each switch, of the output ports that lead one hop closer to the switch
// that ejects into the destination, the lowest-numbered (a breadth-first
// search back from that switch). Entries from which the destination cannot
// be reached are noPort.
func shortestTable(t *Topology) []int8 {
	ns, n := len(t.Switches), t.Terminals()
	rev := make([][]int32, ns) // rev[s]: the switches with a link into s
	eject := make([]portRef, n)
	for s, sw := range t.Switches {
		for p, e := range sw.Out {
			switch {
			case e.Switch >= 0:
				rev[e.Switch] = append(rev[e.Switch], int32(s))
			case e.Terminal >= 0:
				eject[e.Terminal] = portRef{s, p}
			}
		}
	}
	table := make([]int8, ns*n)
	dist := make([]int32, ns)
	queue := make([]int32, 0, ns)
	for dst := range n {
		e := eject[dst]
		for i := range dist {
			dist[i] = -1
		}
		dist[e.sw] = 0
		queue = append(queue[:0], int32(e.sw))
		for i := 0; i < len(queue); i++ {
			for _, from := range rev[queue[i]] {
				if dist[from] < 0 {
					dist[from] = dist[queue[i]] + 1
					queue = append(queue, from)
				}
			}
		}
		for s, sw := range t.Switches {
			table[s*n+dst] = noPort
			switch {
			case s == e.sw:
				table[s*n+dst] = int8(e.port)
			case dist[s] > 0:
				for p, o := range sw.Out {
					if o.Switch >= 0 && dist[o.Switch] == dist[s]-1 {
						table[s*n+dst] = int8(p)
						break
					}
				}
			}
		}
	}
	return table
}

// shortestRouter is the routing "shortest" for a built file topology.
func shortestRouter(t *Topology) (Router, error) {
	r := &tableRouter{name: "shortest", n: t.Terminals(), port: shortestTable(t)}
	if err := checkTable(t, r, nil, nil); err != nil {
		return nil, err
	}
	return r, nil
}

// route builds the router the file gives: shortest paths (routing
// shortest, the default without route lines) or none (routing table, the
// default with route lines), then each switch's * line, then the route
// lines for single destinations; and checks that every terminal reaches
// every other.
func (f *fileNet) route() error {
	t := f.t
	n := t.Terminals()
	rule := f.rule
	if rule == "" {
		rule = "shortest"
		if len(f.routes) > 0 {
			rule = "table"
		}
	}
	r := &tableRouter{name: rule, n: n}
	if rule == "shortest" {
		r.port = shortestTable(t)
		if len(f.routes) > 0 {
			r.name = "shortest+table"
		}
	} else {
		r.port = make([]int8, len(t.Switches)*n)
		for i := range r.port {
			r.port[i] = noPort
		}
	}
	lines := make([]int32, len(r.port)) // the route line of each entry (0: the rule's)
	allAt := map[int]int{}              // the "route A * P" line of each switch that has one
	for _, all := range []bool{true, false} {
		for _, rt := range f.routes {
			if rt.all != all {
				continue
			}
			dsts := rt.dsts
			if rt.all {
				if prev, dup := allAt[rt.sw]; dup {
					return f.errAt(rt.line, "route", "a second * entry at %s (first on line %d)", "one route per switch and destination", t.Switches[rt.sw].Label, prev)
				}
				allAt[rt.sw] = rt.line
				dsts = nil
				for d := range n {
					dsts = append(dsts, d)
				}
			}
			for _, d := range dsts {
				i := rt.sw*n + d
				if prev := int(lines[i]); !rt.all && prev != 0 && prev != allAt[rt.sw] {
					return f.errAt(rt.line, "route", "a second entry at %s for terminal %d (first on line %d)", "one route per switch and destination", t.Switches[rt.sw].Label, d, prev)
				}
				r.port[i], lines[i] = int8(rt.port), int32(rt.line)
			}
		}
	}
	if err := checkTable(t, r, lines, f); err != nil {
		return err
	}
	t.Router = r
	return nil
}

// checkTable follows r from every terminal to every other and fails if
// a walk finds no entry, loops or ejects at another terminal. A table
// depends only on the switch and the destination, so for one destination
// a switch from which a walk arrived is not walked again. lines and f
// (nil for a table no file line gave) place the error at the route line
// last used on the way, or at the source's terminal line.
func checkTable(t *Topology, r *tableRouter, lines []int32, f *fileNet) error {
	n := t.Terminals()
	state := make([]uint8, len(t.Switches)) // 0 unknown, 1 on this walk, 2 reaches the destination
	var path []int
	for dst := range n {
		clear(state)
		for src := range n {
			path = path[:0]
			s, blame := int(t.InSwitch[src]), 0
			fail := func(key, problem, allowed string, args ...any) error {
				if blame == 0 {
					key = "terminal"
				}
				if f == nil {
					return &inputerr.Error{Key: "routing", Value: r.name, Allowed: fmt.Sprintf(problem, args...)}
				}
				if blame == 0 {
					blame = f.termLine[src]
				}
				return f.errAt(blame, key, problem, allowed, args...)
			}
			for state[s] != 2 {
				label := t.Switches[s].Label
				if state[s] == 1 {
					return fail("route", "terminal %d → %d comes back to %s", "routes that reach the destination without a loop", src, dst, label)
				}
				state[s] = 1
				path = append(path, s)
				if lines != nil && lines[s*n+dst] != 0 {
					blame = int(lines[s*n+dst])
				}
				p := r.at(s, dst)
				if p < 0 && r.name == "table" {
					return fail("route", "terminal %d → %d: no route at %s for terminal %d", "a route line for every switch on the way, or routing shortest", src, dst, label, dst)
				}
				if p < 0 {
					return fail("terminal", "terminal %d cannot reach terminal %d: no path of links from %s", "links from every terminal's switch to every other's", src, dst, label)
				}
				e := t.Switches[s].Out[p]
				if e.ToTerminal() {
					if int(e.Terminal) != dst {
						return fail("route", "terminal %d → %d ejects at terminal %d (%s.%d)", "routes that end at the destination's port", src, dst, e.Terminal, label, p)
					}
					break
				}
				s = int(e.Switch) // a route line's port is wired (addRoute), a shortest one is a link
			}
			for _, s := range path {
				state[s] = 2
			}
		}
	}
	return nil
}
