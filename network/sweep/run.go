package sweep

import (
	"errors"
	"fmt"
	"github.com/flitsim/flitsim/internal/kernel"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/flitsim/flitsim/network"
)

// Runner runs one experiment. observe, if not nil, is called with the
// current simulated cycle from time to time (from the running goroutine).
type Runner func(c network.Config, observe func(cycle int64)) (*network.Result, error)

// ObserveEvery is how many simulated cycles pass between two calls of a
// RunObserved observer.
const ObserveEvery = 1024

// RunObserved runs c exactly like network.Run (Akita's serial engine, the
// network as one ticking component) and, if observe is not nil, calls it with
// the simulated cycle every ObserveEvery cycles and once at the end. The
// observer is an engine hook that only reads the cycle counter, so the
// result is the same as network.Run's.
func RunObserved(c network.Config, observe func(cycle int64)) (*network.Result, error) {
	return RunStoppable(c, observe, nil)
}

// RunStoppable is RunObserved for a run that stops at the end of the cycle
// in which *stop is found set (nil: never), with a result marked
// Interrupted (see network.Network.StopOn).
func RunStoppable(c network.Config, observe func(cycle int64), stop *atomic.Bool) (*network.Result, error) {
	n, err := network.Build(c)
	if err != nil {
		return nil, err
	}
	n.StopOn(stop)
	return RunBuilt(n, observe)
}

// RunBuilt runs a built network like RunObserved.
func RunBuilt(n *network.Network, observe func(cycle int64)) (*network.Result, error) {
	if observe == nil {
		return n.RunAkita()
	}
	r, err := n.RunAkitaHooked(&cycleHook{k: kernel.Of(n), f: observe, next: ObserveEvery})
	if err != nil {
		return nil, err
	}
	observe(kernel.Of(n).Now())
	return r, nil
}

type cycleHook struct {
	k    *kernel.Kernel
	f    func(int64)
	next int64
}

func (h *cycleHook) Func(ctx sim.HookCtx) {
	if ctx.Pos != sim.HookPosAfterEvent {
		return
	}
	if now := h.k.Now(); now >= h.next {
		h.next = now + ObserveEvery
		h.f(now)
	}
}

// Expected is the cycle at which c's measurement window closes
// (warmup + measure), the end a progress display aims at; 0 for a trace,
// whose end is not known before it is read.
func Expected(c network.Config) int64 {
	if c.Traffic.Trace != "" {
		return 0
	}
	return c.Run.Warmup + c.Run.Measure
}

// Options tune Run.
type Options struct {
	// Jobs is the number of points run at once; ≤ 0 means GOMAXPROCS.
	Jobs int
	// Runner runs one point; nil means RunObserved.
	Runner Runner
	// Progress, if not nil, is called (never concurrently) when the sweep
	// advances.
	Progress func(Status)
	// Warn, if not nil, is given each distinct warning the points' configs
	// raise (configs.LoadWarn), once, before any point runs.
	Warn func(string)
	// Stop, if not nil, interrupts the sweep when set: no point starts
	// after it, and the running ones stop at the end of their cycle (when
	// Runner is nil) and are dropped as unfinished.
	Stop *atomic.Bool
	// Done holds points finished before (a resumed sweep's): they are not
	// run again, and come out with the others.
	Done []Row
	// Finished, if not nil, is called (never concurrently) with each point
	// as it finishes, e.g. to keep it in a journal; an error stops the
	// sweep.
	Finished func(Row) error
	// Check, if not nil, sees the points to run and Jobs once they are
	// loaded, before any runs; an error stops the sweep (flitsim sweep's
	// memory estimate).
	Check func(cfgs []network.Config, jobs int) error
	// Start, if not nil, is called once every point has loaded and passed
	// Check, just before the first runs; an error stops the sweep. It is
	// where a caller creates what a point's run writes to (flitsim sweep's
	// journal), so that a sweep refused for a bad point destroys nothing.
	Start func() error
}

// ErrInterrupted is returned, with the points finished so far, by a sweep
// stopped by Options.Stop.
var ErrInterrupted = errors.New("sweep interrupted")

// Status is a sweep's progress.
type Status struct {
	Done, Points int // points finished, points to run
	// Cycles simulated so far (each point counted up to its Expected end;
	// a point whose end is unknown counts 1 when it finishes) out of Total.
	Cycles, Total int64
}

// PanicError is a panic inside a point's run.
type PanicError struct {
	Point int
	Value any
	Stack []byte
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("sweep point %d: %v", e.Point, e.Value)
}

// Run loads every point of the shard (all its configs are checked before
// any runs), runs those not in opts.Done in parallel and returns the results
// in grid order, whatever order they finish in. The first error in grid
// order is returned. A sweep stopped by opts.Stop returns the points
// finished (opts.Done's too) with ErrInterrupted.
func Run(spec *Spec, shard Shard, opts Options) (*File, error) {
	done := map[int]Row{}
	for _, r := range opts.Done {
		done[r.Point] = r
	}
	pts := shard.Indices(spec.Points)
	points, stopped := loadPoints(spec, pts, &opts)
	if stopped {
		return finished(spec, shard, done), ErrInterrupted
	}
	// The points to run, compacted in place (a million configs are not
	// copied).
	cfgs := points.cfgs[:0]
	var idx []int
	warned := map[string]bool{}
	for k, i := range pts {
		if err := points.errs[k]; err != nil {
			return nil, err // (the first in grid order: those before it loaded)
		}
		for _, w := range points.warnings[k] {
			if !warned[w] && opts.Warn != nil {
				opts.Warn(w)
			}
			warned[w] = true
		}
		if _, ok := done[i]; !ok {
			idx, cfgs = append(idx, i), append(cfgs, points.cfgs[k])
		}
	}
	if opts.Check != nil {
		if err := opts.Check(cfgs, opts.Jobs); err != nil {
			return nil, err
		}
	}
	if opts.Start != nil {
		if err := opts.Start(); err != nil {
			return nil, err
		}
	}
	rows, err := execute(spec, cfgs, idx, opts)
	if err != nil && !errors.Is(err, ErrInterrupted) {
		return nil, err
	}
	for _, r := range rows {
		done[r.Point] = r
	}
	return finished(spec, shard, done), err
}

// finished is the sweep's file of the points done, in grid order.
func finished(spec *Spec, shard Shard, done map[int]Row) *File {
	f := &File{Format: Format, Sweep: *spec, Shard: shard.String(), Rows: make([]Row, 0, len(done))}
	for _, i := range shard.Indices(spec.Points) {
		if r, ok := done[i]; ok {
			f.Rows = append(f.Rows, r)
		}
	}
	return f
}

// execute runs cfgs (grid points idx) on opts.Jobs workers and returns the
// rows of the points that finished, in the order they finished.
func execute(spec *Spec, cfgs []network.Config, idx []int, opts Options) ([]Row, error) {
	run := opts.Runner
	if run == nil {
		run = func(c network.Config, observe func(int64)) (*network.Result, error) {
			return RunStoppable(c, observe, opts.Stop)
		}
	}
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	if jobs > 1 {
		// The points already share the cores: a run left to choose its
		// own threads (run.workers 0) takes one, so the sweep does not
		// oversubscribe them. The results do not depend on it.
		for k := range cfgs {
			if cfgs[k].Run.Workers == 0 {
				cfgs[k].Run.Workers = 1
			}
		}
	}
	jobs = max(1, min(jobs, len(cfgs)))
	p := newPointRunner(cfgs, opts)
	stopped := func() bool { return opts.Stop != nil && opts.Stop.Load() }
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < jobs; w++ {
		wg.Go(func() {
			for !p.failed.Load() && !stopped() {
				k := int(next.Add(1) - 1)
				if k >= len(cfgs) || !p.run(spec, run, k, idx[k]) {
					return
				}
			}
		})
	}
	wg.Wait()
	for _, err := range p.errs {
		if err != nil {
			return nil, err
		}
	}
	if len(p.rows) < len(cfgs) && stopped() {
		return p.rows, ErrInterrupted
	}
	return p.rows, nil
}

// pointRunner is the state execute's workers share.
type pointRunner struct {
	cfgs   []network.Config
	opts   *Options
	exp    []int64 // each point's expected cycles (progress)
	mu     sync.Mutex
	st     Status
	rows   []Row // finished points, in the order they finished
	errs   []error
	failed atomic.Bool
}

func newPointRunner(cfgs []network.Config, opts Options) *pointRunner {
	p := &pointRunner{cfgs: cfgs, opts: &opts, exp: make([]int64, len(cfgs)), errs: make([]error, len(cfgs))}
	p.st.Points = len(cfgs)
	for k, c := range cfgs {
		p.exp[k] = max(1, Expected(c))
		p.st.Total += p.exp[k]
	}
	if opts.Progress != nil {
		p.report(0, false)
	}
	return p
}

// report advances the progress by delta cycles (and a point if done).
func (p *pointRunner) report(delta int64, done bool) {
	if p.opts.Progress == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.st.Cycles += delta
	if done {
		p.st.Done++
	}
	p.opts.Progress(p.st)
}

// run runs point k (grid point i) and keeps its row; false stops the
// worker (an error, or the point was interrupted).
func (p *pointRunner) run(spec *Spec, run Runner, k, i int) bool {
	var counted int64
	var observe func(int64)
	if p.opts.Progress != nil {
		observe = func(cycle int64) {
			if c := min(cycle, p.exp[k]); c > counted {
				p.report(c-counted, false)
				counted = c
			}
		}
	}
	r, err := runOne(run, p.cfgs[k], i, observe)
	if err == nil && r == nil {
		err = fmt.Errorf("sweep point %d: the run returned neither a result nor an error", i)
	}
	if err == nil && r.Interrupted {
		return false // unfinished: not kept, run again on --resume
	}
	if err == nil {
		row := NewRow(spec, i, r)
		p.mu.Lock()
		p.rows = append(p.rows, row)
		if p.opts.Finished != nil {
			err = p.opts.Finished(row)
		}
		p.mu.Unlock()
	}
	if err != nil {
		p.errs[k] = err
		p.failed.Store(true)
		return false
	}
	p.report(p.exp[k]-counted, true)
	return true
}

// runOne runs one point, turning a panic into a *PanicError.
func runOne(run Runner, c network.Config, point int, observe func(int64)) (r *network.Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			r, err = nil, &PanicError{Point: point, Value: p, Stack: debug.Stack()}
		}
	}()
	return run(c, observe)
}
