package trace_test

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/network"
	xbar "github.com/flitsim/flitsim/switch"

	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network/collective"
	"github.com/flitsim/flitsim/network/topology"
	"github.com/flitsim/flitsim/network/trace"
)

// eager hides a writer's Scoped, Traces and Follows (only the Writer
// methods are promoted), so the scheduled router makes every packet's record at
// creation, as before records waited for what is written.
type eager struct{ trace.Writer }

// lazyWriters are the writers that say what they write, by name.
var lazyWriters = []struct {
	name string
	mk   func(io.Writer, *kernel.Kernel, trace.Options) (trace.Writer, error)
}{
	{"events", func(w io.Writer, k *kernel.Kernel, o trace.Options) (trace.Writer, error) {
		return trace.NewEvents(w, k, trace.CSV, o)
	}},
	{"vcd", func(w io.Writer, k *kernel.Kernel, o trace.Options) (trace.Writer, error) {
		return trace.NewVCD(w, k, o)
	}},
	{"perfetto", func(w io.Writer, k *kernel.Kernel, o trace.Options) (trace.Writer, error) {
		return trace.NewPerfetto(w, k, o)
	}},
	{"all three", func(w io.Writer, k *kernel.Kernel, o trace.Options) (trace.Writer, error) {
		var m multi
		for _, wr := range []func(io.Writer, *kernel.Kernel, trace.Options) (trace.Writer, error){
			func(w io.Writer, k *kernel.Kernel, o trace.Options) (trace.Writer, error) {
				return trace.NewEvents(w, k, trace.CSV, o)
			},
			func(w io.Writer, k *kernel.Kernel, o trace.Options) (trace.Writer, error) {
				return trace.NewVCD(w, k, o)
			},
			func(w io.Writer, k *kernel.Kernel, o trace.Options) (trace.Writer, error) {
				return trace.NewPerfetto(w, k, o)
			},
		} {
			x, err := wr(w, k, o)
			if err != nil {
				return nil, err
			}
			m.Multi, m.ws = append(m.Multi, x), append(m.ws, x)
		}
		return m, nil
	}},
}

// multi is several writers on one kernel, as the command attaches them.
type multi struct {
	trace.Multi
	ws []trace.Writer
}

func (m multi) Close() error {
	for _, w := range m.ws {
		if err := w.Close(); err != nil {
			return err
		}
	}
	return nil
}

// A collective traced with --trace-window or --trace-only writes the same
// trace (event log, VCD, Perfetto timeline) whether the router makes each
// packet's record at creation or at its first event the trace needs, and
// the latter makes fewer records.
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
		{"te", topology.Spec{Kind: "hypercube", D: 5}, nil, trace.Options{}}, // (everything: records at creation)
	} {
		for _, wr := range lazyWriters {
			name := c.task + " " + c.spec.Kind + " " + wr.name
			var logs [2]bytes.Buffer
			var records [2]int
			for i := range logs {
				records[i] = tracedCollective(t, name, c.task, c.spec, c.params, func(k *kernel.Kernel) (trace.Writer, error) {
					w, err := wr.mk(&logs[i], k, c.o)
					if i == 0 && err == nil {
						return eager{w}, nil
					}
					return w, err
				})
			}
			if logs[0].Len() == 0 || !bytes.Equal(logs[0].Bytes(), logs[1].Bytes()) {
				t.Errorf("%s %+v: traces differ (%d and %d bytes)", name, c.o, logs[0].Len(), logs[1].Len())
			}
			// (A timeline of every place with no end to its window needs
			// every hop: its spans may start before the window.)
			all := wr.name != "events" && wr.name != "vcd" && c.o.Window.To == 0 && c.o.Only == ""
			if c.o == (trace.Options{}) {
				if records[1] != records[0] {
					t.Errorf("%s, a trace of everything: %d records, %d made at creation", name, records[1], records[0])
				}
			} else if records[1] > records[0] || records[1] == records[0] && !all {
				t.Errorf("%s %+v: %d records made lazily, %d at creation", name, c.o, records[1], records[0])
			}
		}
	}
}

// tracedCollective runs task traced by the writer mk makes and returns the
// most worm records the run held at once (the pool's length). With stop >
// 0 the run is interrupted at the end of cycle stop.
func tracedCollective(t *testing.T, name, task string, spec topology.Spec, params map[string]string,
	mk func(*kernel.Kernel) (trace.Writer, error), stop ...int64) int {
	t.Helper()
	var w trace.Writer
	var k0 *kernel.Kernel
	st := &stopper{at: -1}
	if len(stop) > 0 {
		st.at = stop[0]
	}
	o := collective.Options{Stop: &st.stop, Attach: func(k *kernel.Kernel) (kernel.Tracer, error) {
		var err error
		k0 = k
		if w, err = mk(k); err != nil || st.at < 0 {
			return w, err
		}
		return trace.Multi{w, st}, nil
	}}
	_, err := collective.RunWith(spec, task, params, 1, o)
	var in *collective.Interrupted
	if err != nil && !(st.at >= 0 && errors.As(err, &in)) || st.at >= 0 && err == nil {
		t.Fatalf("%s: %v (stop at %d)", name, err, st.at)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return len(k0.Pool.Worms)
}

// stopper interrupts a run at the end of cycle at; it writes nothing.
type stopper struct {
	at   int64
	stop atomic.Bool
}

func (s *stopper) Granted(int64, int32, int32, int32, xbar.PortSet)            {}
func (s *stopper) Move(int64, flit.Flit, int32, int32, int32, int64)           {}
func (s *stopper) Blocked(int64, flit.Flit, int32, network.Wait, int32, int32) {}
func (s *stopper) Delivered(int64, *flit.Worm, int32, int32)                   {}
func (s *stopper) Traces(int64, int32) bool                                    { return false }
func (s *stopper) EndCycle(c int64) {
	if c == s.at {
		s.stop.Store(true)
	}
}

// A collective interrupted with packets in flight writes the same traces
// lazily as eagerly; the timeline lists the worms still open at the end
// in another order (their records' pool order), so its lines are compared
// as a set.
func TestLazyRecordsInterrupted(t *testing.T) {
	spec := topology.Spec{Kind: "hypercube", D: 5}
	for _, o := range []trace.Options{{Window: trace.Window{From: 2, To: 5}}, {Only: "n3,t7"}, {}} {
		for _, wr := range lazyWriters {
			name := "te interrupted " + wr.name
			var logs [2]bytes.Buffer
			for i := range logs {
				tracedCollective(t, name, "te", spec, nil, func(k *kernel.Kernel) (trace.Writer, error) {
					w, err := wr.mk(&logs[i], k, o)
					if i == 0 && err == nil {
						return eager{w}, nil
					}
					return w, err
				}, 7)
			}
			a, b := logs[0].Bytes(), logs[1].Bytes()
			if wr.name != "events" && wr.name != "vcd" {
				a, b = sortedLines(a), sortedLines(b)
			}
			if len(a) == 0 || !bytes.Equal(a, b) {
				t.Errorf("%s %+v: traces differ (%d and %d bytes)", name, o, len(a), len(b))
			}
			if wr.name == "perfetto" && !bytes.Contains(logs[1].Bytes(), []byte(`"open":true`)) {
				t.Errorf("%s %+v: no worm open at the interruption", name, o)
			}
		}
	}
}

// sortedLines is b's lines sorted (a trailing comma dropped: the last
// event has none).
func sortedLines(b []byte) []byte {
	ls := bytes.Split(b, []byte("\n"))
	for i := range ls {
		ls[i] = bytes.TrimSuffix(ls[i], []byte(","))
	}
	slices.SortFunc(ls, bytes.Compare)
	return bytes.Join(ls, []byte("\n"))
}
