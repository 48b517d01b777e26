package main

import (
	"fmt"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"github.com/flitsim/flitsim/internal/outfile"
)

// stopRequested is set by the first SIGINT or SIGTERM while a run, sweep or
// deadlock search is watching for them (see watchInterrupts): the
// simulation stops at the end of its current cycle and prints what it has.
var stopRequested atomic.Bool

// watchInterrupts catches SIGINT and SIGTERM until the returned function is
// called. The first one sets stopRequested; a second one exits at once with
// status 130; an output not yet complete keeps what it held before (its
// temporary file is removed).
func watchInterrupts() (release func()) {
	stopRequested.Store(false)
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	quit := make(chan struct{})
	go func() {
		select {
		case <-ch:
		case <-quit:
			return
		}
		stopRequested.Store(true)
		fmt.Fprintln(warnOut, "flitsim: interrupted: stopping at the end of this cycle (interrupt again to quit at once)")
		select {
		case <-ch:
			fmt.Fprintln(warnOut, "flitsim: interrupted twice: quitting")
			outfile.RemoveTemps() // (the outputs keep what they held before)
			os.Exit(exitInterrupted)
		case <-quit:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(quit)
	}
}

// interruptedError is the error of a command that stopped early on an
// interrupt, after printing what it had: exit status 130.
func interruptedError(format string, args ...any) error {
	return &exitError{exitInterrupted, fmt.Errorf(format, args...)}
}
