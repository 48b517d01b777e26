package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/flitsim/flitsim/configs/inputerr"
)

// flagSink, when set, receives every flag set parseFlags is given instead of
// parsing it: flitsim completion learns each command's flags from the
// command itself (see commandFlags).
var flagSink func(*pflag.FlagSet)

// newFlags makes a flag set for a subcommand; errors are returned, not
// printed, and -h prints usage to stdout.
func newFlags(name string) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	return fs
}

// parseFlags parses args; help is true when -h was given and the usage
// (synopsis, then the flags) has been written to stdout.
func parseFlags(fs *pflag.FlagSet, synopsis string, args []string, stdout io.Writer) (help bool, err error) {
	if flagSink != nil { // flitsim completion collects the command's flags
		flagSink(fs)
		return true, nil
	}
	err = fs.Parse(args)
	if errors.Is(err, pflag.ErrHelp) {
		fmt.Fprint(stdout, strings.TrimRight(synopsis, "\n")+"\n")
		if u := fs.FlagUsages(); u != "" { // (flitsim version has none)
			fmt.Fprintf(stdout, "\nFlags:\n%s", u)
		}
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("%s: %v", fs.Name(), err)
	}
	return false, nil
}

// checkFormat checks a --format value.
func checkFormat(format string, allowed ...string) error {
	for _, a := range allowed {
		if format == a {
			return nil
		}
	}
	return inputerr.New("--format", strconv.Quote(format), "%s", strings.Join(allowed, ", "))
}
