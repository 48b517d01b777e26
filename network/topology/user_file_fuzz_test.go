package topology

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/flit"
)

// FuzzParseFile feeds the topology file parser arbitrary text (seeds: the
// files in testdata and testdata/fuzz/FuzzParseFile). A rejected file is
// one *inputerr.Error line placed in the file; an accepted one passes the
// kernel's wiring check and routes every terminal to every other.
func FuzzParseFile(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*.topo"))
	seeds = append(seeds, filepath.Join("..", "..", "configs", "topologies", "ring6.topo"))
	for _, name := range seeds {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(lineHead + "routing table\nroute a * 1\nroute a 0 2\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<14 {
			return // a few hundred statements: enough, and keeps the tables small
		}
		topo, err := ParseFile(data, "f.topo")
		if err != nil {
			e, ok := inputerr.As(err)
			if !ok || !strings.HasPrefix(e.Pos, "f.topo") || strings.ContainsAny(e.Error(), "\r\n") {
				t.Fatalf("error %T %q is not one line placed in f.topo", err, err)
			}
			return
		}
		if err := topo.Validate(); err != nil {
			t.Fatalf("accepted a file the kernel rejects: %v", err)
		}
		n := topo.Terminals()
		for src := range n {
			for dst := range n {
				if _, err := Trace(topo, &flit.Worm{Src: int32(src), Dst: int32(dst)}); err != nil {
					t.Fatalf("accepted a file that does not route: %v", err)
				}
			}
		}
	})
}
