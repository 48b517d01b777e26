package collective

import (
	"fmt"

	"github.com/flitsim/flitsim/network/topology"
)

// Net is a built direct network as a schedule sees it: nodes (the
// switches), each with one terminal, and the links between nodes by
// out-port. Every family's schedules address nodes, terminals and ports
// through it; the hypercube's cube adds its dimensions on top.
type Net struct {
	Topo  *topology.Topology
	N     int       // nodes
	Links int       // directed node-to-node links
	Term  []int     // node → its terminal
	Node  []int     // terminal → its node
	Nbr   [][]int32 // node → out-port → the neighbour node, or −1 (the terminal's port, or unwired)
	In    [][]int32 // node → in-port → the neighbour it comes from, or −1
	port  []map[int32]int32
}

// NewNet reads t's nodes, terminals and links. Every node must have
// exactly one terminal. Of parallel links (an enhanced cube's extra link
// to a cube neighbour) Port names the first; a schedule that uses the
// others names them by port (Nbr).
func NewNet(t *topology.Topology) (*Net, error) {
	n := len(t.Switches)
	g := &Net{Topo: t, N: n, Term: make([]int, n), Node: make([]int, t.Terminals()), Nbr: make([][]int32, n), In: make([][]int32, n), port: make([]map[int32]int32, n)}
	for i := range g.Term {
		g.Term[i] = -1
	}
	for si, sw := range t.Switches {
		g.In[si] = make([]int32, len(sw.Out)) // k×k: as many in-ports as out-ports
		for i := range g.In[si] {
			g.In[si][i] = -1
		}
	}
	for si, sw := range t.Switches {
		g.Nbr[si] = make([]int32, len(sw.Out))
		g.port[si] = make(map[int32]int32, len(sw.Out))
		for o, e := range sw.Out {
			if !e.Connected() {
				g.Nbr[si][o] = -1 // an unwired port (a mesh's edge)
				continue
			}
			if e.ToTerminal() {
				if g.Term[si] >= 0 {
					return nil, fmt.Errorf("node %d has two terminals; a collective needs one per node", si)
				}
				g.Term[si], g.Node[e.Terminal], g.Nbr[si][o] = int(e.Terminal), si, -1
				continue
			}
			g.Nbr[si][o] = e.Switch
			if _, dup := g.port[si][e.Switch]; !dup {
				g.port[si][e.Switch] = int32(o)
			}
			if int(e.Port) >= len(g.In[e.Switch]) {
				return nil, fmt.Errorf("node %d's in-port %d is beyond its %d ports", e.Switch, e.Port, len(g.In[e.Switch]))
			}
			g.In[e.Switch][e.Port] = int32(si)
			g.Links++
		}
	}
	for si, tm := range g.Term {
		if tm < 0 {
			return nil, fmt.Errorf("node %d has no terminal; a collective needs one per node", si)
		}
	}
	return g, nil
}

// Port is node's out-port to neighbour nbr, or −1 when they are not linked.
func (g *Net) Port(node, nbr int) int32 {
	if p, ok := g.port[node][int32(nbr)]; ok {
		return p
	}
	return -1
}
