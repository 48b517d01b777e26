package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/flitsim/flitsim/verify"
)

const verifySynopsis = `Usage: flitsim verify [--format table|json]

Reproduces the published results registered in package verify and compares
them with the published values. Exits 1 if any claim fails or cannot be
measured.
`

// verifyRun is verify.Run (a variable so tests can stub it).
var verifyRun = verify.Run

func cmdVerify(args []string, stdout io.Writer) error {
	fs := newFlags("verify")
	format := fs.StringP("format", "f", "table", "output format: table or json")
	if help, err := parseFlags(fs, verifySynopsis, args, stdout); help || err != nil {
		return err
	}
	if err := checkFormat(*format, "table", "json"); err != nil {
		return err
	}
	if len(fs.Args()) > 0 {
		return fmt.Errorf("verify: unexpected argument %q", fs.Args()[0])
	}
	rows, runErr := verifyRun()
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
	} else {
		table := make([][]string, len(rows))
		for i, r := range rows {
			table[i] = []string{r.ID, r.Source, r.Claim, r.Published, r.Measured, r.Status}
		}
		if len(rows) == 0 {
			fmt.Fprintln(stdout, "no claims registered")
		} else if err := renderTable(stdout, []string{"id", "source", "claim", "published", "measured", "status"}, table); err != nil {
			return err
		}
	}
	failed := 0
	for _, r := range rows {
		if r.Status != verify.Pass {
			failed++
		}
	}
	if failed > 0 {
		msg := fmt.Errorf("verify: %d of %d claims failed", failed, len(rows))
		if runErr != nil {
			msg = fmt.Errorf("%v; %v", msg, runErr)
		}
		return &exitError{code: 1, err: msg}
	}
	if runErr != nil {
		return &exitError{code: 1, err: fmt.Errorf("verify: %v", runErr)}
	}
	return nil
}
