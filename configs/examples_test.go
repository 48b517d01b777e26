package configs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/network"
)

// expectDeadlock begins the status line by which a shipped config says
// that its run ends in a deadlock (the scenario it demonstrates); every
// file's status line is checked in full by cmd/flitsim's
// TestShippedConfigStatus.
const expectDeadlock = "# status: deadlock"

// shippedConfigs lists every *.yaml under configs/ (this folder and its
// subfolders), so that a new example is tested without being listed.
func shippedConfigs(t testing.TB) []string {
	t.Helper()
	files, err := Shipped(".")
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// quick shortens a pattern-driven run to at most 500 warm-up and 3000
// measured cycles (and 20000 of drain): every shipped file then runs in
// well under a second. Inline packets and traces run as written.
func quick(c *network.Config) {
	if c.Traffic.Trace != "" || len(c.Traffic.Packets) > 0 {
		return
	}
	c.Run.Warmup = min(c.Run.Warmup, 500)
	c.Run.Measure = min(c.Run.Measure, 3000)
	c.Run.Drain = min(c.Run.Drain, 20000)
}

// TestEveryShippedConfigRuns loads and runs every config in configs/ and
// its subfolders (shortened by quick). A run must not fail or break an
// invariant; it must deliver packets, and it ends in a deadlock exactly
// when the file says so with a line "# status: deadlock (exit 3)".
func TestEveryShippedConfigRuns(t *testing.T) {
	files := shippedConfigs(t)
	want := []string{"default.yaml", filepath.Join("chiang", "fig4_8.yaml")}
	for _, f := range []string{"hypercube", "torus", "omega", "baseline", "butterfly", "cube", "esmin", "file_ring"} {
		want = append(want, filepath.Join("topologies", f+".yaml"))
	}
	for _, want := range want {
		found := false
		for _, f := range files {
			found = found || f == want
		}
		if !found {
			t.Errorf("configs/%s not found (have %q)", want, files)
		}
	}
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			t.Parallel()
			text, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			c, err := Load(f, nil)
			if err != nil {
				t.Fatal(err)
			}
			quick(&c)
			r, err := network.Run(c)
			if err != nil {
				t.Fatal(err)
			}
			if r.Violations.Total() > 0 {
				t.Errorf("invariant violations: %+v", r.Violations)
			}
			deadlock := strings.Contains(string(text), expectDeadlock)
			switch {
			case deadlock && r.Deadlock == nil:
				t.Errorf("the file says %q but the run ended %s", expectDeadlock, r.Status)
			case !deadlock && r.Deadlock != nil:
				t.Errorf("deadlock at cycle %d (%v); a file that demonstrates one says %q", r.Deadlock.Cycle, r.Deadlock.Resources, expectDeadlock)
			case !deadlock && r.DeliveredPackets == 0:
				t.Errorf("nothing delivered (status %s)", r.Status)
			}
		})
	}
}
