package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/verify"
)

const verifySynopsis = `Usage: flitsim verify [--format table|json] [--only PREFIX]

Reproduces the published results registered in package verify and compares
them with the published values. Each row is pass (matches within its
tolerance), deviation (differs from the paper for the documented reason
shown), fail (outside tolerance, or its simulation did not deliver what it
measured) or error (could not be measured), with the time it took. Exits 1
if any row fails or cannot be measured; deviations do not change the exit
status.

--only PREFIX runs only the claims whose ID starts with PREFIX, long ones
included: --only brebner runs every entry of Brebner's tables (2000
experiments per graph; docs/verify.md gives its running time), where plain
verify runs a quick subset of them (brebner-ci-…).

An interrupt (Ctrl-C, SIGINT or SIGTERM) starts no further claim and stops
at once: the rows measured are printed with their status, the claims being
measured as rows of status interrupted, then a line "interrupted: M of N
claims measured, C cut short, R not run" (JSON: an object with
"interrupted": true, the counts and "rows"); exit status 130.
`

// verifyRun runs every claim and verifyRunOnly those --only selects, both
// stopped by an interrupt (variables so tests can stub them).
var (
	verifyRun     = func() ([]verify.Row, error) { return verify.RunStop("", &stopRequested) }
	verifyRunOnly = func(prefix string) ([]verify.Row, error) { return verify.RunStop(prefix, &stopRequested) }
)

// verifyInterrupted is the JSON document of an interrupted verify: the rows
// measured (and those cut short, status "interrupted"), and the counts.
type verifyInterrupted struct {
	Interrupted bool         `json:"interrupted"`
	Claims      int          `json:"claims"`
	Measured    int          `json:"measured"`
	CutShort    int          `json:"cut_short"`
	NotRun      int          `json:"not_run"`
	Rows        []verify.Row `json:"rows"`
}

func cmdVerify(args []string, stdout io.Writer) error {
	fs := newFlags("verify")
	format := fs.StringP("format", "f", "table", "output format: table or json")
	only := fs.String("only", "", "run only the claims whose ID starts with this prefix (long claims included)")
	if help, err := parseFlags(fs, verifySynopsis, args, stdout); help || err != nil {
		return err
	}
	if err := checkFormat(*format, "table", "json"); err != nil {
		return err
	}
	if len(fs.Args()) > 0 {
		return fmt.Errorf("verify: unexpected argument %q", fs.Args()[0])
	}
	release := watchInterrupts("stopping the claims being measured")
	defer release()
	var rows []verify.Row
	var runErr error
	if *only == "" {
		rows, runErr = verifyRun()
	} else if rows, runErr = verifyRunOnly(*only); len(rows) == 0 && runErr == nil {
		return inputerr.New("--only", *only, "a prefix of some claim's ID (e.g. brebner, chiang)")
	}
	if rows == nil {
		rows = []verify.Row{}
	}
	var stop *verify.InterruptedError
	errors.As(runErr, &stop)
	if err := writeVerify(stdout, rows, stop, *format); err != nil {
		return err
	}
	failed := 0
	for _, r := range rows {
		if r.Status == verify.Fail || r.Status == verify.Error {
			failed++
		}
	}
	if stop != nil { // (an interrupt's status outranks the failures: they are said)
		if failed > 0 {
			return interruptedError("verify %v; %d of the claims measured failed", stop, failed)
		}
		return interruptedError("verify %v", stop)
	}
	if failed > 0 {
		msg := fmt.Errorf("verify: %d of %d claims failed", failed, len(rows))
		if runErr != nil {
			msg = fmt.Errorf("%v; %v", msg, runErr)
		}
		return &exitError{code: exitFailed, err: msg}
	}
	if runErr != nil {
		return &exitError{code: exitFailed, err: fmt.Errorf("verify: %v", runErr)}
	}
	return nil
}

// writeVerify prints the rows as a table or JSON (an interrupted verify's
// rows and counts, stop, as a verifyInterrupted document).
func writeVerify(w io.Writer, rows []verify.Row, stop *verify.InterruptedError, format string) error {
	if format == "table" {
		if stop == nil || len(rows) > 0 { // (none measured is not "no claims registered")
			if err := writeVerifyTable(w, rows); err != nil {
				return err
			}
		}
		if stop != nil && len(rows) == 0 {
			_, err := fmt.Fprintf(w, "%v\n", stop)
			return err
		}
		if stop != nil {
			_, err := fmt.Fprintf(w, "%v: the rows above are the claims measured (and cut short)\n", stop)
			return err
		}
		return nil
	}
	var doc any = rows
	if stop != nil {
		doc = verifyInterrupted{Interrupted: true, Claims: stop.Claims, Measured: stop.Done, CutShort: stop.CutShort,
			NotRun: stop.Claims - stop.Done - stop.CutShort, Rows: rows}
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
