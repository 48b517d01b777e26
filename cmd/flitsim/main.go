// Command flitsim runs cycle-accurate interconnection-network experiments.
//
//	flitsim                         run the default experiment (8×8 mesh)
//	flitsim run [-c FILE] [--set key=value]... [--seed N] [--format table|json|csv]
//	flitsim list                    topologies, routings, arbiters, modes, patterns, keys
//	flitsim verify [--format table|json]
//	flitsim sweep [-c FILE] [--set key=value]... --vary KEY=start:stop:step... [--out DIR] [--shard i/n] [--jobs J]
//	flitsim merge --out DIR FILE.json... | DIR
//	flitsim layout [-c FILE] [--set key=value]... [--format table|json|svg]
//	flitsim distances [-c FILE] [--set key=value]... [--seed N] [--format table|json]
//	flitsim channels [-c FILE] [--set key=value]... --clusters MASKS [--format table|json]
//	flitsim analytic [-c FILE] [--set key=value]... [--scheme simple|priority|csr] [--plot FILE --figure F] [--format table|json]
//	flitsim multicast-tree [-c FILE] [--set key=value]... --source S --dests LIST|all --algorithm lb|fb|rb|rm|omt [--format table|json]
//	flitsim completion bash|zsh|fish
//	flitsim --version
//	flitsim help
//
// Results go to stdout. Every bad input prints one line "flitsim: ..." to
// stderr and exits 2; exit.go lists the other exit statuses.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/network"
)

func main() { os.Exit(realMain(os.Args[1:], os.Stdout, os.Stderr)) }

// exitError carries an exit status other than 2 (bad input).
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }

// realMain runs flitsim with args (without the program name) and returns the
// exit status.
func realMain(args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(stderr, "flitsim: internal error: %s\n", oneLine(fmt.Sprint(p)))
			code = exitInternal
		}
	}()
	warnOut = stderr
	stdoutFile, _ = stdout.(*os.File) // (see fileSet)
	release := catchInterrupts()
	defer release()
	out := &checkedWriter{w: stdout}
	err := interruptedAfter(dispatch(args, out))
	if out.err != nil {
		// The results are lost: that outranks what they said.
		err = fmt.Errorf("cannot write the output: %v", out.err)
	}
	if err == nil {
		return exitOK
	}
	code = exitBadInput
	var ee *exitError
	var ie *network.InternalError
	switch {
	case errors.As(err, &ee):
		code = ee.code
	case errors.As(err, &ie):
		code = exitInternal
	}
	fmt.Fprintf(stderr, "flitsim: %s\n", oneLine(err.Error()))
	return code
}

// warnOut receives warning lines (realMain's stderr).
var warnOut io.Writer = os.Stderr

// warn prints warning lines: input that is accepted but does nothing.
func warn(lines []string) {
	for _, l := range lines {
		fmt.Fprintf(warnOut, "flitsim: warning: %s\n", oneLine(l))
	}
}

// loadConfig is configs.Load, printing its warnings.
func loadConfig(path string, sets []string) (network.Config, error) {
	cfg, warnings, err := configs.LoadWarn(path, sets)
	warn(warnings)
	return cfg, err
}

func dispatch(args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return cmdRun(nil, stdout)
	}
	switch cmd, rest := args[0], args[1:]; cmd {
	case "run":
		return cmdRun(rest, stdout)
	case "list":
		return cmdList(rest, stdout)
	case "verify":
		return cmdVerify(rest, stdout)
	case "encode":
		return cmdEncode(rest, stdout)
	case "sweep":
		return cmdSweep(rest, stdout)
	case "merge":
		return cmdMerge(rest, stdout)
	case "deadlock-search":
		return cmdSearch(rest, stdout)
	case "layout":
		return cmdLayout(rest, stdout)
	case "distances":
		return cmdDistances(rest, stdout)
	case "channels":
		return cmdChannels(rest, stdout)
	case "collective":
		return cmdCollective(rest, stdout)
	case "analytic":
		return cmdAnalytic(rest, stdout)
	case "route":
		return cmdRoute(rest, stdout)
	case "multicast-tree":
		return cmdMulticastTree(rest, stdout)
	case "help", "-h", "--help":
		return cmdHelp(rest, stdout)
	case "version", "--version":
		return cmdVersion(rest, stdout)
	case "completion":
		return cmdCompletion(rest, stdout)
	default:
		if strings.HasPrefix(cmd, "-") {
			return cmdRun(args, stdout) // flitsim -c x.yaml == flitsim run -c x.yaml
		}
		return fmt.Errorf("unknown command %q (allowed: %s)", cmd, strings.Join(commandNames, ", "))
	}
}

const usage = `flitsim — a cycle-accurate interconnection-network simulator

Usage:
  flitsim                      run the default experiment (8×8 mesh, wormhole, uniform 0.2)
  flitsim run [flags]          run an experiment and print its results
  flitsim list [WORD]          list topologies, routings, arbiters, switching modes,
                               traffic patterns and configuration keys (WORD: a
                               section or a name; --format table|json|markdown)
  flitsim verify [--format F]  reproduce published results; exit 1 if any fails
  flitsim encode [flags]       encode a multicast header (--scheme S --dests SPEC) and show its flits
  flitsim sweep [flags]        run a grid of experiments (--vary KEY=start:stop:step),
                               write results.csv/.json and load-curve plots
  flitsim merge --out DIR F... join the shard files of a sweep (sweep --shard i/n)
  flitsim deadlock-search      run many concurrent multicasts; report the first deadlock
                               as a replayable config
  flitsim layout [flags]       lay out the torus or hypercube on a grid (Brebner ch. 5),
                               check it and print its area, bisection bounds and edge
                               lengths, or draw it (--format svg)
  flitsim distances [flags]    diameter, mean internode distance and distance histogram
                               of the network (BFS) and of its routes
  flitsim channels [flags]     channels each cluster of a MIN uses per connection
                               (--clusters x0xx,010x,...) and the channels clusters
                               share (Chiang ch. 5)
  flitsim collective --task T  run a collective task (hypercube, folded, permutation and
                               enhanced cube, mesh, torus, ring; "collective -h" lists them,
                               dynamic broadcasting included) as a schedule on the packet
                               router: slots, the seed's formula, bounds, link usage
                               (and, with --trace-*, the cycle traces of run)
  flitsim analytic [flags]     evaluate Varvarigos's ch. 5–6 models of the slotted hypercube
                               router (--scheme, topology.d, slotted.k, traffic.p0, csr.*),
                               or draw them against the simulation (--plot, --figure)
  flitsim route --algorithm A route a permutation with Han's move-and-smooth algorithm
                               Q or H on a lock-step mesh (steps, buffers, the thesis's bounds)
  flitsim multicast-tree [flags]
                               an ESMIN multicast tree (Chiang ch. 6, --algorithm lb|fb|rb|rm|omt):
                               channels per stage, traffic, RB blocking, every optimal tree
  flitsim completion SHELL     print a completion script for bash, zsh or fish
  flitsim --version            the module version and VCS revision of this binary
  flitsim help [COMMAND]       this text, or a command's flags

Run "flitsim COMMAND -h" for a command's flags.

Exit status:
  0    completed (run: status ok; sweep: every point ran, whatever its status)
  1    verify: a claim failed
  2    bad input (one line on stderr names the key, the value and what is
       allowed), an output file that is an input or another output, or
       output that cannot be written
  3    run: a deadlock or a stall (nothing moved for run.stall_limit cycles);
       route: a step refused on pools smaller than the algorithm needs
  4    run: saturated (accepted less than offered beyond the 95 % confidence
       interval, or stopped by run.max_backlog) or incomplete (measured
       packets not all delivered); the results are printed all the same
  70   internal error (a bug in flitsim)
  130  interrupted (SIGINT, SIGTERM): any command stops within a second and
       prints what it finished; a second interrupt quits at once
`

func cmdHelp(args []string, stdout io.Writer) error {
	if len(args) > 0 && args[0] != "help" {
		if !slices.Contains(commandNames, args[0]) {
			return fmt.Errorf("help: unknown command %q (allowed: %s)", args[0], strings.Join(commandNames, ", "))
		}
		return dispatch([]string{args[0], "-h"}, stdout)
	}
	_, err := io.WriteString(stdout, usage)
	return err
}

// oneLine folds a message onto one line.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.Join(strings.Fields(strings.NewReplacer("\r\n", "; ", "\n", "; ", "\r", "; ").Replace(s)), " ")
}
