// Command sweep measures BookSim2's side of the side-by-side comparison
// (docs/booksim.md) on one or more runfiles: zero-load latency, latency at
// given loads, saturation throughput (booksim.Saturation's procedure) and
// simulated cycles per CPU second, each the median over several seeds.
//
//	go run ./verify/booksim/sweep [-booksim PATH] [-seeds N] [-loads 0.2,0.3] RUNFILE...
//
// Bad input (a flag's value, a missing runfile or binary) exits 2 with one
// line naming it; a BookSim run that fails exits 70.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/flitsim/flitsim/verify/booksim"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

type options struct {
	bin   string
	seeds int
	loads []float64
	files []string
}

func parse(args []string, stderr io.Writer) (options, int) {
	fs := flag.NewFlagSet("sweep", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	var loads string
	fs.StringVar(&o.bin, "booksim", "", "the booksim binary (default: booksim on PATH)")
	fs.IntVar(&o.seeds, "seeds", 3, "runs per load, seeds 1..N; figures are medians")
	fs.StringVar(&loads, "loads", "0.2,0.3", "offered loads (flits/node/cycle) to report latency at")
	if err := fs.Parse(args); err != nil {
		return o, 2
	}
	if o.seeds < 1 || o.seeds > 99 {
		fmt.Fprintf(stderr, "sweep: -seeds: %d is not allowed (allowed: 1 to 99)\n", o.seeds)
		return o, 2
	}
	for _, s := range strings.Split(loads, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || v <= 0 || v > 1 {
			fmt.Fprintf(stderr, "sweep: -loads: %q is not allowed (allowed: loads in (0, 1], comma-separated)\n", s)
			return o, 2
		}
		o.loads = append(o.loads, v)
	}
	o.files = fs.Args()
	if len(o.files) == 0 {
		fmt.Fprintln(stderr, "sweep: RUNFILE: none given (allowed: one or more BookSim runfiles)")
		return o, 2
	}
	for _, f := range o.files {
		if st, err := os.Stat(f); err != nil || st.IsDir() {
			fmt.Fprintf(stderr, "sweep: RUNFILE: %s is not a readable file\n", f)
			return o, 2
		}
	}
	bin, err := booksim.Binary(o.bin)
	if err != nil {
		fmt.Fprintf(stderr, "sweep: -booksim: %v\n", err)
		return o, 2
	}
	o.bin = bin
	return o, 0
}

func run(args []string, stdout, stderr io.Writer) int {
	o, code := parse(args, stderr)
	if code != 0 {
		return code
	}
	for _, f := range o.files {
		if err := sweep(o, f, stdout); err != nil {
			fmt.Fprintf(stderr, "sweep: %v\n", err)
			return 70
		}
	}
	return 0
}

// sweep reports one runfile.
func sweep(o options, file string, w io.Writer) error {
	rn := booksim.Runner{Binary: o.bin, Runfile: file}
	ctx := context.Background()
	// at runs every seed at one load and returns the runs.
	at := func(rate float64) ([]booksim.Run, error) {
		runs := make([]booksim.Run, o.seeds)
		for s := range runs {
			r, err := rn.Run(ctx, rate, s+1)
			if err != nil {
				return nil, err
			}
			runs[s] = r
		}
		return runs, nil
	}
	fmt.Fprintf(w, "%s: medians over seeds 1..%d\n", file, o.seeds)
	zl, err := at(booksim.ZeroLoadRate)
	if err != nil {
		return err
	}
	zero := median(zl, func(r booksim.Run) float64 { return r.PacketLatency })
	report(w, fmt.Sprintf("zero-load (load %g)", booksim.ZeroLoadRate), zl)
	for _, l := range o.loads {
		runs, err := at(l)
		if err != nil {
			return err
		}
		report(w, fmt.Sprintf("load %g", l), runs)
	}
	sats := make([]float64, o.seeds)
	for s := range sats {
		probe := func(rate float64) (booksim.Point, error) {
			r, err := rn.Run(ctx, rate, s+1)
			return r.Point(), err
		}
		sat, _, err := booksim.Saturation(probe, zero)
		if err != nil {
			return err
		}
		sats[s] = sat
	}
	fmt.Fprintf(w, "  %-22s %.4f flits/node/cycle (per seed:%s; latency > %g × %.2f or unstable)\n",
		"saturation", booksim.Median(sats), list(sats), booksim.LatencyFactor, zero)
	return nil
}

func report(w io.Writer, name string, runs []booksim.Run) {
	unstable := 0
	for _, r := range runs {
		if r.Unstable {
			unstable++
		}
	}
	fmt.Fprintf(w, "  %-22s packet %7.2f  network %7.2f  accepted %.4f  %6.0f cycles/s",
		name,
		median(runs, func(r booksim.Run) float64 { return r.PacketLatency }),
		median(runs, func(r booksim.Run) float64 { return r.NetworkLatency }),
		median(runs, func(r booksim.Run) float64 { return r.Accepted }),
		median(runs, func(r booksim.Run) float64 { return r.CyclesPerSecond() }))
	if unstable > 0 {
		fmt.Fprintf(w, "  (%d of %d unstable)", unstable, len(runs))
	}
	fmt.Fprintln(w)
}

func median(runs []booksim.Run, f func(booksim.Run) float64) float64 {
	xs := make([]float64, len(runs))
	for i, r := range runs {
		xs[i] = f(r)
	}
	return booksim.Median(xs)
}

func list(xs []float64) string {
	var b strings.Builder
	for _, x := range xs {
		fmt.Fprintf(&b, " %.4f", x)
	}
	return b.String()
}
