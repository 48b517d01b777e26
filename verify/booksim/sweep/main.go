// Command sweep measures BookSim2's side of the side-by-side comparison
// (docs/booksim.md) on one or more runfiles: zero-load latency, latency at
// given loads, saturation throughput (booksim.Saturation's procedure) and
// simulated cycles per CPU second, each the median over several seeds.
// With -flitsim it measures flitsim the same way on the runfile's
// translation (booksim.FlitsimSets) and prints each comparison figure with
// its tolerance, pass or deviation.
//
//	go run ./verify/booksim/sweep [-booksim PATH] [-seeds N] [-loads 0.2,0.3] [-flitsim] RUNFILE...
//
// Bad input (a flag's value, a missing runfile or binary) exits 2 with one
// line naming it; a run that fails exits 70; a comparison figure out of
// tolerance exits 1.
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
	bin     string
	seeds   int
	loads   []float64
	files   []string
	flitsim bool
	failed  bool // a comparison figure out of tolerance
}

func parse(args []string, stderr io.Writer) (*options, int) {
	fs := flag.NewFlagSet("sweep", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := &options{}
	var loads string
	fs.StringVar(&o.bin, "booksim", "", "the booksim binary (default: booksim on PATH)")
	fs.IntVar(&o.seeds, "seeds", 3, "runs per load, seeds 1..N; figures are medians")
	fs.StringVar(&loads, "loads", "0.2,0.3", "offered loads (flits/node/cycle) to report latency at")
	fs.BoolVar(&o.flitsim, "flitsim", false, "also measure flitsim on the runfile's translation and compare")
	if err := fs.Parse(args); err != nil {
		return nil, 2
	}
	if o.seeds < 1 || o.seeds > 99 {
		fmt.Fprintf(stderr, "sweep: -seeds: %d is not allowed (allowed: 1 to 99)\n", o.seeds)
		return nil, 2
	}
	for _, s := range strings.Split(loads, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || v <= 0 || v > 1 {
			fmt.Fprintf(stderr, "sweep: -loads: %q is not allowed (allowed: loads in (0, 1], comma-separated)\n", s)
			return nil, 2
		}
		o.loads = append(o.loads, v)
	}
	o.files = fs.Args()
	if len(o.files) == 0 {
		fmt.Fprintln(stderr, "sweep: RUNFILE: none given (allowed: one or more BookSim runfiles)")
		return nil, 2
	}
	for _, f := range o.files {
		if st, err := os.Stat(f); err != nil || st.IsDir() {
			fmt.Fprintf(stderr, "sweep: RUNFILE: %s is not a readable file\n", f)
			return nil, 2
		}
	}
	if o.flitsim {
		for _, f := range o.files {
			if _, err := booksim.FlitsimFor(f); err != nil {
				fmt.Fprintf(stderr, "sweep: RUNFILE: %v\n", err)
				return nil, 2
			}
		}
	}
	bin, err := booksim.Binary(o.bin)
	if err != nil {
		fmt.Fprintf(stderr, "sweep: -booksim: %v\n", err)
		return nil, 2
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
	if o.failed {
		return 1
	}
	return 0
}

// sweep reports one runfile: BookSim's side, and with -flitsim flitsim's
// side and the comparison.
func sweep(o *options, file string, w io.Writer) error {
	rn := booksim.Runner{Binary: o.bin, Runfile: file}
	bsRun := func(rate float64, seed int) (booksim.Sample, error) {
		r, err := rn.Run(context.Background(), rate, seed)
		return r.Sample(), err
	}
	fmt.Fprintf(w, "%s: medians over seeds 1..%d\n", file, o.seeds)
	bs, err := booksim.Measure(bsRun, o.seeds, o.loads)
	if err != nil {
		return err
	}
	report(w, "BookSim2", bs)
	if !o.flitsim {
		return nil
	}
	fl, err := booksim.FlitsimFor(file)
	if err != nil {
		return err
	}
	fsRun := func(rate float64, seed int) (booksim.Sample, error) {
		r, err := fl.Run(rate, seed)
		return r.Sample(), err
	}
	fs, err := booksim.Measure(fsRun, o.seeds, o.loads)
	if err != nil {
		return err
	}
	report(w, "flitsim", fs)
	for _, c := range booksim.Compare(bs, fs) {
		verdict := "pass"
		if !c.OK {
			verdict, o.failed = "deviation", true
		}
		tol := fmt.Sprintf("±%g cycles", c.Tolerance)
		switch {
		case c.Relative:
			tol = fmt.Sprintf("±%g %%", 100*c.Tolerance)
		case strings.HasPrefix(c.What, "cycles/s"):
			tol = fmt.Sprintf("ratio %.1f", c.Flitsim/c.BookSim)
		}
		fmt.Fprintf(w, "  %-40s BookSim2 %9.4f  flitsim %9.4f  %-12s %s\n", c.What, c.BookSim, c.Flitsim, tol, verdict)
	}
	return nil
}

func report(w io.Writer, who string, s booksim.Side) {
	fmt.Fprintf(w, " %s\n", who)
	line := func(name string, f booksim.Figures) {
		fmt.Fprintf(w, "  %-22s packet %7.2f  network %7.2f  accepted %.4f  %6.0f cycles/s", name,
			f.PacketLatency, f.NetworkLatency, f.Accepted, f.CyclesPerSecond)
		if f.Unstable > 0 {
			fmt.Fprintf(w, "  (%d of %d unstable)", f.Unstable, f.Runs)
		}
		fmt.Fprintln(w)
	}
	line(fmt.Sprintf("zero-load (load %g)", booksim.ZeroLoadRate), s.ZeroLoad)
	for _, f := range s.Loads {
		line(fmt.Sprintf("load %g", f.Load), f)
	}
	fmt.Fprintf(w, "  %-22s %.4f flits/node/cycle (per seed:%s; latency > %g × %.2f or unstable)\n",
		"saturation", s.Saturation, list(s.PerSeed), booksim.LatencyFactor, s.ZeroLoad.PacketLatency)
}

func list(xs []float64) string {
	var b strings.Builder
	for _, x := range xs {
		fmt.Fprintf(&b, " %.4f", x)
	}
	return b.String()
}
