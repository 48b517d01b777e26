package xbar

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

// The switching rules: how much room a head needs and whether it waits for
// its tail, per mode.
func TestModeRules(t *testing.T) {
	for _, c := range []struct {
		m        Mode
		room     int
		waitTail bool
	}{{Wormhole, 1, false}, {VCT, 6, false}, {SAF, 1, true}} {
		if got := c.m.HeadRoom(6); got != c.room {
			t.Errorf("%v.HeadRoom(6) = %d, want %d", c.m, got, c.room)
		}
		if got := c.m.HeadWaitsForTail(); got != c.waitTail {
			t.Errorf("%v.HeadWaitsForTail() = %v, want %v", c.m, got, c.waitTail)
		}
	}
}
