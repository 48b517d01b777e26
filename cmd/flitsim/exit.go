package main

import (
	"fmt"
	"io"

	"github.com/flitsim/flitsim/network"
)

// Exit statuses (documented in the usage text and docs/errors.md).
const (
	exitOK          = 0   // completed
	exitFailed      = 1   // verify: a claim failed
	exitBadInput    = 2   // bad input (an output that is an input too), or output that cannot be written
	exitDeadlock    = 3   // a run found a deadlock or stalled
	exitSaturated   = 4   // a run was saturated or incomplete
	exitInternal    = 70  // a bug in flitsim (EX_SOFTWARE)
	exitInterrupted = 130 // stopped by SIGINT or SIGTERM (128 + 2)
)

// statusExit is the exit status of a run whose verdict (network.Judge) is
// status.
func statusExit(status string) int {
	switch status {
	case network.StatusOK:
		return exitOK
	case network.StatusDeadlock, network.StatusStall:
		return exitDeadlock
	case network.StatusSaturated, network.StatusIncomplete:
		return exitSaturated
	case network.StatusInterrupted:
		return exitInterrupted
	}
	panic(fmt.Sprintf("run status %q", status))
}

// runVerdict is nil for a run that completed, else an exitError with the
// run's status and why.
func runVerdict(r *network.Result) error {
	code := statusExit(r.Status)
	if code == exitOK {
		return nil
	}
	return &exitError{code, fmt.Errorf("%s", statusText(r))}
}

// statusText says what the run's status means, e.g. "saturated: accepted
// 0.31 of 0.4 flits/node/cycle offered (short by 0.09 ± 0.005, 95 % CI)".
func statusText(r *network.Result) string {
	s := r.Status
	switch r.Status {
	case network.StatusInterrupted:
		return fmt.Sprintf("interrupted at cycle %d: the results above are partial", r.Cycles)
	case network.StatusDeadlock:
		s += fmt.Sprintf(" at cycle %d", r.Deadlock.Cycle)
	case network.StatusStall:
		s += fmt.Sprintf(": no flit moved from cycle %d to %d", r.Stall.Since, r.Stall.Cycle)
	case network.StatusSaturated:
		s += fmt.Sprintf(": accepted %s of %s flits/node/cycle offered", num(r.Throughput), num(r.Offered))
		if r.ShortfallCI95 >= 0 {
			s += fmt.Sprintf(" (short by %s ± %s, 95 %% CI)", num(r.Offered-r.Throughput), num(r.ShortfallCI95))
		}
		if b := r.BacklogStop; b != nil {
			s += fmt.Sprintf("; stopped at cycle %d with %d packets waiting, past run.max_backlog (%d per terminal)",
				b.Cycle, b.Packets, r.Config.Run.MaxBacklog)
		}
	}
	if r.Incomplete {
		s += fmt.Sprintf("; %d of %d measured packets not delivered", r.MeasuredPackets-r.MeasuredDelivered-r.MeasuredDropped, r.MeasuredPackets)
	}
	return s
}

// checkedWriter remembers the first error writing to w, so that output lost
// (stdout on a full disk, a closed pipe) fails the command even where the
// writer's caller (a table renderer, fmt.Fprintf) drops the error.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err != nil {
		c.err = err
	}
	return n, err
}
