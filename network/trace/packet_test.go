package trace

import (
	"bytes"
	"github.com/flitsim/flitsim/internal/kernel"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/network"
)

// TestVCDPacketRouter: a packet-switched run's VCD parses, shows every
// out-link queue's occupancy rising above zero under load, and GTKWave's
// vcd2fst converts it (where installed).
func TestVCDPacketRouter(t *testing.T) {
	c := network.Default()
	c.Topology = network.TopologyConfig{Kind: "torus", K: 4, N: 2}
	c.Switching, c.Traffic.Flits, c.Traffic.Load = "packet", network.FlitRange{Min: 1, Max: 1}, 0.4
	c.Run = network.RunConfig{Warmup: 0, Measure: 200, Drain: 2000, Seed: 1, DeadlockCheck: 64}
	var out bytes.Buffer
	var v *VCD
	runNet(t, c, func(n *network.Network) []network.Tracer {
		v, _ = NewVCD(&out, kernel.Of(n), Options{})
		return []network.Tracer{v}
	})
	if err := v.Close(); err != nil {
		t.Fatal(err)
	}
	f := readVCD(t, out.Bytes())
	busy := 0
	for path := range f.vars {
		if !strings.HasSuffix(path, "/occupancy") {
			continue
		}
		for _, ch := range f.changes[path] {
			if ch.val != "0" && ch.val != "x" {
				busy++
				break
			}
		}
	}
	if busy < 32 {
		t.Fatalf("%d queues ever held a packet", busy)
	}
	bin := gtkwaveTool(t, "vcd2fst")
	dir := t.TempDir()
	in := filepath.Join(dir, "p.vcd")
	if err := os.WriteFile(in, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if msg, err := exec.Command(bin, in, filepath.Join(dir, "p.fst")).CombinedOutput(); err != nil {
		t.Fatalf("vcd2fst: %v\n%s", err, msg)
	}
}
