package trace_test

import (
	"bytes"
	"testing"

	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network/collective"
	"github.com/flitsim/flitsim/network/topology"
	"github.com/flitsim/flitsim/network/trace"
)

// eager hides an event log's Traces, so the scheduled router makes every
// packet's record at creation, as before records waited for the window.
type eager struct{ *trace.Events }

func (eager) Traces() {} // (not kernel.TraceScope's signature)

// A collective traced with --trace-window or --trace-only writes the same
// events whether the router makes each packet's record at creation or at
// its first traced event, and the latter makes fewer records.
func TestLazyRecordsSameTrace(t *testing.T) {
	for _, c := range []struct {
		task   string
		spec   topology.Spec
		params map[string]string
		o      trace.Options
	}{
		{"te", topology.Spec{Kind: "hypercube", D: 5}, nil, trace.Options{Window: trace.Window{From: 3, To: 6}}},
		{"te", topology.Spec{Kind: "hypercube", D: 5}, nil, trace.Options{Only: "n3,t7"}},
		{"mnb", topology.Spec{Kind: "hypercube", D: 5}, map[string]string{"task.hardware": "router"}, trace.Options{Window: trace.Window{From: 2, To: 4}, Only: "n1,n6"}},
		{"snb", topology.Spec{Kind: "hypercube", D: 6}, nil, trace.Options{Window: trace.Window{From: 2}}},
		{"te", topology.Spec{Kind: "folded-cube", D: 5}, nil, trace.Options{Window: trace.Window{To: 3}, Only: "t2"}},
	} {
		var logs [2]bytes.Buffer
		var records [2]int
		for i := range logs {
			var ev *trace.Events
			var k0 *kernel.Kernel
			o := collective.Options{Attach: func(k *kernel.Kernel) (kernel.Tracer, error) {
				var err error
				k0 = k
				ev, err = trace.NewEvents(&logs[i], k, trace.CSV, c.o)
				if i == 0 {
					return eager{ev}, err
				}
				return ev, err
			}}
			if _, err := collective.RunWith(c.spec, c.task, c.params, 1, o); err != nil {
				t.Fatalf("%s: %v", c.task, err)
			}
			if err := ev.Close(); err != nil {
				t.Fatal(err)
			}
			records[i] = len(k0.Pool.Worms) // (the records made: the pool's length)
		}
		name := c.task + " " + c.spec.Kind
		if logs[0].Len() == 0 || !bytes.Equal(logs[0].Bytes(), logs[1].Bytes()) {
			t.Errorf("%s %+v: traces differ (%d and %d bytes)", name, c.o, logs[0].Len(), logs[1].Len())
		}
		if records[1] >= records[0] {
			t.Errorf("%s %+v: %d records made lazily, %d at creation", name, c.o, records[1], records[0])
		}
	}
}
