package network

import (
	"testing"
)

// TestJudge: the rule on made-up results, one field at a time.
func TestJudge(t *testing.T) {
	base := Result{MeasuredPackets: 100, MeasuredDelivered: 100, Offered: 0.3, Throughput: 0.29, ShortfallCI95: 0.02}
	for _, c := range []struct {
		name       string
		edit       func(r *Result)
		status     string
		sat, incom bool
	}{
		{"within the interval", func(*Result) {}, StatusOK, false, false},
		{"short beyond the interval", func(r *Result) { r.Throughput = 0.27 }, StatusSaturated, true, false},
		{"no interval (a trace)", func(r *Result) { r.Throughput, r.ShortfallCI95 = 0.1, -1 }, StatusOK, false, false},
		{"stopped by the backlog", func(r *Result) { r.BacklogStop = &BacklogStop{Cycle: 9} }, StatusSaturated, true, false},
		{"undelivered", func(r *Result) { r.MeasuredDelivered = 99 }, StatusIncomplete, false, true},
		{"saturated and undelivered", func(r *Result) { r.MeasuredDelivered, r.Throughput = 99, 0.2 }, StatusSaturated, true, true},
		{"deadlock", func(r *Result) { r.MeasuredDelivered, r.Deadlock = 70, &Deadlock{} }, StatusDeadlock, false, true},
		{"stall", func(r *Result) { r.Stall, r.Throughput = &Stall{}, 0 }, StatusStall, true, false},
		{"interrupted", func(r *Result) { r.Interrupted, r.Deadlock = true, &Deadlock{} }, StatusInterrupted, false, false},
	} {
		r := base
		c.edit(&r)
		Judge(&r)
		if r.Status != c.status || r.Saturated != c.sat || r.Incomplete != c.incom {
			t.Errorf("%s: status %q saturated %v incomplete %v, want %q %v %v", c.name, r.Status, r.Saturated, r.Incomplete, c.status, c.sat, c.incom)
		}
	}
}

// runCfg runs c to the end and fails the test on an error.
func runCfg(t *testing.T, c Config) *Result {
	t.Helper()
	r, err := Run(c)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestSaturationRule runs both sides of the rule: the 8×8 mesh accepts
// about 0.31 flits/node/cycle of uniform traffic, so load 0.2 is well below
// saturation and 0.5 well above it (here without the backlog stop, so that
// the shortfall's interval alone decides). A 1024-node hypercube at load
// 0.2 delivers everything with an interval a hundred times tighter, and
// is not called saturated (d=16 takes minutes; see docs/statistics.md for its run).
func TestSaturationRule(t *testing.T) {
	c := Default()
	c.Run.Warmup, c.Run.Measure = 500, 4000
	r := runCfg(t, c)
	if r.Status != StatusOK || r.Saturated || r.Incomplete || r.ShortfallCI95 <= 0 {
		t.Errorf("load 0.2: status %s, saturated %v, incomplete %v, ci %g", r.Status, r.Saturated, r.Incomplete, r.ShortfallCI95)
	}
	c.Traffic.Load, c.Run.MaxBacklog, c.Run.Drain = 0.5, 0, 2000
	r = runCfg(t, c)
	if r.Status != StatusSaturated || !r.Saturated || r.BacklogStop != nil || r.Offered-r.Throughput < 10*r.ShortfallCI95 {
		t.Errorf("load 0.5: status %s, offered %g, accepted %g ± %g, backlog stop %v",
			r.Status, r.Offered, r.Throughput, r.ShortfallCI95, r.BacklogStop)
	}

	h := Default()
	h.Topology = TopologyConfig{Kind: "hypercube", D: 10}
	h.Run.Warmup, h.Run.Measure = 300, 2000
	r = runCfg(t, h)
	if r.Status != StatusOK || r.Saturated || r.MeasuredDelivered != r.MeasuredPackets || r.ShortfallCI95 <= 0 || r.ShortfallCI95 > 0.002 {
		t.Errorf("hypercube d=10: status %s, offered %g, accepted %g ± %g", r.Status, r.Offered, r.Throughput, r.ShortfallCI95)
	}
}

// TestIncompleteNotSaturated: with no drain the packets still in flight at
// the window's end are measured and not delivered: incomplete, although
// the network accepted all it was offered.
func TestIncompleteNotSaturated(t *testing.T) {
	c := Default()
	c.Run.Warmup, c.Run.Measure, c.Run.Drain = 500, 2000, 0
	r := runCfg(t, c)
	if r.Status != StatusIncomplete || r.Saturated || !r.Incomplete || r.MeasuredDelivered >= r.MeasuredPackets {
		t.Errorf("status %s, saturated %v, %d of %d delivered", r.Status, r.Saturated, r.MeasuredDelivered, r.MeasuredPackets)
	}
}

// TestBacklogStop: an overloaded open-loop run stops once its backlog
// passes run.max_backlog packets per terminal, reports what it accepted,
// and holds no more packets than the limit allows; below saturation the
// limit is never reached.
func TestBacklogStop(t *testing.T) {
	c := Default()
	c.Traffic.Load = 1
	r := runCfg(t, c)
	b := r.BacklogStop
	limit := c.Run.MaxBacklog * int64(r.Terminals)
	if b == nil || r.Status != StatusSaturated || b.Limit != limit || b.Packets <= limit || b.Packets > limit+int64(r.Terminals) ||
		r.Backlog != b.Packets || r.Cycles != b.Cycle+1 {
		t.Fatalf("load 1: status %s, backlog stop %+v (limit %d), backlog %d, cycles %d", r.Status, b, limit, r.Backlog, r.Cycles)
	}
	// Stopped in the warm-up: offered and accepted are the whole run's.
	if r.Cycles >= c.Run.Warmup || r.Offered < 0.9 || r.Throughput < 0.2 || r.Throughput > 0.4 {
		t.Errorf("load 1: stopped at %d, offered %g, accepted %g", r.Cycles, r.Offered, r.Throughput)
	}
	c.Traffic.Load = 0.3 // just below saturation: long queues, bounded
	c.Run.Measure = 5000
	n, err := Build(c)
	if err != nil {
		t.Fatal(err)
	}
	peak := 0
	for !n.Done() {
		n.Cycle()
		peak = max(peak, n.k.Pool.Live())
	}
	if r := n.Result(); r.BacklogStop != nil || r.Status != StatusOK || int64(peak) > limit/4 {
		t.Errorf("load 0.3: status %s, backlog stop %+v, peak %d packets (limit %d)", r.Status, r.BacklogStop, peak, limit)
	}
	c.Traffic.Load, c.Run.MaxBacklog = 1, -1
	if err := Validate(&c); err == nil || err.Error() != "run.max_backlog: -1 is not allowed (allowed: an integer ≥ 0 (packets per terminal; 0: no limit))" {
		t.Errorf("max_backlog -1: %v", err)
	}
}
