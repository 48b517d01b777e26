package booksim

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// Runner runs one BookSim2 binary on one runfile.
type Runner struct {
	Binary  string   // the booksim executable; "" looks up booksim on PATH
	Runfile string   // a BookSim configuration file
	Args    []string // further key=value overrides, after the runfile
}

// Run is one finished BookSim run: its parsed result and cost.
type Run struct {
	Result
	Seed int
	CPU  time.Duration // user + system time of the process (one thread)
}

// CyclesPerSecond is simulated cycles per CPU second (0 when BookSim gave
// up and printed no cycle count). CPU time, not wall time: the machines
// these figures come from are shared.
func (r Run) CyclesPerSecond() float64 {
	if r.Cycles == 0 || r.CPU <= 0 {
		return 0
	}
	return float64(r.Cycles) / r.CPU.Seconds()
}

// Binary resolves the booksim executable: b itself when set, else booksim
// on PATH.
func Binary(b string) (string, error) {
	if b == "" {
		b = "booksim"
	}
	p, err := exec.LookPath(b)
	if err != nil {
		return "", fmt.Errorf("booksim binary %q not found (build it with verify/booksim/build.sh and put its src/ on PATH): %v", b, err)
	}
	return p, nil
}

// Run runs BookSim at an injection rate (flits/node/cycle with the
// runfiles' injection_rate_uses_flits = 1) and seed.
func (rn Runner) Run(ctx context.Context, rate float64, seed int) (Run, error) {
	bin, err := Binary(rn.Binary)
	if err != nil {
		return Run{}, err
	}
	args := append([]string{rn.Runfile}, rn.Args...)
	args = append(args, "injection_rate="+floatArg(rate), "seed="+strconv.Itoa(seed))
	cmd := exec.CommandContext(ctx, bin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	// BookSim's main returns -1 (exit status 255) when the simulation
	// succeeded and 0 when it was unstable; the output says which.
	if err := cmd.Run(); err != nil && cmd.ProcessState.ExitCode() != 255 {
		return Run{}, fmt.Errorf("%s %v: %v: %s", bin, args, err, bytes.TrimSpace(errb.Bytes()))
	}
	res, err := Parse(&out)
	if err != nil {
		return Run{}, fmt.Errorf("%s %v: %v", bin, args, err)
	}
	cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	return Run{Result: res, Seed: seed, CPU: cpu}, nil
}

// floatArg writes a rate as BookSim's parser wants a float: with a decimal
// point ("1" is read as an integer and refused for injection_rate).
func floatArg(v float64) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if !strings.ContainsAny(s, ".eE") {
		s += ".0"
	}
	return s
}
