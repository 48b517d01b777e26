package configs

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
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
	n.K.Hooks.Ejected = func(w *flit.Worm, term int32, f flit.Flit, cycle int64) {
		if _, ok := a.first[term]; !ok && w.Dests > 1 {
			a.first[term] = cycle
		}
	}
	n.K.Hooks.Delivered = func(w *flit.Worm, cycle int64) { a.delivered[w.ID] = cycle }
	r, err := n.RunPlain()
	if err != nil {
		t.Fatal(err)
	}
	if v := n.K.Violations; v.Total() != 0 {
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
		loc = n.K.Locate(0, 0, loc[:0])
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

// Fig 4.4: asynchronous worms T0 and T6 deadlock; the same traffic with
// synchronous worms and a proper priority completes (Lemma 1).
func TestChiangFig44(t *testing.T) {
	if got := deadlockedWorms(t, scenario(t, "fig4_4.yaml")); !slices.Equal(got, []uint64{2, 3}) {
		t.Fatalf("async: deadlocked worms %v, want T0 and T6 (2, 3)", got)
	}
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

// Fig 4.7: three synchronous worms with all-destination headers deadlock at
// s1,2, s1,4 and s3,14; pseudo all-destination headers complete.
func TestChiangFig47(t *testing.T) {
	n := scenario(t, "fig4_7.yaml")
	r, _ := run(t, n)
	if r.Deadlock == nil || len(r.Deadlock.Worms) != 3 {
		t.Fatalf("deadlock %+v, want the three worms", r.Deadlock)
	}
	for _, sw := range []string{"s1,2", "s1,4", "s3,14"} {
		if !slices.Contains(r.Deadlock.Switches, sw) {
			t.Fatalf("deadlock switches %v lack %s", r.Deadlock.Switches, sw)
		}
	}
	if got := deadlockedWorms(t, scenario(t, "fig4_7_pseudo.yaml")); got != nil {
		t.Fatalf("pseudo all-destination: deadlock %v", got)
	}
}

// Fig 4.1: a path-based worm of 4 flits or more blocks itself; shorter ones
// complete.
func TestChiangFig41(t *testing.T) {
	for flits := 1; flits <= 8; flits++ {
		set := fmt.Sprintf("traffic.packets=0,0,4 8 9,%d", flits)
		got := deadlockedWorms(t, scenario(t, "fig4_1.yaml", set))
		if dead := got != nil; dead != (flits >= 4) {
			t.Fatalf("%d flits: deadlock %v, want deadlock iff ≥ 4 flits", flits, got)
		}
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
