package link

import "testing"

func TestCarryOneFlitPerCycle(t *testing.T) {
	l := New(3)
	if l.Latency != 3 {
		t.Fatal("latency")
	}
	if !l.Carry(0) || !l.Carry(1) {
		t.Fatal("one flit per cycle must be accepted")
	}
	if l.Carry(1) {
		t.Fatal("second flit in cycle 1 must be flagged")
	}
	if l.Flits != 3 {
		t.Fatalf("flits = %d", l.Flits)
	}
	l.Reset()
	if l.Flits != 0 {
		t.Fatal("reset")
	}
}
