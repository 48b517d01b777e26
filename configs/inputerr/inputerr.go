// Package inputerr holds the one error type for bad input: a key the user
// wrote (a config key such as topology.k, or a flag such as --nodes), the
// value given, what is allowed, and optionally where it was written.
//
// It is a leaf package (standard library only) at the module root, not under
// configs/, because the model packages that reject input (flit/header,
// traffic, network/topology) must not depend on the configuration loader:
// every package can import it without a cycle.
package inputerr

import (
	"errors"
	"fmt"
	"strings"
)

// Error is one rejected input. Its message is one line:
//
//	[POS] KEY: VALUE is not allowed (allowed: ALLOWED)
//	[POS] KEY: PROBLEM (allowed ALLOWED)       when Problem is set
//
// POS is "FILE:LINE:" for a config file or "--set" for the command line.
type Error struct {
	Key     string // what the user wrote: "topology.k", "traffic.packets", "nodes"
	Value   string // the value given, as the user would recognise it
	Allowed string // what would be accepted
	// Problem replaces "VALUE is not allowed" when the key itself is at fault
	// ("unknown key", "key given twice"); Allowed then reads on without a
	// colon ("allowed keys in run: warmup, ...") and may be empty.
	Problem string
	// Pos is where the key was written: "FILE:LINE", or "--set" for a
	// --set override; empty when unknown.
	Pos string
	// Item is the 1-based entry of a list value at fault (traffic.packets),
	// so the loader can place the error at that entry's line; 0 for none.
	Item int
	// Alt states the same fault for the other keys involved (a buffer too
	// small for the packet length: buffers.input, or traffic.flits, or
	// switching), so that the loader can blame a key the user wrote rather
	// than one the embedded default set. Not printed.
	Alt []*Error
}

// New is an Error for key with value (printed with %v; an empty string shows
// as "") and allowed, formatted with args when there are any.
func New(key string, value any, allowed string, args ...any) *Error {
	v := fmt.Sprint(value)
	if v == "" {
		v = `""`
	}
	if len(args) > 0 {
		allowed = fmt.Sprintf(allowed, args...)
	}
	return &Error{Key: key, Value: v, Allowed: allowed}
}

// CommandLine is the Pos of a --set override.
const CommandLine = "--set"

func (e *Error) Error() string {
	var b strings.Builder
	switch {
	case e.Pos == CommandLine:
		b.WriteString(e.Pos + " ")
	case e.Pos != "":
		b.WriteString(e.Pos + ": ")
	}
	b.WriteString(e.Key + ": ")
	if e.Problem != "" {
		b.WriteString(e.Problem)
		if e.Allowed != "" {
			b.WriteString(" (allowed " + e.Allowed + ")")
		}
		return b.String()
	}
	b.WriteString(e.Value + " is not allowed (allowed: " + e.Allowed + ")")
	return b.String()
}

// At returns a copy of e placed at pos.
func (e *Error) At(pos string) *Error {
	c := *e
	c.Pos = pos
	return &c
}

// As finds an *Error in err's chain.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}
