package trace

import (
	"bytes"
	"encoding/csv"
	"github.com/flitsim/flitsim/internal/kernel"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/network"
)

// The event log's names are single CSV fields (no quotes, no commas: cut -d,
// and awk -F, split it right) and each names a VCD scope of the same run.
func TestEventNamesAreVCDScopes(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  network.Config
	}{{"mesh r(x,y)", smallMesh()}, {"cube MIN s,i", chiangMIN()}} {
		t.Run(c.name, func(t *testing.T) {
			var ev, vc bytes.Buffer
			var e *Events
			var v *VCD
			runNet(t, c.cfg, func(n *network.Network) []network.Tracer {
				var err error
				if e, err = NewEvents(&ev, kernel.Of(n), CSV, Options{}); err != nil {
					t.Fatal(err)
				}
				if v, err = NewVCD(&vc, kernel.Of(n), Options{}); err != nil {
					t.Fatal(err)
				}
				return []network.Tracer{e, v}
			})
			e.Close()
			v.Close()
			checkEventNames(t, ev.Bytes(), readVCD(t, vc.Bytes()))
		})
	}
}

func checkEventNames(t *testing.T, log []byte, vf *vcdFile) {
	t.Helper()
	if bytes.ContainsRune(log, '"') {
		t.Fatal("the event log quotes a field")
	}
	rows, err := csv.NewReader(bytes.NewReader(log)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(log), "\n"), "\n")
	if len(rows) < 100 || len(rows) != len(lines) {
		t.Fatalf("%d rows, %d lines", len(rows), len(lines))
	}
	col := map[string]int{}
	for i, c := range EventColumns {
		col[c] = i
	}
	scope := func(name string) bool {
		name = strings.TrimSuffix(name, ".src") // a source register: its terminal's scope
		return vf.scopes["network/"+strings.ReplaceAll(name, ".", "/")]
	}
	seen := 0
	for i, r := range rows {
		if f := strings.Split(lines[i], ","); len(r) != len(EventColumns) || len(f) != len(r) {
			t.Fatalf("line %d: %d CSV fields, %d split at commas, want %d: %q", i+1, len(r), len(f), len(EventColumns), lines[i])
		}
		if i == 0 {
			continue
		}
		for _, c := range []string{"buffer", "to", "channel", "waiting_at", "switch"} {
			if n := r[col[c]]; n != "" {
				seen++
				if !scope(n) {
					t.Fatalf("line %d: %s %q is no VCD scope", i+1, c, n)
				}
			}
		}
	}
	if seen == 0 {
		t.Fatal("no names")
	}
	// cut -d, -f6 gives the buffer column.
	f := filepath.Join(t.TempDir(), "events.csv")
	if err := os.WriteFile(f, log, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("cut", "-d,", "-f", "6", f).Output()
	if err != nil {
		t.Fatalf("cut: %v", err)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	for i, r := range rows {
		if got[i] != r[col["buffer"]] {
			t.Fatalf("line %d: cut gives %q, the buffer is %q", i+1, got[i], r[col["buffer"]])
		}
	}
}
