package trace

import (
	"bytes"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network"
)

// TestEventsDropped: with queue.full: drop the event log has one "dropped"
// row per dropped packet, naming the full queue's buffer.
func TestEventsDropped(t *testing.T) {
	c := network.Default()
	c.Topology = network.TopologyConfig{Kind: "hypercube", D: 5}
	c.Switching, c.Routing, c.Traffic.Flits = "packet", "random-order", network.FlitRange{Min: 1, Max: 1}
	c.Traffic.Mode, c.Traffic.Pattern, c.Traffic.H = "batch", "random-permutation", 4
	c.Queue.Full, c.Buffers.Output = "drop", 1
	var out bytes.Buffer
	var e *Events
	_, r := runNet(t, c, func(n *network.Network) []network.Tracer {
		e, _ = NewEvents(&out, kernel.Of(n), JSONL, Options{})
		return []network.Tracer{e}
	})
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	rows := 0
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.Contains(l, `"event":"dropped"`) {
			rows++
			if !strings.Contains(l, `"buffer":"`) {
				t.Fatalf("a drop without its buffer: %s", l)
			}
		}
	}
	if r.Dropped == nil || *r.Dropped == 0 || int64(rows) != *r.Dropped {
		t.Fatalf("%d dropped rows, %v dropped packets", rows, r.Dropped)
	}
}
