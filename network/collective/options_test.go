package collective

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network/topology"
	xbar "github.com/flitsim/flitsim/switch"
)

// hopLog is a tracer that records what the router tells it: the moves per
// cycle, each delivered packet record and where it ended.
type hopLog struct {
	k         *kernel.Kernel
	moves     map[int64]int64 // cycle → moves
	total     int64
	badCh     int                 // moves over a channel that is no wired link of the sending node
	delivered map[uint64]int      // worm ID → deliveries
	ends      map[uint64][2]int32 // worm ID → (its source, the terminal it was delivered at)
	stray     int                 // deliveries of an incomplete or unknown worm
	blocked   int
	cycles    []int64
	stopAt    int64 // EndCycle(stopAt) sets stop
	stop      *atomic.Bool
}

func newHopLog(k *kernel.Kernel) *hopLog {
	return &hopLog{k: k, moves: map[int64]int64{}, delivered: map[uint64]int{}, ends: map[uint64][2]int32{}, stopAt: -1}
}

func (h *hopLog) Granted(int64, int32, int32, int32, xbar.PortSet) {}
func (h *hopLog) Move(c int64, f flit.Flit, from, to, ch int32, ready int64) {
	h.moves[c]++
	h.total++
	if ch < 0 || !h.k.ChannelConnected(ch) || ready != c+1 {
		h.badCh++
	}
}
func (h *hopLog) Blocked(int64, flit.Flit, int32, kernel.Wait, int32, int32) { h.blocked++ }
func (h *hopLog) Delivered(c int64, w *flit.Worm, wi, term int32) {
	if w.Done != w.Dests {
		h.stray++
	}
	h.delivered[w.ID]++ // (pool indices are reused; IDs are not)
	h.ends[w.ID] = [2]int32{w.Src, term}
}
func (h *hopLog) EndCycle(c int64) {
	h.cycles = append(h.cycles, c)
	if c == h.stopAt {
		h.stop.Store(true)
	}
}

// traced runs task with a hopLog attached.
func traced(t *testing.T, spec topology.Spec, task string, params map[string]string) (*Result, *hopLog) {
	t.Helper()
	var h *hopLog
	r, err := RunWith(spec, task, params, 1, Options{Attach: func(k *kernel.Kernel) (kernel.Tracer, error) {
		if h != nil {
			t.Fatalf("%s: Attach called twice", task)
		}
		h = newHopLog(k)
		return h, nil
	}})
	if err != nil {
		t.Fatalf("%s on %+v: %v", task, spec, err)
	}
	if h == nil {
		t.Fatalf("%s: Attach not called", task)
	}
	return r, h
}

// A traced run shows what the hardware did: a move per transmission, in
// the slot the result counts it, over a wired link; every packet record
// delivered once, complete; and the result is the untraced run's.
func TestTracedRunsShowTheHardware(t *testing.T) {
	cube := func(d int) topology.Spec { return topology.Spec{Kind: "hypercube", D: d} }
	folded := topology.Spec{Kind: "folded-cube", D: 4}
	mesh := topology.Spec{Kind: "mesh", K: 4, N: 2}
	for _, c := range []struct {
		spec    topology.Spec
		task    string
		params  map[string]string
		unicast bool // every delivery is a packet leaving at its destination
		bcast   bool // every transmission is a reception at a new node
	}{
		{cube(3), "te", nil, true, false},
		{cube(4), "te", nil, true, false},
		{cube(4), "snb", map[string]string{"task.root": "5"}, false, true},
		{cube(4), "mnb", nil, false, true},
		{cube(4), "pmnb", map[string]string{"task.m": "6"}, false, false},
		{cube(3), "pmnb", map[string]string{"task.algorithm": "ii"}, false, false},
		{cube(4), "banded", map[string]string{"task.beta": "1"}, true, false},
		{folded, "te", nil, true, false},
		{folded, "mnb", nil, false, false},
		{mesh, "mnb", nil, false, false},
	} {
		r, h := traced(t, c.spec, c.task, c.params)
		name := c.spec.Kind + " " + c.task
		if !r.Delivered {
			t.Fatalf("%s: not delivered", name)
		}
		if h.total != r.Transmissions || h.badCh != 0 {
			t.Errorf("%s: %d moves (%d over no link) for %d transmissions", name, h.total, h.badCh, r.Transmissions)
		}
		for s, n := range r.PerSlot {
			if h.moves[int64(s)] != n {
				t.Errorf("%s: slot %d: %d moves traced, %d links used", name, s, h.moves[int64(s)], n)
			}
		}
		if len(h.cycles) != len(r.PerSlot) || h.blocked != 0 || h.stray != 0 {
			t.Errorf("%s: %d cycles traced for %d slots, %d blocked, %d incomplete deliveries", name, len(h.cycles), len(r.PerSlot), h.blocked, h.stray)
		}
		for wi, n := range h.delivered {
			if n != 1 {
				t.Errorf("%s: worm %d delivered %d times", name, wi, n)
			}
		}
		if c.unicast && int64(len(h.delivered)) != r.Deliveries {
			t.Errorf("%s: %d deliveries traced, %d counted", name, len(h.delivered), r.Deliveries)
		}
		if c.bcast && h.total != r.Deliveries {
			t.Errorf("%s: %d moves, %d receptions counted", name, h.total, r.Deliveries)
		}
		if int64(len(h.delivered)) > r.Deliveries || len(h.delivered) == 0 {
			t.Errorf("%s: %d packet records delivered for %d receptions", name, len(h.delivered), r.Deliveries)
		}
		params := c.params
		if c.task == "mnb" && c.spec.Kind == "hypercube" { // (traced on the router)
			params = maps.Clone(params)
			if params == nil {
				params = map[string]string{}
			}
			params["task.hardware"] = "router"
		}
		plain, err := Run(c.spec, c.task, params, 1)
		if err != nil {
			t.Fatal(err)
		}
		a, err := json.Marshal(r)
		b, err2 := json.Marshal(plain)
		if err != nil || err2 != nil || string(a) != string(b) {
			t.Errorf("%s: tracing changed the result:\n%s\n%s", name, a, b)
		}
	}
}

// In a total exchange every packet ends at its own destination: the
// trace's deliveries are the task matrix, each pair once.
func TestTracedTEDeliversEachPair(t *testing.T) {
	r, h := traced(t, topology.Spec{Kind: "hypercube", D: 3}, "te", nil)
	pairs := map[[2]int32]int{}
	for _, p := range h.ends {
		pairs[p]++
	}
	if len(pairs) != r.Nodes*(r.Nodes-1) || len(h.ends) != len(pairs) {
		t.Fatalf("%d deliveries of %d (source, destination) pairs, want each of %d once", len(h.ends), len(pairs), r.Nodes*(r.Nodes-1))
	}
	for p := range pairs {
		if p[0] == p[1] || p[0] < 0 || int(p[1]) >= r.Nodes {
			t.Errorf("delivery %v", p)
		}
	}
}

// mnb: a trace runs the router unless task.hardware says lockstep, which
// is refused; the router's d limit applies.
func TestTracedMNBHardware(t *testing.T) {
	r, _ := traced(t, topology.Spec{Kind: "hypercube", D: 3}, "mnb", nil)
	if !reflect.DeepEqual(r.Params, []string{"task.hardware=router"}) {
		t.Errorf("params %q", r.Params)
	}
	attach := Options{Attach: func(k *kernel.Kernel) (kernel.Tracer, error) { return newHopLog(k), nil }}
	_, err := RunWith(topology.Spec{Kind: "hypercube", D: 3}, "mnb", map[string]string{"task.hardware": "lockstep"}, 1, attach)
	var un *Untraced
	if !errors.As(err, &un) || un.Hardware != "lockstep" {
		t.Errorf("lockstep traced: %v", err)
	}
	if _, err := RunWith(topology.Spec{Kind: "hypercube", D: 15}, "mnb", nil, 1, attach); err == nil || !strings.Contains(err.Error(), "traced mnb") {
		t.Errorf("traced 15-cube mnb: %v", err)
	}
	if r, err := Run(topology.Spec{Kind: "hypercube", D: 3}, "mnb", nil, 1); err != nil || r.Params[0] != "task.hardware=lockstep" {
		t.Errorf("untraced mnb: %v %v", r, err)
	}
}

// Stop ends a run at the end of the slot in which it was set; the tracer
// saw exactly those slots.
func TestStopInterruptsAfterTheSlot(t *testing.T) {
	var stop atomic.Bool
	var h *hopLog
	_, err := RunWith(topology.Spec{Kind: "hypercube", D: 4}, "te", nil, 1, Options{Stop: &stop, Attach: func(k *kernel.Kernel) (kernel.Tracer, error) {
		h = newHopLog(k)
		h.stopAt, h.stop = 2, &stop
		return h, nil
	}})
	var in *Interrupted
	if !errors.As(err, &in) || in.Slot != 2 || in.Task != "te" {
		t.Fatalf("err %v", err)
	}
	if len(h.cycles) != 3 || h.total != 3*64 {
		t.Errorf("traced %d cycles, %d moves; want 3 full slots of the 64 links", len(h.cycles), h.total)
	}
	// The lock-step hardware stops the same way.
	stop.Store(true)
	_, err = RunWith(topology.Spec{Kind: "hypercube", D: 4}, "mnb", nil, 1, Options{Stop: &stop})
	if !errors.As(err, &in) || in.Slot != -1 || err.Error() != "collective mnb: interrupted before its first slot" {
		t.Errorf("lock-step mnb with Stop set: %v", err)
	}
}

// Dynamic broadcasting traces its one router across the periods.
func TestTracedDynamic(t *testing.T) {
	spec := topology.Spec{Kind: "hypercube", D: 3}
	params := map[string]string{"task.periods": "40", "task.rho": "0.5"}
	var h *hopLog
	r, err := RunDynamicWith(spec, params, 1, Options{Attach: func(k *kernel.Kernel) (kernel.Tracer, error) {
		h = newHopLog(k)
		return h, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	if h.total != r.Transmissions || h.total == 0 || h.badCh != 0 || h.stray != 0 {
		t.Errorf("%d moves (%d over no link, %d incomplete deliveries) for %d transmissions", h.total, h.badCh, h.stray, r.Transmissions)
	}
	plain, err := RunDynamic(spec, params, 1)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := fmt.Sprintf("%+v", *r), fmt.Sprintf("%+v", *plain); a != b {
		t.Errorf("tracing changed the result:\n%s\n%s", a, b)
	}
}

// An interrupted run's error carries what the slots run did: the slots,
// the links used in each, the deliveries so far and those still missing
// (SNB's binomial tree: after 3 slots 2³ nodes hold the packet, the root
// and 7 reached).
func TestInterruptedResult(t *testing.T) {
	var stop atomic.Bool
	var h *hopLog
	_, err := RunWith(topology.Spec{Kind: "hypercube", D: 5}, "snb", nil, 1, Options{Stop: &stop, Attach: func(k *kernel.Kernel) (kernel.Tracer, error) {
		h = newHopLog(k)
		h.stopAt, h.stop = 2, &stop
		return h, nil
	}})
	var in *Interrupted
	if !errors.As(err, &in) || in.Result == nil {
		t.Fatalf("err %v", err)
	}
	r := in.Result
	if r.Status != StatusInterrupted || r.Slots != 3 || !slices.Equal(r.PerSlot, []int64{1, 2, 4}) || r.Transmissions != h.total ||
		r.Deliveries != 7 || r.Delivered || r.Missing != 31-7 {
		t.Errorf("result %+v; the tracer saw %d moves", *r, h.total)
	}
	// Stopped before the first slot (a load of TE cut short): nothing
	// moved, every packet missing.
	stop.Store(false)
	n := 0
	_, err = RunWith(topology.Spec{Kind: "hypercube", D: 6}, "te", nil, 1, Options{Stop: &stop, Attach: func(k *kernel.Kernel) (kernel.Tracer, error) {
		n++
		stop.Store(true)
		return nil, nil
	}})
	if !errors.As(err, &in) || in.Result == nil || in.Slot != -1 || in.Result.Slots != 0 || len(in.Result.PerSlot) != 0 ||
		in.Result.Missing != 64*63 || in.Result.Deliveries != 0 || n != 1 {
		t.Errorf("TE stopped at its load: %v, %+v", err, in.Result)
	}
}

// Dynamic broadcasting interrupted gives the periods run: their
// deliveries checked, their transmissions those the tracer saw, and no
// stability verdict.
func TestInterruptedDynamic(t *testing.T) {
	var stop atomic.Bool
	var h *hopLog
	params := map[string]string{"task.periods": "100000", "task.rho": "0.5", "task.warmup": "10"}
	_, err := RunDynamicWith(topology.Spec{Kind: "hypercube", D: 3}, params, 1, Options{Stop: &stop, Attach: func(k *kernel.Kernel) (kernel.Tracer, error) {
		h = newHopLog(k)
		h.stopAt, h.stop = 500, &stop
		return h, nil
	}})
	var in *Interrupted
	if !errors.As(err, &in) || in.Dynamic == nil {
		t.Fatalf("err %v", err)
	}
	r := in.Dynamic
	if r.Status != StatusInterrupted || r.Periods != 100000 || r.PeriodsRun < 11 || r.PeriodsRun >= 500 || r.Transmissions != h.total ||
		!r.Delivered || r.Served == 0 || r.Verdict != "undecided" || r.Topology != "hypercube" || r.D != 3 {
		t.Errorf("partial result %+v", *r)
	}
}
