package link

import "testing"

func TestParseMode(t *testing.T) {
	for in, want := range map[string]Mode{"wormhole": Wormhole, "VCT": VCT, "saf": SAF, "store-and-forward": SAF} {
		got, err := ParseMode(in)
		if err != nil || got != want {
			t.Errorf("ParseMode(%q) = %v, %v", in, got, err)
		}
	}
	if _, err := ParseMode("circuit"); err == nil {
		t.Error("ParseMode(circuit) should fail")
	}
	for _, m := range []Mode{Wormhole, VCT, SAF} {
		if back, _ := ParseMode(m.String()); back != m {
			t.Errorf("round trip %v", m)
		}
	}
}

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
