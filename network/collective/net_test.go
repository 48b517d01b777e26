package collective

import (
	"strings"
	"testing"

	"github.com/flitsim/flitsim/network/topology"
)

// TestNetReadsLinks: a 3×3 mesh has 2·(2·3 + 2·3) directed links, and
// Port and In agree with the topology's wiring.
func TestNetReadsLinks(t *testing.T) {
	topo, err := topology.Build(topology.Spec{Kind: "mesh", K: 3, N: 2, Routing: "dor"})
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewNet(topo)
	if err != nil {
		t.Fatal(err)
	}
	if g.N != 9 || g.Links != 24 {
		t.Fatalf("N=%d links=%d, want 9 and 24", g.N, g.Links)
	}
	for v := 0; v < g.N; v++ {
		if g.Node[g.Term[v]] != v {
			t.Fatalf("node %d's terminal %d maps back to %d", v, g.Term[v], g.Node[g.Term[v]])
		}
		for o, u := range g.Nbr[v] {
			if u < 0 {
				continue
			}
			if g.Port(v, int(u)) != int32(o) {
				t.Fatalf("Port(%d,%d)=%d, want %d", v, u, g.Port(v, int(u)), o)
			}
			e := topo.Switches[v].Out[o]
			if g.In[u][e.Port] != int32(v) {
				t.Fatalf("In[%d][%d]=%d, want %d", u, e.Port, g.In[u][e.Port], v)
			}
		}
	}
	if g.Port(0, 8) != -1 {
		t.Fatal("Port of two unlinked nodes must be −1")
	}
}

// TestRunRefusesKindWithoutTasks names the kinds that have tasks.
func TestRunRefusesKindWithoutTasks(t *testing.T) {
	_, err := Run(topology.Spec{Kind: "omega", K: 2, N: 3}, "te", nil, 1)
	if err == nil {
		t.Fatal("want an error for a kind without collective tasks")
	}
	if got := err.Error(); !strings.Contains(got, "topology.kind") || !strings.Contains(got, "hypercube") {
		t.Fatalf("error %q should name topology.kind and the kinds with tasks", got)
	}
}
