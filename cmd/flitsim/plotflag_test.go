package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestSweepPlotScale: --plot-scale log draws the latency axis on a log
// scale and says so in its label; linear does not; a bad value is exit 2.
func TestSweepPlotScale(t *testing.T) {
	for scale, want := range map[string]bool{"log": true, "linear": false} {
		dir := t.TempDir()
		if code, _, errOut := runMain(t, sweepArgs("--out", dir, "--plot-scale", scale)...); code != 0 {
			t.Fatalf("--plot-scale %s: exit %d, %s", scale, code, errOut)
		}
		svg := string(readFile(t, filepath.Join(dir, "latency-vs-offered.svg")))
		if got := strings.Contains(svg, "mean latency (cycles), log scale"); got != want {
			t.Errorf("--plot-scale %s: log axis %v, want %v", scale, got, want)
		}
	}
	wantFail(t, 2, sweepArgs("--plot-scale", "semilog"), `--plot-scale: "semilog" is not allowed (allowed: auto, linear, log)`)
	wantFail(t, 2, []string{"merge", "--out", t.TempDir(), "--plot-scale", "x", "f.json"}, `--plot-scale: "x"`)
}
