package configs

import (
	"fmt"
	"github.com/flitsim/flitsim/internal/kernel"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/network"
)

// scenario loads a config of configs/chiang and builds it.
func scenario(t *testing.T, name string, sets ...string) *network.Network {
	t.Helper()
	c, err := Load(filepath.Join("chiang", name), sets)
	if err != nil {
		t.Fatal(err)
	}
	n, err := network.Build(c)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// arrivals runs n to the end and records the cycle each terminal first
// received a flit of each multicast (worms with several destinations), and
// the cycle each worm was delivered.
type arrivals struct {
	first     map[int32]int64 // terminal → first multicast flit
	delivered map[uint64]int64
}

func run(t *testing.T, n *network.Network) (*network.Result, arrivals) {
	t.Helper()
	a := arrivals{first: map[int32]int64{}, delivered: map[uint64]int64{}}
	kernel.Of(n).Hooks.Ejected = func(w *flit.Worm, term int32, f flit.Flit, cycle int64) {
		if _, ok := a.first[term]; !ok && w.Dests > 1 {
			a.first[term] = cycle
		}
	}
	kernel.Of(n).Hooks.Delivered = func(w *flit.Worm, cycle int64) { a.delivered[w.ID] = cycle }
	r, err := n.RunPlain()
	if err != nil {
		t.Fatal(err)
	}
	if v := kernel.Of(n).Violations; v.Total() != 0 {
		t.Fatalf("invariant violations %+v", v)
	}
	return r, a
}

// Fig 4.2: the header advances one stage per cycle into every branch.
func TestChiangFig42HeaderTiming(t *testing.T) {
	n := scenario(t, "fig4_2.yaml")
	want := [][]string{{"s2,2"}, {"s1,0", "s1,2"}, {"s0,1", "s0,2", "s0,3"}}
	var loc []network.Location
	for cycle := 1; cycle <= 3; cycle++ {
		if cycle == 1 {
			n.Cycle() // generation and first move happen in cycle 1
		} else {
			n.Cycle()
		}
		loc = kernel.Of(n).Locate(0, 0, loc[:0])
		got := map[string]bool{}
		for _, l := range loc {
			got[l.Label] = true
		}
		for _, sw := range want[cycle-1] {
			if !got[sw] {
				t.Fatalf("cycle %d: header in %v, want %v", cycle, loc, want[cycle-1])
			}
		}
		if len(got) != len(want[cycle-1]) {
			t.Fatalf("cycle %d: header in %v, want only %v", cycle, got, want[cycle-1])
		}
	}
}

// Figs 4.3 and 4.5: an asynchronous worm's free branches go on past a
// blocked one; a synchronous worm holds every branch.
func TestChiangFig43And45(t *testing.T) {
	_, async := run(t, scenario(t, "fig4_3.yaml"))
	_, sync := run(t, scenario(t, "fig4_5.yaml"))
	unicastDone := async.delivered[1]
	if unicastDone == 0 || sync.delivered[1] != unicastDone {
		t.Fatalf("unicast delivered at %d (async run) and %d (sync run)", unicastDone, sync.delivered[1])
	}
	for _, d := range []int32{3, 6, 7} {
		if async.first[d] == 0 || async.first[d] >= unicastDone {
			t.Errorf("async: node %d first got the multicast at %d, the unicast finished at %d", d, async.first[d], unicastDone)
		}
	}
	for _, d := range []int32{4, 5} {
		if async.first[d] <= unicastDone-1 {
			t.Errorf("async: node %d got the multicast at %d, before the unicast finished at %d", d, async.first[d], unicastDone)
		}
	}
	for d := int32(3); d <= 7; d++ {
		if sync.first[d] <= unicastDone-1 {
			t.Errorf("sync: node %d got the multicast at %d, before the unicast finished at %d", d, sync.first[d], unicastDone)
		}
	}
}

// deadlockedWorms runs n and returns the IDs of the worms in the reported
// deadlock (nil if the run completed).
func deadlockedWorms(t *testing.T, n *network.Network) []uint64 {
	t.Helper()
	r, _ := run(t, n)
	if r.Deadlock == nil {
		if r.MeasuredDelivered != r.MeasuredPackets {
			t.Fatalf("no deadlock, but %d of %d packets delivered", r.MeasuredDelivered, r.MeasuredPackets)
		}
		return nil
	}
	var ids []uint64
	for _, w := range r.Deadlock.Worms {
		ids = append(ids, w.ID)
	}
	slices.Sort(ids)
	return ids
}

// wantEdges runs n and checks that it deadlocks with exactly the waits
// (the wait-for edges between worms, in cycle order from the first listed)
// given, in the cycle given.
func wantEdges(t *testing.T, n *network.Network, cycle int64, edges ...string) {
	t.Helper()
	r, _ := run(t, n)
	if r.Deadlock == nil {
		t.Fatalf("no deadlock (%d of %d packets delivered), want waits %q", r.MeasuredDelivered, r.MeasuredPackets, edges)
	}
	got := r.Deadlock.Resources
	if i := slices.Index(got, edges[0]); i > 0 { // the report may start the cycle at any wait
		got = append(slices.Clone(got[i:]), got[:i]...)
	}
	if !slices.Equal(got, edges) {
		t.Fatalf("waits\n  %s\nwant\n  %s", strings.Join(r.Deadlock.Resources, "\n  "), strings.Join(edges, "\n  "))
	}
	if r.Deadlock.Cycle != cycle {
		t.Fatalf("deadlock found in cycle %d, want %d", r.Deadlock.Cycle, cycle)
	}
}

// Fig 4.4: asynchronous worms T0 and T6 deadlock, each holding the G_1
// buffers the other needs (digest §3.3: T0 waits for s_12's buffers 4, 5,
// held by T6; T6 waits for s_16's buffers 12, 13, held by T0); the same
// traffic with synchronous worms and a proper priority completes (Lemma 1).
func TestChiangFig44(t *testing.T) {
	wantEdges(t, scenario(t, "fig4_4.yaml"), 16,
		"worm 2 (0→{2,4,6,8,10,12,14}) at s2,0.out[1] waits for port s1,2.out[0] held by worm 3",
		"worm 3 (6→{5,7,13,15}) at s2,6.out[1] waits for port s1,6.out[0] held by worm 2")
	if got := deadlockedWorms(t, scenario(t, "fig4_4.yaml", "multicast.worm=sync", "arbiter=upper-first")); got != nil {
		t.Fatalf("sync, upper-first: deadlock %v", got)
	}
}

// Fig 4.6: grabbing what is free deadlocks T2 and T8; upper-channel-first
// does not.
func TestChiangFig46(t *testing.T) {
	if got := deadlockedWorms(t, scenario(t, "fig4_6.yaml")); !slices.Equal(got, []uint64{1, 2}) {
		t.Fatalf("grab: deadlocked worms %v, want T2 and T8", got)
	}
	for _, arb := range []string{"upper-first", "source", "clock"} {
		if got := deadlockedWorms(t, scenario(t, "fig4_6.yaml", "arbiter="+arb)); got != nil {
			t.Fatalf("%s: deadlock %v", arb, got)
		}
	}
}

// Fig 4.7: three synchronous worms with all-destination headers deadlock
// with the thesis's waits (digest §5.1 item 7): T6 for T12 at s1,2 port 0
// (G_1 address 4), T12 for T30 at s1,4 port 0 (address 8), T30 for T6 at
// s3,14 port 0 (address 28), after T12 has made 5 moves and T30 and T6 4:
// in the sixth cycle, which the kernel numbers 5 (see fig4_7.yaml). Pseudo
// all-destination headers complete.
func TestChiangFig47(t *testing.T) {
	n := scenario(t, "fig4_7.yaml")
	var loc []network.Location
	for range 5 {
		n.Cycle()
	}
	for wi, want := range []string{"s0,2", "s1,4", "s1,0"} { // T12, T30, T6 heads after 5, 4, 4 moves
		if loc = kernel.Of(n).Locate(int32(wi), 0, loc[:0]); len(loc) == 0 || loc[0].Label != want {
			t.Fatalf("after 5 cycles worm %d's header is in %v, want %s", wi+1, loc, want)
		}
	}
	wantEdges(t, n, 5,
		"worm 3 (6→{2,5,21}) at s2,2.out[1] waits for port s1,2.out[0] held by worm 1",
		"worm 1 (12→{4,6,8,24,25}) at s2,4.out[0] waits for port s1,4.out[0] held by worm 2",
		"worm 2 (30→{9,10,11,16}) at s4,14.out[1] waits for port s3,14.out[0] held by worm 3")
	if got := deadlockedWorms(t, scenario(t, "fig4_7_pseudo.yaml")); got != nil {
		t.Fatalf("pseudo all-destination: deadlock %v", got)
	}
}

// Fig 4.1: a path-based worm of 4 flits or more blocks itself: its head,
// on the 8→9 segment in s3,0's port-1 buffer, waits for s2,4's port 0
// (address 8), which the worm holds on the 4→8 segment (digest §3.6), in
// cycle 9 whatever its length. Shorter worms complete.
func TestChiangFig41(t *testing.T) {
	for flits := 1; flits <= 8; flits++ {
		n := scenario(t, "fig4_1.yaml", fmt.Sprintf("traffic.packets=0,0,4 8 9,%d", flits))
		if flits < 4 {
			if got := deadlockedWorms(t, n); got != nil {
				t.Fatalf("%d flits: deadlock %v", flits, got)
			}
			continue
		}
		wantEdges(t, n, 9, "worm 1 (0→{4,8,9}) at s3,0.out[1] waits for port s2,4.out[0] held by worm 1")
	}
}

// The Fig 4.8–4.12 simulation configs load (from the folder and embedded,
// identically) and run; a short window keeps the test fast.
func TestChiangSimulationConfigs(t *testing.T) {
	for _, name := range []string{"fig4_8.yaml", "fig4_9.yaml", "fig4_10.yaml", "fig4_11.yaml", "fig4_12.yaml"} {
		c, err := Load(filepath.Join("chiang", name), nil)
		if err != nil {
			t.Fatal(err)
		}
		e, err := LoadChiang(name, nil)
		if err != nil || !reflect.DeepEqual(c, e) {
			t.Fatalf("%s: embedded copy differs or fails: %v", name, err)
		}
		if !slices.Contains(ChiangFiles(), name) {
			t.Fatalf("%s not listed by ChiangFiles", name)
		}
		for _, scheme := range []string{"hardware", "cmin"} {
			c, err := LoadChiang(name, []string{"multicast.scheme=" + scheme, "run.warmup=500", "run.measure=3000"})
			if err != nil {
				t.Fatal(err)
			}
			r, err := network.Run(c)
			if err != nil {
				t.Fatal(err)
			}
			if r.Deadlock != nil || r.Incomplete || r.MeasuredDelivered == 0 || r.MeasuredDelivered != r.MeasuredPackets {
				t.Errorf("%s %s: %d of %d messages, deadlock %v", name, scheme, r.MeasuredDelivered, r.MeasuredPackets, r.Deadlock)
			}
		}
	}
}
