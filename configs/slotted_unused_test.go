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
	_, warns, err := LoadWarn("", []string{"traffic.p0=0.3", "slotted.k=1"})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(warns, "\n")
	for _, want := range []string{"traffic.p0: ignored (only switching: slotted reads it)", "slotted.k: ignored"} {
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

// TestCSRUnusedKeys: the csr.* keys warn under another scheme (and
// csr.retry under csr.fresh), and are silent under slotted.scheme: csr.
func TestCSRUnusedKeys(t *testing.T) {
	base := []string{"topology.kind=hypercube", "topology.d=4", "switching=slotted", "traffic.p0=0.3"}
	_, warns, err := LoadWarn("", append(base, "csr.beta=2", "csr.k=1"))
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(warns, "\n")
	for _, want := range []string{"csr.beta: ignored (only slotted.scheme: csr reads it)", "csr.k: ignored"} {
		if !strings.Contains(got, want) {
			t.Errorf("warnings %q lack %q", got, want)
		}
	}
	_, warns, err = LoadWarn("", append(base, "slotted.scheme=csr", "csr.beta=2", "csr.k=1", "csr.retry=0.5"))
	if err != nil || len(warns) != 0 {
		t.Errorf("csr run: warnings %q, error %v; want none", warns, err)
	}
	_, warns, err = LoadWarn("", append(base, "slotted.scheme=csr", "csr.fresh=true", "csr.retry=0.5"))
	if err != nil || len(warns) != 1 || !strings.Contains(warns[0], "csr.retry: ignored (csr.fresh") {
		t.Errorf("csr.fresh run: warnings %q, error %v; want one about csr.retry", warns, err)
	}
}
