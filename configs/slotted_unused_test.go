package configs

import (
	"strings"
	"testing"
)

// TestSlottedUnusedKeys: the slotted router's keys warn when another
// switching is chosen, and under switching: slotted the pattern keys the
// user wrote warn (traffic.p0 makes its packets), the embedded default's
// do not.
func TestSlottedUnusedKeys(t *testing.T) {
	_, warns, err := LoadWarn("", []string{"traffic.p0=0.3", "slotted.k=1", "csr.beta=0.5"})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(warns, "\n")
	for _, want := range []string{"traffic.p0: ignored (only switching: slotted reads it)", "slotted.k: ignored",
		"csr.beta: ignored (only switching: slotted with slotted.scheme: csr reads it)"} {
		if !strings.Contains(got, want) {
			t.Errorf("warnings %q lack %q", got, want)
		}
	}
	_, warns, err = LoadWarn("", []string{"topology.kind=hypercube", "topology.d=4", "switching=slotted", "traffic.p0=0.3", "traffic.load=0.5"})
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) != 1 || !strings.Contains(warns[0], "traffic.load: ignored (switching: slotted makes its packets by traffic.p0)") {
		t.Errorf("slotted run's warnings %q, want one about traffic.load", warns)
	}
}
