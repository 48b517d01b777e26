package main

import (
	"fmt"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/flitsim/flitsim/internal/outfile"
)

// stopRequested is set by the first SIGINT or SIGTERM (catchInterrupts):
// a command watching it (see watchInterrupts) stops at the end of its
// current cycle, slot, row or phase and prints what it has finished.
var stopRequested atomic.Bool

// watching is set while a command watches stopRequested itself, and
// stopNotice is what it then does on an interrupt, e.g. "stopping at the
// end of this cycle".
var (
	watching   atomic.Bool
	stopNotice atomic.Pointer[string]
)

// interruptGrace is how long a command that does not watch stopRequested
// (list, merge, encode, a run still building its network...) may take to
// finish after an interrupt before it is ended with status 130: the whole
// stop stays within one second.
const interruptGrace = 500 * time.Millisecond

// catchInterrupts catches SIGINT and SIGTERM for the whole command, until
// the returned function is called. It is installed for every command,
// because signal.Notify also undoes a SIGINT ignored at start (a command
// started in the background by a shell script), which then stops the
// command like any other interrupt. The first signal sets stopRequested; a
// command that does not watch it and has not finished within
// interruptGrace is ended with status 130; a second signal exits at once
// with status 130. Either way an output not yet complete keeps what it
// held before (quitNow).
func catchInterrupts() (release func()) {
	stopRequested.Store(false)
	watching.Store(false)
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	quit := make(chan struct{})
	go func() {
		select {
		case <-ch:
		case <-quit:
			return
		}
		// The notice goes out before stopRequested is set, so that it comes
		// before whatever the command says when it sees the request.
		var grace <-chan time.Time
		if watching.Load() {
			fmt.Fprintf(warnOut, "flitsim: interrupted: %s (interrupt again to quit at once)\n", *stopNotice.Load())
		} else {
			grace = time.After(interruptGrace)
		}
		stopRequested.Store(true)
		for {
			select {
			case <-ch:
				quitNow("flitsim: interrupted twice: quitting")
			case <-grace:
				if !watching.Load() {
					quitNow("flitsim: interrupted")
				}
				grace = nil // (it watches now: it stops by itself)
			case <-quit:
				return
			}
		}
	}()
	return func() {
		signal.Stop(ch)
		close(quit)
	}
}

// quitNow ends the command at once with status 130 after printing msg. The
// outputs not yet complete keep what they held before (their temporary
// files are removed).
func quitNow(msg string) {
	fmt.Fprintln(warnOut, msg)
	outfile.RemoveTemps()
	os.Exit(exitInterrupted)
}

// watchInterrupts marks the command as watching stopRequested until the
// returned function is called: an interrupt then says notice (what the
// command does, e.g. "stopping at the end of this cycle") and waits for it
// to stop by itself instead of ending it after interruptGrace.
func watchInterrupts(notice string) (release func()) {
	stopNotice.Store(&notice)
	watching.Store(true)
	return func() { watching.Store(false) }
}

// interruptedError is the error of a command that stopped early on an
// interrupt, after printing what it had: exit status 130.
func interruptedError(format string, args ...any) error {
	return &exitError{exitInterrupted, fmt.Errorf(format, args...)}
}

// interruptedAfter is the exit status of a command that returned err after
// an interrupt it did not report itself (it finished, or failed, in the
// meantime): an interrupt ends every command with status 130, but an error
// it already had stands.
func interruptedAfter(err error) error {
	if err != nil || !stopRequested.Load() {
		return err
	}
	return interruptedError("interrupted (the command had finished: its output is complete)")
}

// stopPoll is how often untilInterrupted looks at stopRequested.
const stopPoll = 20 * time.Millisecond

// untilInterrupted runs work (a computation that does not watch
// stopRequested: a BFS over every node, a layout's construction and check)
// and waits until it returns or an interrupt comes. Interrupted, it
// returns true at once and leaves work running: the command prints what
// it finished and exits, which ends it. The caller must be watching
// (watchInterrupts).
func untilInterrupted(work func()) (interrupted bool) {
	done := make(chan struct{})
	var failure any
	go func() {
		defer func() {
			failure = recover()
			close(done)
		}()
		work()
	}()
	tick := time.NewTicker(stopPoll)
	defer tick.Stop()
	for {
		select {
		case <-done:
			if failure != nil {
				panic(failure) // (realMain reports it: exit 70)
			}
			return false
		case <-tick.C:
			if stopRequested.Load() {
				return true
			}
		}
	}
}
