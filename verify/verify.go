// Package verify checks the simulator against published results. Each claim
// (a figure or number from a paper) is registered, usually from an init
// function, with Register; Run measures them all for `flitsim verify`.
package verify

import (
	"errors"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Row statuses. Only Fail and Error make `flitsim verify` exit non-zero: a
// Deviation is a known, explained difference from the paper, not a fault.
const (
	Pass      = "pass"      // measured, and it matches the published value within tolerance
	Deviation = "deviation" // measured as the documented reading predicts, which differs from the paper (Reason says why)
	Fail      = "fail"      // measured outside tolerance, or the run did not deliver what it measured
	Error     = "error"     // could not be measured (Measure returned an error or panicked)
	// Interrupted is a claim whose measurement was cut short by the
	// caller's stop flag (RunStop): nothing was measured.
	Interrupted = "interrupted"
)

// ErrShortfall marks a Measure error meaning that a simulation ran but did not
// deliver what it measured (incomplete, stalled or deadlocked): the row fails,
// since its numbers would come from a partial run.
var ErrShortfall = errors.New("run did not deliver what it measured")

// Claim is one published result and how to reproduce it.
type Claim struct {
	ID        string // short and unique, e.g. "chiang-fig5"
	Source    string // the publication, e.g. "Chiang & Ni 1995, Fig. 5"
	Claim     string // what it states, in a few words
	Published string // the published value, as text
	Tolerance string // the accepted deviation, as text
	// Deviation, when set, says why the published value is not reproduced.
	// Such a claim can never pass: when Measure's check holds (the measured
	// value is what the documented reading predicts) the row is Deviation,
	// otherwise Fail.
	Deviation string
	// Measure runs the simulation(s) and reports the measured value as text
	// and whether it is within tolerance. Measures of different claims may
	// run concurrently, so they must not share mutable state.
	Measure func() (measured string, ok bool, err error)
	// Explain, when set, is asked after a measurement outside tolerance
	// for a documented reason it is nonetheless what the reading predicts
	// (for example an independent reference model measures the same): a
	// non-empty reason makes the row Deviation instead of Fail.
	Explain func() string
	// Tier is "" (always run), TierFull (long: run only when --only
	// selects it) or TierQuick (a quick subset of a full set, for CI: run
	// only when --only is not given).
	Tier string
}

// Claim tiers.
const (
	TierFull  = "full"
	TierQuick = "quick"
)

// Row is the outcome of one claim.
type Row struct {
	ID        string `json:"id"`
	Source    string `json:"source"`
	Claim     string `json:"claim"`
	Published string `json:"published"`
	Measured  string `json:"measured"`
	Tolerance string `json:"tolerance"`
	Status    string `json:"status"` // Pass, Deviation, Fail or Error
	// Reason is, for a Deviation, why the paper's value is not reproduced.
	Reason string `json:"reason,omitempty"`
	// Seconds is the wall-clock time the row's measurement took.
	Seconds float64 `json:"seconds"`
}

var (
	mu     sync.Mutex
	claims = map[string]Claim{}
)

// Register adds a claim. It panics on an empty or duplicate ID or a nil
// Measure (a programming error, caught at start-up).
func Register(c Claim) {
	mu.Lock()
	defer mu.Unlock()
	if c.ID == "" || c.Measure == nil {
		panic("verify: Register needs an ID and a Measure")
	}
	if _, dup := claims[c.ID]; dup {
		panic("verify: claim " + c.ID + " registered twice")
	}
	claims[c.ID] = c
}

// Claims lists the registered claims, sorted by ID.
func Claims() []Claim {
	mu.Lock()
	defer mu.Unlock()
	out := make([]Claim, 0, len(claims))
	for _, c := range claims {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Run measures every registered claim (in parallel) and returns one row per
// claim, sorted by ID. The error is non-nil when some claim could not be
// measured; its row then has Status Error and the reason in Measured.
func Run() ([]Row, error) { return RunOnly("") }

// RunOnly is Run restricted to the claims whose ID starts with prefix,
// the full tier included and the quick tier left out (unless the prefix
// names only quick claims); an empty prefix is every claim but the full
// tier.
func RunOnly(prefix string) ([]Row, error) { return RunStop(prefix, nil) }

// InterruptedError is RunStop's error when stop was set before every
// claim was measured.
type InterruptedError struct {
	Claims   int // claims selected
	Done     int // measured to the end (their rows are returned)
	CutShort int // being measured when stop was set (rows with Status Interrupted)
}

func (e *InterruptedError) Error() string {
	return fmt.Sprintf("interrupted: %d of %d claims measured, %d cut short, %d not run",
		e.Done, e.Claims, e.CutShort, e.Claims-e.Done-e.CutShort)
}

// RunStop is RunOnly that stops when stop (if not nil) is set: no claim
// starts after it, and it returns at once (within the polling interval)
// with the rows measured so far and a row of Status Interrupted for each
// claim being measured (those simulations are told to stop too, and their
// results are dropped); the error is then an *InterruptedError.
func RunStop(prefix string, stop *atomic.Bool) ([]Row, error) {
	cs := selectClaims(prefix)
	bBegin() // (rows of one setup share its run)
	defer bEnd()
	// (Left set after the return: claims cut short, still running, see
	// it and stop.)
	stopFlag.Store(stop)
	stopped := func() bool { return stop != nil && stop.Load() }
	type done struct {
		i int
		r Row
	}
	finished := make(chan done, len(cs))
	rows := make([]Row, len(cs))
	started := map[int]time.Time{} // claims being measured
	tick := time.NewTicker(stopPoll)
	defer tick.Stop()
	next, count, par := 0, 0, runtime.GOMAXPROCS(0)
	for count < len(cs) {
		for ; next < len(cs) && len(started) < par && !stopped(); next++ {
			i := next
			started[i] = time.Now()
			go func() { finished <- done{i, measure(cs[i])} }()
		}
		select {
		case d := <-finished:
			rows[d.i] = d.r
			delete(started, d.i)
			count++
		case <-tick.C:
		}
		if stopped() && count < len(cs) {
			return interruptedRows(cs, rows, started)
		}
	}
	return rows, measureErr(rows)
}

// stopPoll is how often RunStop looks at its stop flag while claims run.
const stopPoll = 20 * time.Millisecond

// selectClaims is the claims RunOnly(prefix) measures.
func selectClaims(prefix string) []Claim {
	var cs, quick []Claim
	for _, c := range Claims() {
		switch {
		case prefix == "" && c.Tier != TierFull:
			cs = append(cs, c)
		case prefix == "" || !strings.HasPrefix(c.ID, prefix):
		case c.Tier == TierQuick:
			quick = append(quick, c)
		default:
			cs = append(cs, c)
		}
	}
	if len(cs) == 0 {
		cs = quick
	}
	return cs
}

// interruptedRows is RunStop's result when stopped: the rows finished (a
// zero row is a claim not finished) and a row for each claim started and
// not finished, in ID order.
func interruptedRows(cs []Claim, rows []Row, started map[int]time.Time) ([]Row, error) {
	var out []Row
	e := &InterruptedError{Claims: len(cs)}
	for i, c := range cs {
		r := rows[i]
		if t0, running := started[i]; running {
			r = rowOf(c)
			r.Status, r.Seconds = Interrupted, time.Since(t0).Seconds()
			r.Measured = fmt.Sprintf("interrupted after %.1fs (not measured)", r.Seconds)
		}
		switch r.Status {
		case "":
			continue
		case Interrupted: // (or stopped by the flag just before it was seen)
			e.CutShort++
		default:
			e.Done++
		}
		out = append(out, r)
	}
	return out, e
}

// measureErr is the error of a run whose rows are measured: the first
// claim that could not be measured, and how many more.
func measureErr(rows []Row) error {
	var firstErr error
	n := 0
	for _, r := range rows {
		if r.Status == Error {
			if firstErr == nil {
				firstErr = fmt.Errorf("%s: %s", r.ID, r.Measured)
			}
			n++
		}
	}
	if n > 1 {
		firstErr = fmt.Errorf("%v (and %d more claims could not be measured)", firstErr, n-1)
	}
	return firstErr
}

func rowOf(c Claim) Row {
	return Row{ID: c.ID, Source: c.Source, Claim: c.Claim, Published: c.Published, Tolerance: c.Tolerance}
}

func measure(c Claim) (r Row) {
	r = rowOf(c)
	start := time.Now()
	defer func() {
		if p := recover(); p != nil {
			r.Measured, r.Status = fmt.Sprintf("panic: %v", p), Error
		}
		r.Seconds = time.Since(start).Seconds()
	}()
	m, ok, err := c.Measure()
	switch {
	case errors.Is(err, ErrInterrupted):
		r.Measured, r.Status = err.Error(), Interrupted
	case errors.Is(err, ErrShortfall):
		r.Measured, r.Status = err.Error(), Fail
	case err != nil:
		r.Measured, r.Status = err.Error(), Error
	case !ok && c.Explain != nil && c.Deviation == "":
		r.Measured, r.Status = m, Fail
		if why := c.Explain(); why != "" {
			r.Status, r.Reason = Deviation, why
		}
	case !ok:
		r.Measured, r.Status = m, Fail
	case c.Deviation != "":
		r.Measured, r.Status, r.Reason = m, Deviation, c.Deviation
	default:
		r.Measured, r.Status = m, Pass
	}
	return r
}
