package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/network/sweep"
)

// Progress bars go to progressOut, and only when isTerminal says it is a
// terminal (both variables so tests can check both paths).
var (
	progressOut io.Writer = os.Stderr
	isTerminal            = func(w io.Writer) bool {
		f, ok := w.(*os.File)
		return ok && term.IsTerminal(int(f.Fd()))
	}
)

// `flitsim run` shows its progress too: its runner is runWithProgress, which
// is network.Run when stderr is not a terminal.
func init() { runNetwork = runWithProgress }

// progress is a progress bar on stderr; a nil *progress shows nothing.
type progress struct {
	bar *progressbar.ProgressBar
	max int64
}

// newProgress starts a bar counting to max (max ≤ 0: unknown, a spinner) in
// units named unit, or returns nil when progressOut is not a terminal.
func newProgress(desc string, max int64, unit string) *progress {
	if !isTerminal(progressOut) {
		return nil
	}
	if max <= 0 {
		max = -1
	}
	bar := progressbar.NewOptions64(max,
		progressbar.OptionSetWriter(progressOut),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionSetWidth(30),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString(unit),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetRenderBlankState(true),
	)
	return &progress{bar: bar, max: max}
}

// set moves the bar to n (kept within its maximum).
func (p *progress) set(n int64) {
	if p == nil {
		return
	}
	if p.max > 0 {
		n = min(n, p.max)
	}
	_ = p.bar.Set64(n)
}

// describe changes the text before the bar.
func (p *progress) describe(s string) {
	if p != nil {
		p.bar.Describe(s)
	}
}

// finish fills the bar and clears its line.
func (p *progress) finish() {
	if p != nil {
		_ = p.bar.Finish()
	}
}

// runWithProgress runs the built network n like network.Run, with a bar of simulated cycles against the
// end of the measurement window (warmup + measure) while stderr is a
// terminal; then it runs under the same engine with an observer that only
// reads the cycle counter, so the result is the same.
func runWithProgress(n *network.Network) (*network.Result, error) {
	startRun(n)
	end := sweep.Expected(n.Cfg)
	p := newProgress("simulating", end, "cycles")
	if p == nil {
		return n.RunAkita()
	}
	defer p.finish()
	draining := false
	return sweep.RunBuilt(n, func(cycle int64) {
		if end > 0 && cycle > end && !draining {
			draining = true
			p.describe("draining")
		}
		p.set(cycle)
	})
}

// sweepProgress returns a sweep.Options.Progress that drives a bar of
// simulated cycles over all the points, or nil when stderr is not a
// terminal. stop clears the bar.
func sweepProgress() (update func(sweep.Status), stop func()) {
	var p *progress
	if !isTerminal(progressOut) {
		return nil, func() {}
	}
	update = func(st sweep.Status) {
		if p == nil {
			p = newProgress(fmt.Sprintf("points %d/%d", st.Done, st.Points), st.Total, "cycles")
		}
		p.describe(fmt.Sprintf("points %d/%d", st.Done, st.Points))
		p.set(st.Cycles)
	}
	return update, func() { p.finish() }
}
