package configs

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/configs/inputerr"
)

// TestTopologyFilePath: topology.file in a config file is relative to that
// file's folder; from --set it is relative to the working directory.
func TestTopologyFilePath(t *testing.T) {
	c, err := Load(filepath.Join("topologies", "file_ring.yaml"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join("topologies", "ring6.topo"); c.Topology.File != want {
		t.Errorf("from configs/: %q, want %q", c.Topology.File, want)
	}
	c, err = Load(filepath.Join("..", "configs", "topologies", "file_ring.yaml"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join("..", "configs", "topologies", "ring6.topo"); c.Topology.File != want {
		t.Errorf("from ../configs: %q, want %q", c.Topology.File, want)
	}
	c, err = Load("", []string{"topology.kind=file", "topology.file=topologies/ring6.topo"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Topology.File != "topologies/ring6.topo" {
		t.Errorf("from --set: %q", c.Topology.File)
	}
	_, err = Load("", []string{"topology.kind=file", "topology.file=../configs/no-such.topo"})
	wantErr(t, err, "--set topology.file: cannot read ../configs/no-such.topo: no such file")
}

// TestTopologyFileErrors: an error in the topology file names the
// topology file and its line; one about the key names the config's line.
func TestTopologyFileErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("bad.topo", "switch a 2\nswitch b 2\nlink a.1 c.0\n")
	_, err := Load(write("exp.yaml", "topology:\n  kind: file\n  file: bad.topo\n"), nil)
	wantErr(t, err, filepath.Join(dir, "bad.topo")+`:3: link: unknown switch "c"`)
	if e, ok := inputerr.As(err); !ok || e.Pos != filepath.Join(dir, "bad.topo")+":3" {
		t.Errorf("%T %v", err, err)
	}
	_, err = Load(write("none.yaml", "topology:\n  kind: file\n  file: missing.topo\n"), nil)
	wantErr(t, err, filepath.Join(dir, "none.yaml")+":3: topology.file: cannot read "+filepath.Join(dir, "missing.topo"))
	_, err = Load(write("empty.yaml", "topology:\n  kind: file\n"), nil)
	wantErr(t, err, "topology.file", "(not given)", "the path of a topology file")
}

// TestDocsTopologyFileExample: the example of docs/configuration.md is the
// shipped configs/topologies/ring6.topo, statement for statement.
func TestDocsTopologyFileExample(t *testing.T) {
	doc, err := os.ReadFile("../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(doc), "## Topology files")
	_, block, ok2 := strings.Cut(sec, "$ cat configs/topologies/ring6.topo\n")
	block, _, ok3 := strings.Cut(block, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatal("docs/configuration.md has no Topology files section with the example")
	}
	file, err := os.ReadFile("topologies/ring6.topo")
	if err != nil {
		t.Fatal(err)
	}
	statements := func(s string) []string {
		var out []string
		for _, l := range strings.Split(s, "\n") {
			l, _, _ = strings.Cut(l, "#")
			if f := strings.Fields(l); len(f) > 0 {
				out = append(out, strings.Join(f, " "))
			}
		}
		return out
	}
	if got, want := statements(block), statements(string(file)); !slices.Equal(got, want) || len(want) < 10 {
		t.Errorf("docs/configuration.md example\n%q\nconfigs/topologies/ring6.topo\n%q", got, want)
	}
}
