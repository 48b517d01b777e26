package network

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestPacketDropResult: queue.full: drop runs a batch to its end with
// packets dropped, the JSON's dropped member counts them (injected =
// delivered + dropped), the run is complete, and the key's values are
// checked.
func TestPacketDropResult(t *testing.T) {
	c := Default()
	c.Topology = TopologyConfig{Kind: "hypercube", D: 6}
	c.Switching, c.Routing, c.Valiant = "packet", "random-order", "separate"
	c.Traffic.Flits = FlitRange{Min: 1, Max: 1}
	c.Traffic.Mode, c.Traffic.Pattern, c.Traffic.H = "batch", "random-permutation", 4
	c.Queue.Full, c.Buffers.Output = "drop", 1
	c.Run.Experiments = 3
	n, err := Build(c)
	if err != nil {
		t.Fatal(err)
	}
	r, err := n.RunPlain()
	if err != nil {
		t.Fatal(err)
	}
	if r.Dropped == nil || *r.Dropped == 0 || r.InjectedPackets != r.DeliveredPackets+*r.Dropped ||
		r.MeasuredDropped != *r.Dropped || r.Incomplete || r.Experiments.Incomplete != 0 {
		t.Fatalf("injected %d, delivered %d, dropped %v (measured %d), incomplete %v / %d",
			r.InjectedPackets, r.DeliveredPackets, r.Dropped, r.MeasuredDropped, r.Incomplete, r.Experiments.Incomplete)
	}
	js, _ := json.Marshal(r)
	if !strings.Contains(string(js), `"dropped":`) {
		t.Fatal("no dropped member in the JSON")
	}
	// Still ok (every packet delivered or dropped), but it says so.
	if r.Status != StatusOK || len(r.Warnings) != 1 || r.Warnings[0] != r.DropNote()+": the latencies and the throughput count only the packets delivered" ||
		!strings.HasPrefix(r.DropNote(), fmt.Sprintf("packets dropped: %d by full queues (queue.full: drop), %d of them measured", *r.Dropped, r.MeasuredDropped)) ||
		!strings.Contains(string(js), `"warnings":["`+r.DropNote()) {
		t.Errorf("status %s, warnings %q", r.Status, r.Warnings)
	}
	c.Queue.Full = "unbounded"
	if r, err = Run(c); err != nil || r.Dropped != nil {
		t.Fatalf("unbounded: err %v, dropped %v", err, r.Dropped)
	}
	c.Queue.Full, c.Buffers.Output = "drop", 0
	if _, err := Build(c); err == nil || !strings.Contains(err.Error(), "buffers.output") {
		t.Fatalf("drop without a capacity: %v", err)
	}
}
