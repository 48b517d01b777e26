package search

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/flitsim/flitsim/network"
)

// TestReplayYAMLTopologyFile: a deadlock found on a topology file replays
// from any folder: the replay config names the file by its absolute path.
func TestReplayYAMLTopologyFile(t *testing.T) {
	c := network.Default()
	c.Topology = network.TopologyConfig{Kind: "file", File: filepath.Join("..", "topology", "testdata", "ring5.topo")}
	b, err := ReplayYAML(&Outcome{Config: &c, Deadlock: &network.Deadlock{Cycle: 9}})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Topology map[string]any `yaml:"topology"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	f, _ := doc.Topology["file"].(string)
	if doc.Topology["kind"] != "file" || !filepath.IsAbs(f) || !strings.HasSuffix(f, filepath.Join("topology", "testdata", "ring5.topo")) {
		t.Fatalf("replay topology %v", doc.Topology)
	}
	if _, err := os.Stat(f); err != nil {
		t.Error(err)
	}
}
