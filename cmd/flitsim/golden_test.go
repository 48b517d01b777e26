package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden corpus files in testdata/golden")

const goldenDir = "testdata/golden"

// statusFile lists every corpus run's exit status (and stderr, if any), one
// line each, so that a change of exit status shows in its diff.
var statusFile = filepath.Join(goldenDir, "status.txt")

// TestGoldenCorpus runs every entry of corpus() as the CLI would and checks
// its JSON output byte for byte against testdata/golden/NAME.json and its
// exit status against testdata/golden/status.txt. With -update it rewrites
// them instead.
func TestGoldenCorpus(t *testing.T) {
	runs := corpus()
	outs := map[string]string{}
	var status strings.Builder
	for _, r := range runs {
		if _, dup := outs[r.name]; dup {
			t.Fatalf("corpus run %q listed twice", r.name)
		}
		code, out, errOut := runMain(t, r.args...)
		if !strings.HasPrefix(out, "{") {
			t.Errorf("%s: exit %d, no JSON on stdout (stderr %q)", r.name, code, errOut)
		}
		outs[r.name] = out
		fmt.Fprintf(&status, "%s exit %d", r.name, code)
		if errOut != "" {
			fmt.Fprintf(&status, " stderr %s", strconv.Quote(errOut))
		}
		status.WriteString("\n")
	}
	checkWorkers(t, outs)
	if *update {
		writeGolden(t, outs, status.String())
		return
	}
	for _, r := range runs {
		compareGolden(t, r.name, filepath.Join(goldenDir, r.name+".json"), outs[r.name])
	}
	compareGolden(t, "exit statuses", statusFile, status.String())
	checkOrphans(t, outs)
}

// checkWorkers checks that the runs differing only in run.workers print the
// same JSON but for the echoed run.workers value.
func checkWorkers(t *testing.T, outs map[string]string) {
	t.Helper()
	re := regexp.MustCompile(`"workers": \d+`)
	for _, pair := range [][2]string{{"workers-1", "workers-2"}, {"workers-1-long", "workers-0"}} {
		want := re.ReplaceAllString(outs[pair[0]], `"workers": N`)
		if got := re.ReplaceAllString(outs[pair[1]], `"workers": N`); got != want {
			t.Errorf("%s differs from %s beyond run.workers: %s", pair[1], pair[0], firstDiff(want, got))
		}
	}
}

func writeGolden(t *testing.T, outs map[string]string, status string) {
	t.Helper()
	old, _ := filepath.Glob(filepath.Join(goldenDir, "*.json"))
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(goldenDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, out := range outs {
		if err := os.WriteFile(filepath.Join(goldenDir, name+".json"), []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(statusFile, []byte(status), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %d golden files and %s", len(outs), statusFile)
}

func compareGolden(t *testing.T, name, path, got string) {
	t.Helper()
	want, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("%s: no golden file (%v); run go test ./cmd/flitsim -run TestGoldenCorpus -update", name, err)
		return
	}
	if string(want) != got {
		t.Errorf("%s: output differs from %s: %s", name, path, firstDiff(string(want), got))
	}
}

// checkOrphans fails for a golden file without a corpus entry.
func checkOrphans(t *testing.T, outs map[string]string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(goldenDir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var orphans []string
	for _, f := range files {
		if _, ok := outs[strings.TrimSuffix(filepath.Base(f), ".json")]; !ok {
			orphans = append(orphans, f)
		}
	}
	sort.Strings(orphans)
	if len(orphans) > 0 {
		t.Errorf("golden files without a corpus entry (delete them or run -update): %s", strings.Join(orphans, ", "))
	}
}

// firstDiff describes the first line where want and got differ.
func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g || (i >= len(wl)) != (i >= len(gl)) {
			return fmt.Sprintf("line %d: want %q, got %q", i+1, strings.TrimSpace(w), strings.TrimSpace(g))
		}
	}
	if !bytes.Equal([]byte(want), []byte(got)) {
		return "same lines, different bytes"
	}
	return "identical"
}
