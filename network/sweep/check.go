package sweep

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/flitsim/flitsim/network"
)

// loaded is what Spec.LoadWarn gives for each point of a list, by
// position.
type loaded struct {
	cfgs     []network.Config
	warnings [][]string
	errs     []error
}

// loadPoints loads and checks the configs of grid points pts on every core
// (a million points take minutes on one), stopping early at opts.Stop
// (stopped: true) or past the first point in pts's order whose config is
// refused. The results are in pts's order; those past a refused point or
// after the stop may be missing (zero).
func loadPoints(spec *Spec, pts []int, opts *Options) (out loaded, stopped bool) {
	out = loaded{make([]network.Config, len(pts)), make([][]string, len(pts)), make([]error, len(pts))}
	var next atomic.Int64
	var firstBad atomic.Int64 // the lowest position refused so far
	firstBad.Store(int64(len(pts)))
	stop := func() bool { return opts.Stop != nil && opts.Stop.Load() }
	var wg sync.WaitGroup
	for range max(1, min(runtime.GOMAXPROCS(0), len(pts))) {
		wg.Go(func() {
			for !stop() {
				k := next.Add(1) - 1
				if k >= min(int64(len(pts)), firstBad.Load()) {
					return
				}
				var err error
				out.cfgs[k], out.warnings[k], err = spec.LoadWarn(pts[k])
				out.errs[k] = err
				for err != nil {
					bad := firstBad.Load()
					if k >= bad || firstBad.CompareAndSwap(bad, k) {
						break
					}
				}
			}
		})
	}
	wg.Wait()
	return out, stop()
}
