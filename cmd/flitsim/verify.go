package main

import (
	"encoding/json"
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
`

// verifyRun is verify.Run and verifyRunOnly verify.RunOnly (variables so
// tests can stub them).
var (
	verifyRun     = verify.Run
	verifyRunOnly = verify.RunOnly
)

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
	var rows []verify.Row
	var runErr error
	if *only == "" {
		rows, runErr = verifyRun()
	} else if rows, runErr = verifyRunOnly(*only); len(rows) == 0 && runErr == nil {
		return inputerr.New("--only", *only, "a prefix of some claim's ID (e.g. brebner, chiang)")
	}
	if *format == "json" {
		if rows == nil {
			rows = []verify.Row{}
		}
		b, err := json.MarshalIndent(rows, "", "  ")
		if err != nil {
			return err
		}
		if _, err := stdout.Write(append(b, '\n')); err != nil {
			return err
		}
	} else if err := writeVerifyTable(stdout, rows); err != nil {
		return err
	}
	failed := 0
	for _, r := range rows {
		if r.Status == verify.Fail || r.Status == verify.Error {
			failed++
		}
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
