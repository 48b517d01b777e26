package verify

import (
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/flitsim/flitsim/network/topology"
)

// RunStop returns soon after its stop flag is set, with the rows measured,
// a row marked interrupted for each claim being measured (those ignore the
// flag here: they block until the test ends) and the claims not run
// counted.
func TestRunStop(t *testing.T) {
	release := make(chan struct{})
	quick := make(chan struct{})
	add := func(c Claim) {
		Register(c)
		t.Cleanup(func() { mu.Lock(); delete(claims, c.ID); mu.Unlock() })
	}
	add(Claim{ID: "zz-stop-a", Tier: TierFull, Measure: func() (string, bool, error) {
		close(quick)
		return "1", true, nil
	}})
	const blocking = 5
	for _, id := range []string{"zz-stop-b", "zz-stop-c", "zz-stop-d", "zz-stop-e", "zz-stop-f"} {
		add(Claim{ID: id, Tier: TierFull, Measure: func() (string, bool, error) {
			<-release
			return "never", true, nil
		}})
	}
	defer close(release)
	defer stopFlag.Store(nil) // (RunStop leaves it for the claims cut short)
	var stop atomic.Bool
	type res struct {
		rows []Row
		err  error
	}
	done := make(chan res, 1)
	go func() { r, err := RunStop("zz-stop-", &stop); done <- res{r, err} }()
	<-quick
	time.Sleep(200 * time.Millisecond) // (RunStop takes in the quick row)
	t0 := time.Now()
	stop.Store(true)
	var r res
	select {
	case r = <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("RunStop did not return within 5 s of the stop")
	}
	if d := time.Since(t0); d > time.Second {
		t.Errorf("RunStop returned %v after the stop", d)
	}
	var ie *InterruptedError
	if !errors.As(r.err, &ie) {
		t.Fatalf("error %v, want an *InterruptedError", r.err)
	}
	running := min(runtime.GOMAXPROCS(0), blocking)
	want := InterruptedError{Claims: 1 + blocking, Done: 1, CutShort: running}
	if *ie != want || len(r.rows) != 1+running {
		t.Fatalf("%+v with %d rows, want %+v", *ie, len(r.rows), want)
	}
	if r.rows[0].ID != "zz-stop-a" || r.rows[0].Status != Pass {
		t.Errorf("first row %+v", r.rows[0])
	}
	for _, row := range r.rows[1:] {
		if row.Status != Interrupted || row.Measured == "never" {
			t.Errorf("row cut short: %+v", row)
		}
	}
}

// A simulation the stop flag interrupts makes its row interrupted, not
// failed.
func TestMeasureInterrupted(t *testing.T) {
	r := measure(Claim{ID: "x", Measure: func() (string, bool, error) { return "", false, ErrInterrupted }})
	if r.Status != Interrupted {
		t.Errorf("status %s", r.Status)
	}
}

// A batch of experiments stops within a cycle of RunStop's flag: its
// simulation returns ErrInterrupted, where it would run a million
// experiments.
func TestSimulateStops(t *testing.T) {
	var stop atomic.Bool
	stop.Store(true)
	stopFlag.Store(&stop)
	defer stopFlag.Store(nil)
	c := multiConfig("multi-write", 6)
	c.Traffic.Combine, c.Run.Experiments = "or", 1_000_000
	t0 := time.Now()
	if _, err := simulateStoppable(c); !errors.Is(err, ErrInterrupted) {
		t.Fatalf("error %v, want ErrInterrupted", err)
	}
	if d := time.Since(t0); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}

// A collective claim's run stops at RunStop's flag: TE on the 12-cube
// (2048 slots, a minute) returns ErrInterrupted at once.
func TestCollectiveStops(t *testing.T) {
	var stop atomic.Bool
	stop.Store(true)
	stopFlag.Store(&stop)
	defer stopFlag.Store(nil)
	t0 := time.Now()
	if _, err := runCollective(topology.Spec{Kind: "hypercube", D: 12}, "te", nil, 1); !errors.Is(err, ErrInterrupted) {
		t.Fatalf("error %v, want ErrInterrupted", err)
	}
	if d := time.Since(t0); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}
