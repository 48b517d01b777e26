package sweep

import (
	"fmt"
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
	if observe == nil {
		return network.Run(c)
	}
	n, err := network.Build(c)
	if err != nil {
		return nil, err
	}
	r, err := n.RunAkitaHooked(&cycleHook{k: n.K, f: observe, next: ObserveEvery})
	if err != nil {
		return nil, err
	}
	observe(n.K.Now())
	return r, nil
}

type cycleHook struct {
	k    *network.Kernel
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
}

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
// any runs), runs them in parallel and returns the results in grid order,
// whatever order they finish in. The first error in grid order is returned.
func Run(spec *Spec, shard Shard, opts Options) (*File, error) {
	idx := shard.Indices(spec.Points)
	cfgs := make([]network.Config, len(idx))
	warned := map[string]bool{}
	for k, i := range idx {
		c, warnings, err := spec.LoadWarn(i)
		if err != nil {
			return nil, err
		}
		for _, w := range warnings {
			if !warned[w] && opts.Warn != nil {
				opts.Warn(w)
			}
			warned[w] = true
		}
		cfgs[k] = c
	}
	results, err := execute(cfgs, idx, opts)
	if err != nil {
		return nil, err
	}
	f := &File{Format: Format, Sweep: *spec, Shard: shard.String(), Rows: make([]Row, len(idx))}
	for k, i := range idx {
		f.Rows[k] = NewRow(spec, i, results[k])
	}
	return f, nil
}

// execute runs cfgs (grid points idx) on opts.Jobs workers.
func execute(cfgs []network.Config, idx []int, opts Options) ([]*network.Result, error) {
	run := opts.Runner
	if run == nil {
		run = RunObserved
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

	exp := make([]int64, len(cfgs))
	var st Status
	st.Points = len(cfgs)
	for k, c := range cfgs {
		exp[k] = max(1, Expected(c))
		st.Total += exp[k]
	}
	var mu sync.Mutex
	report := func(delta int64, done bool) {
		if opts.Progress == nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		st.Cycles += delta
		if done {
			st.Done++
		}
		opts.Progress(st)
	}
	if opts.Progress != nil {
		report(0, false)
	}

	results := make([]*network.Result, len(cfgs))
	errs := make([]error, len(cfgs))
	var next atomic.Int64
	var failed atomic.Bool
	var wg sync.WaitGroup
	for w := 0; w < jobs; w++ {
		wg.Go(func() {
			for !failed.Load() {
				k := int(next.Add(1) - 1)
				if k >= len(cfgs) {
					return
				}
				var counted int64
				var observe func(int64)
				if opts.Progress != nil {
					observe = func(cycle int64) {
						if c := min(cycle, exp[k]); c > counted {
							report(c-counted, false)
							counted = c
						}
					}
				}
				results[k], errs[k] = runOne(run, cfgs[k], idx[k], observe)
				if errs[k] == nil && results[k] == nil {
					errs[k] = fmt.Errorf("sweep point %d: the run returned neither a result nor an error", idx[k])
				}
				if errs[k] != nil {
					failed.Store(true)
					return
				}
				report(exp[k]-counted, true)
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return results, nil
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
