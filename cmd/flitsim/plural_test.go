package main

import (
	"strings"
	"testing"
)

func TestCount(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{count(1, "packet"), "1 packet"}, {count(0, "packet"), "0 packets"}, {count(int64(12), "flit"), "12 flits"},
		{count(uint64(1), "flit"), "1 flit"}, {countText("1", "cycle"), "1 cycle"}, {countText("1.5", "cycle"), "1.5 cycles"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// TestBatchOfOnePacket runs a batch of one packet per node: the table says
// so in the singular, and no "1 <noun>s" anywhere.
func TestBatchOfOnePacket(t *testing.T) {
	code, out, errs := runMain(t, "run", "--set", "switching=packet", "--set", "traffic.mode=batch", "--set", "traffic.h=1",
		"--set", "topology.kind=hypercube", "--set", "topology.d=3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "batch of 1 packet per node") || !strings.Contains(out, "max buffer occupancy") {
		t.Errorf("no \"batch of 1 packet per node\" in\n%s", out)
	}
	for _, bad := range []string{" 1 packets", " 1 flits", " 1 cycles", "(1 flits)"} {
		if strings.Contains(out, bad) {
			t.Errorf("%q in\n%s", bad, out)
		}
	}
}
