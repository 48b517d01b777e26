package network

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/traffic"
)

// TestWholePacketTrace: a trace or inline packet longer than a cut-through
// or store-and-forward buffer is refused like traffic.flits is, instead of
// being reported as a deadlock.
func TestWholePacketTrace(t *testing.T) {
	for _, tc := range []struct {
		mode, key string
		in, out   int
		packets   []string
		want      string
	}{
		{"saf", "buffers.input", 4, 0, []string{"0,1,5,16"},
			"buffers.input: 4 is not allowed (allowed: ≥ 16: saf buffers must hold a whole packet (the longest packet in traffic.packets has 16 flits))"},
		{"vct", "buffers.output", 0, 8, []string{"0,1,5,2", "3,2,6,9", "5,0,1,4"}, "buffers.output: 8 is not allowed (allowed: ≥ 9: "},
		{"flits", "buffers.input", 8, 0, nil, "buffers.input: 8 is not allowed (allowed: ≥ 16: saf buffers must hold a whole packet (traffic.flits max))"},
	} {
		c := Default()
		c.Switching, c.Buffers = tc.mode, BufferConfig{Input: tc.in, Output: tc.out}
		c.Traffic.Packets = tc.packets
		if tc.mode == "flits" {
			c.Switching, c.Traffic.Flits = "saf", FlitRange{Min: 16, Max: 16}
		}
		_, err := Build(c)
		var ce *inputerr.Error
		if !errors.As(err, &ce) || ce.Key != tc.key || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %v: %v, want %q", tc.mode, tc.packets, err, tc.want)
		}
	}
	// Packets that fit run, whatever traffic.flits says (a trace ignores it).
	c := Default()
	c.Switching, c.Buffers = "saf", BufferConfig{Input: 4}
	c.Traffic.Flits = FlitRange{Min: 32, Max: 32}
	c.Traffic.Packets = []string{"0,1,5,4", "0,2,6,3"}
	r, err := Run(c)
	if err != nil || r.DeliveredPackets != 2 || r.Deadlock != nil {
		t.Fatalf("fitting packets: %v %+v", err, r)
	}
}

// TestRunBounds: windows past the engine's exact clock, and a drain that
// would overflow, are refused.
func TestRunBounds(t *testing.T) {
	for _, tc := range []struct {
		set  func(*RunConfig)
		want string
	}{
		{func(r *RunConfig) { r.Measure = traffic.MaxCycle }, "run.measure: 140737488355328 is not allowed (allowed: an integer from 1 to 140737488354328"},
		{func(r *RunConfig) { r.Warmup = 1 << 62 }, "run.warmup: "},
		{func(r *RunConfig) { r.Drain = 1<<63 - 1 }, "run.drain: 9223372036854775807 is not allowed"},
	} {
		c := Default()
		tc.set(&c.Run)
		if err := Validate(&c); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", c.Run, err, tc.want)
		}
	}
}

// TestTracePastMaxCycle: the last cycle a trace may name is reached exactly
// (the engine skips the idle cycles before it), and one more is refused.
func TestTracePastMaxCycle(t *testing.T) {
	for _, cycle := range []string{"140737488355328", "140737488355327", "99999999999999", "70368744177664"} {
		c := Default()
		c.Traffic.Packets = []string{"0,0,1,2", cycle + ",1,5,4"}
		r, err := Run(c)
		if err != nil || r.DeliveredPackets != 2 || len(r.Deliveries) != 2 || r.Deliveries[1].Latency < 1 ||
			r.Deliveries[1].Latency > 20 || r.Deliveries[1].Generated != atoi64(t, cycle) {
			t.Errorf("packet at %s: %v %+v", cycle, err, r.Deliveries)
		}
	}
	c := Default()
	c.Traffic.Packets = []string{"140737488355329,1,5,4"}
	if _, err := Build(c); err == nil || !strings.Contains(err.Error(), "cycle 140737488355329 is not allowed") {
		t.Errorf("past MaxCycle: %v", err)
	}
	c.Traffic.Packets = []string{"# nothing but a comment"}
	if _, err := Build(c); err == nil || !strings.Contains(err.Error(), "traffic.packets: no packets") {
		t.Errorf("no packets: %v", err)
	}
}

func atoi64(t *testing.T, s string) int64 {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestFewPacketsWarning: packets so long at a load so low that the window
// expects almost none get a warning; ordinary runs none.
func TestFewPacketsWarning(t *testing.T) {
	c := Default()
	n, err := Build(c)
	if err != nil || len(n.Warnings()) != 0 {
		t.Fatalf("default: %v %q", err, n.Warnings())
	}
	c.Traffic.Flits = FlitRange{Min: 1000000, Max: 1000000}
	n, err = Build(c)
	if err != nil || len(n.Warnings()) != 1 || !strings.Contains(n.Warnings()[0],
		"traffic.flits 1000000: at load 0.2 the 64 terminals are expected to generate 0.128 packets in the 10000 measured cycles") {
		t.Fatalf("flits 1000000: %v %q", err, n.Warnings())
	}
	c.Traffic.Load = 0 // nothing offered, nothing to warn about
	if n, err = Build(c); err != nil || len(n.Warnings()) != 0 {
		t.Fatalf("load 0: %v %q", err, n.Warnings())
	}
}

// TestStopOn: a run stopped by its flag ends at the end of a cycle with the
// figures so far, marked interrupted; the same run without the flag is
// unchanged up to then.
func TestStopOn(t *testing.T) {
	c := Default()
	c.Topology = TopologyConfig{Kind: "mesh", K: 4, N: 2}
	c.Run.Warmup, c.Run.Measure = 100, 1_000_000
	var stop atomic.Bool
	n, err := Build(c)
	if err != nil {
		t.Fatal(err)
	}
	n.StopOn(&stop)
	n.stopAt = 0
	for !n.Done() {
		n.Cycle()
		n.skipIdle()
		if n.k.Now() == 5000 {
			stop.Store(true)
		}
	}
	r := n.Result()
	if !r.Interrupted || r.InterruptedAt == nil || *r.InterruptedAt != 5000 || r.Cycles != 5000 || r.Status != StatusInterrupted {
		t.Fatalf("interrupted run: cycles %d, interrupted %v at %v, status %q", r.Cycles, r.Interrupted, r.InterruptedAt, r.Status)
	}
	if r.DeliveredPackets == 0 || r.Latency.Count == 0 || !(r.Throughput > 0.15 && r.Throughput < 0.25) {
		t.Errorf("partial figures: delivered %d, measured %d, throughput %g", r.DeliveredPackets, r.Latency.Count, r.Throughput)
	}
	// The same run, stopped at the same cycle by stopAt, measured the same.
	m, _ := Build(c)
	m.stopAt = 5000
	want, _ := m.RunPlain()
	// (compared as text: a Summary with no interval holds NaN, never == itself)
	if want.DeliveredPackets != r.DeliveredPackets || fmt.Sprintf("%+v", want.Latency) != fmt.Sprintf("%+v", r.Latency) || want.Interrupted {
		t.Errorf("interrupted %+v, stopped at the same cycle %+v", r.Latency, want.Latency)
	}
	// Under Akita's engine, with the flag set before the first cycle.
	stop.Store(true)
	a, _ := Build(c)
	a.StopOn(&stop)
	if r, err := a.RunAkita(); err != nil || !r.Interrupted || r.Cycles != 0 {
		t.Errorf("stopped at once: %v %+v", err, r)
	}
}

// TestSAFLinkLatency: a store-and-forward head whose tail is already in its
// buffer, still on a link of latency ≥ 2, waits for it; it used to be a
// wait-for edge to its own buffer, a deadlock with no resources (found by
// FuzzRun).
func TestSAFLinkLatency(t *testing.T) {
	for _, lat := range []int{2, 3, 5} {
		c := Default()
		c.Topology = TopologyConfig{Kind: "mesh", K: 4, N: 2}
		c.Switching, c.Buffers, c.Link.Latency = "saf", BufferConfig{Input: 8}, lat
		c.Run.Warmup, c.Run.Measure = 100, 1000
		r, err := Run(c)
		if err != nil || r.Deadlock != nil || r.MeasuredDelivered != r.MeasuredPackets || r.MeasuredPackets < 100 {
			t.Errorf("latency %d: %v, deadlock %+v, measured %d of %d", lat, err, r.Deadlock, r.MeasuredDelivered, r.MeasuredPackets)
		}
	}
}

// TestRunPlainEndsLikeAkita: the plain loop stops where the Akita component
// does; it used to skip idle cycles after the last one, to the next packet
// due (cycles 629 instead of 159 here; found by FuzzRunKeys).
func TestRunPlainEndsLikeAkita(t *testing.T) {
	c := Default()
	c.Topology = TopologyConfig{Kind: "torus", K: 2, N: 1}
	c.Arbiter, c.Traffic.Pattern, c.Multicast.Scheme = "oldest", "bit-complement", "cmin"
	c.Buffers, c.Link.Latency, c.Switch.Delay = BufferConfig{Input: 2, Output: 3}, 3, 2
	c.Traffic.Flits, c.Traffic.Load = FlitRange{Min: 7, Max: 7}, 0.01875
	c.Run = RunConfig{Warmup: 50, Measure: 100, Drain: 100, Seed: 152, DeadlockCheck: 256, StallLimit: 300, Workers: 1}
	a, err := Run(c)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := Build(c)
	p, err := n.RunPlain()
	if err != nil || p.Cycles != a.Cycles || a.Cycles > 250 || p.DeliveredPackets != a.DeliveredPackets {
		t.Errorf("plain loop: %v, cycles %d, Akita %d (window and drain end at 250)", err, p.Cycles, a.Cycles)
	}
}

// TestSyncSelfDeadlockNamed: a synchronous worm that waits for space its own
// flits hold (1-flit buffers, no reuse) is reported with those waits as its
// resources; they used to be left out, an empty list (found by FuzzRunKeys).
func TestSyncSelfDeadlockNamed(t *testing.T) {
	c := Default()
	c.Topology = TopologyConfig{Kind: "cube", K: 4, N: 1}
	reuse := false
	c.Switch.Reuse = &reuse
	c.Buffers = BufferConfig{Output: 1}
	c.Multicast.Worm, c.Multicast.Encoding = "sync", "pseudo-ad"
	c.Traffic.Packets = []string{"0,1,0 2 3,4"}
	r, err := Run(c)
	if err != nil || r.Deadlock == nil {
		t.Fatalf("%v, deadlock %+v", err, r.Deadlock)
	}
	d := r.Deadlock
	if len(d.Worms) != 1 || len(d.Resources) == 0 || !strings.Contains(strings.Join(d.Resources, " "), "moves only with its branch") {
		t.Errorf("deadlock worms %+v, resources %q", d.Worms, d.Resources)
	}
}
