package booksim

import (
	"context"
	"os/exec"
	"strings"
	"testing"
)

// TestSideBySide2VC is the comparison on the 2-VC runfile: BookSim2
// and flitsim (the runfile translated by FlitsimSets, router.model: iq)
// measured by the same procedure (Measure, one seed each), zero-load latency
// within one cycle, latency at loads 0.2 and 0.3 and the saturation
// throughput within 5 % of BookSim's. It needs BookSim2 (booksim on PATH,
// see build.sh) and takes a minute or two; skipped, saying so, without it.
// The speed ratio is logged, not judged: timings are not a test's to check.
func TestSideBySide2VC(t *testing.T) {
	if _, err := exec.LookPath("booksim"); err != nil {
		t.Skip("booksim not on PATH (build it with verify/booksim/build.sh): the side-by-side comparison did not run")
	}
	if testing.Short() {
		t.Skip("-short: the side-by-side comparison runs BookSim for a minute or two")
	}
	const runfile = "runfiles/mesh88_2vc.cfg"
	loads := []float64{0.2, 0.3}
	rn := Runner{Runfile: runfile}
	bs, err := Measure(func(rate float64, seed int) (Sample, error) {
		r, err := rn.Run(context.Background(), rate, seed)
		return r.Sample(), err
	}, 1, loads)
	if err != nil {
		t.Fatal(err)
	}
	fl, err := FlitsimFor(runfile)
	if err != nil {
		t.Fatal(err)
	}
	fs, err := Measure(func(rate float64, seed int) (Sample, error) {
		r, err := fl.Run(rate, seed)
		return r.Sample(), err
	}, 1, loads)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range Compare(bs, fs) {
		t.Logf("%-40s BookSim2 %9.4f  flitsim %9.4f  ok %v", c.What, c.BookSim, c.Flitsim, c.OK)
		if !c.OK && !strings.HasPrefix(c.What, "cycles/s") {
			t.Errorf("%s: flitsim %.4f, BookSim2 %.4f: outside the tolerance", c.What, c.Flitsim, c.BookSim)
		}
	}
}
