package main

import (
	"strings"
	"testing"

	"github.com/flitsim/flitsim/network"
)

// Every printed ± says it is a 95 % confidence interval, and hops says what
// it counts.
func TestLabels(t *testing.T) {
	stubRun(t, func(c network.Config) (*network.Result, error) { return fakeResult(c), nil })
	_, out, _ := runMain(t, "run") // the fake result deadlocks: exit 3, the table is printed
	for _, want := range []string{"latency mean ± 95 % CI", "network latency mean ± 95 % CI", "12.5 ± 0.25 cycles", "hops (routers passed)"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	r := fakeResult(network.Default())
	r.Status, r.Offered, r.Throughput, r.ShortfallCI95 = network.StatusSaturated, 0.4, 0.31, 0.005
	if s := statusText(r); !strings.Contains(s, "(short by 0.09 ± 0.005, 95 % CI)") {
		t.Errorf("status text %q", s)
	}
}
