package kernel

import (
	"sync/atomic"
	"testing"
	"time"
)

// TestCrewWaitSleeps: a wait whose condition stays false sleeps at its
// gate once it has spun for its time (it does not hold the processor the
// other side may need) and returns once the other side makes the
// condition true and opens the gate.
func TestCrewWaitSleeps(t *testing.T) {
	g := newGate()
	var flag atomic.Bool
	done := make(chan struct{})
	go func() {
		wait(flag.Load, stepSpin, g)
		close(done)
	}()
	deadline := time.Now().Add(5 * time.Second)
	for !g.asleep.Load() {
		if time.Now().After(deadline) {
			t.Fatal("the wait did not sleep within 5 s (it spins)")
		}
		time.Sleep(time.Millisecond)
	}
	flag.Store(true)
	g.open()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the wait did not return after its gate was opened")
	}
}

// TestCrewGateLosesNoWake passes a token back and forth between two
// goroutines many times, each waiting with a spin too short to catch the
// other; every 64th pass waits until the other side is asleep at its gate,
// so the sleeps and wakes are exercised. A lost wake would leave both
// asleep (the test times out).
func TestCrewGateLosesNoWake(t *testing.T) {
	const rounds = 20000
	var turn atomic.Int64 // even: a's turn, odd: b's
	gates := [2]*gate{newGate(), newGate()}
	stuck := make(chan string, 2)
	side := func(me int) {
		other := gates[1-me]
		for i := int64(me); i < 2*rounds; i += 2 {
			wait(func() bool { return turn.Load() == i }, time.Nanosecond, gates[me])
			if i%128 < 2 {
				for deadline := time.Now().Add(5 * time.Second); !other.asleep.Load(); time.Sleep(10 * time.Microsecond) {
					if time.Now().After(deadline) {
						stuck <- "the other side did not sleep"
						return
					}
				}
			}
			turn.Store(i + 1)
			other.open()
		}
		stuck <- ""
	}
	go side(1)
	go side(0)
	for range 2 {
		select {
		case s := <-stuck:
			if s != "" {
				t.Fatal(s)
			}
		case <-time.After(60 * time.Second):
			t.Fatalf("stuck at turn %d of %d: a wake was lost", turn.Load(), 2*rounds)
		}
	}
}
