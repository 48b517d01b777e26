package inputerr

import (
	"fmt"
	"testing"
)

func TestMessages(t *testing.T) {
	cases := []struct {
		err  *Error
		want string
	}{
		{New("topology.k", 1, "an integer from 2 to %d", 64), "topology.k: 1 is not allowed (allowed: an integer from 2 to 64)"},
		{New("switching", "", "wormhole, vct, saf"), `switching: "" is not allowed (allowed: wormhole, vct, saf)`},
		{New("traffic.load", 2, "a number from 0 to 1").At("x.yaml:3"), "x.yaml:3: traffic.load: 2 is not allowed (allowed: a number from 0 to 1)"},
		{New("run.seed", `"a"`, "a non-negative integer").At(CommandLine), `--set run.seed: "a" is not allowed (allowed: a non-negative integer)`},
		{&Error{Key: "traffic.lod", Problem: "unknown key", Allowed: "keys in traffic: load", Pos: CommandLine}, "--set traffic.lod: unknown key (allowed keys in traffic: load)"},
		{&Error{Key: "run.seed", Problem: "key given twice", Pos: "f.yaml:9"}, "f.yaml:9: run.seed: key given twice"},
		{New("x", "50%", "no args: 100%"), "x: 50% is not allowed (allowed: no args: 100%)"},
	}
	for _, c := range cases {
		if got := c.err.Error(); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
	wrapped := fmt.Errorf("point 3: %w", New("k", 1, "2"))
	if e, ok := As(wrapped); !ok || e.Key != "k" {
		t.Errorf("As(%v) = %v, %v", wrapped, e, ok)
	}
}
