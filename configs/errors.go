package configs

import (
	"errors"
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"
)

// Errors: every one is an *inputerr.Error where the input is at fault,
// placed at the line or --set that gave the key, and prints as one line.

// unknownKey is the error for a key that is not part of the configuration;
// allowed lists the keys at its level.
func unknownKey(key string, allowed []string) *inputerr.Error {
	level := "top-level keys"
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		level = "keys in " + key[:i]
	}
	return &inputerr.Error{Key: key, Problem: "unknown key", Allowed: level + ": " + strings.Join(allowed, ", ")}
}

// place puts a validation error where the user wrote its key. Of the keys
// the fault involves (the error's and its Alt's), it blames the first the
// user wrote (in their file or a --set; the embedded default's keys are not
// theirs), else the error's own. It places it at the key (at the entry for
// a list's Item), or else at the nearest enclosing block the file or a
// --set gave (topology: for a missing topology.k), saying that the key
// itself was not given.
func (l *loader) place(ce *inputerr.Error) error {
	blame := ce
	for _, c := range append([]*inputerr.Error{ce}, ce.Alt...) {
		if l.userWrote(c.Key) {
			blame = c
			break
		}
	}
	if ps := l.items[blame.Key]; blame.Item > 0 && blame.Item <= len(ps) {
		return blame.At(ps[blame.Item-1])
	}
	for key := blame.Key; key != ""; {
		if pos, ok := l.where[key]; ok {
			e := blame.At(pos)
			if key != blame.Key {
				e.Value += " (not given)"
			}
			return e
		}
		i := strings.LastIndexByte(key, '.')
		if i < 0 {
			break
		}
		key = key[:i]
	}
	return blame
}

// userWrote reports whether the user's file or a --set gave key.
func (l *loader) userWrote(key string) bool {
	pos, ok := l.where[key]
	return ok && (pos == inputerr.CommandLine || !l.embedded)
}

// oneLine makes sure an error prints as one line: an *inputerr.Error keeps
// its type with each field flattened; another error becomes its flattened text.
func oneLine(err error) error {
	if !strings.ContainsAny(err.Error(), "\r\n") {
		return err
	}
	if e, ok := inputerr.As(err); ok {
		c := *e
		for _, f := range []*string{&c.Key, &c.Value, &c.Allowed, &c.Problem, &c.Pos} {
			*f = flatten(*f)
		}
		return &c
	}
	return errors.New(flatten(err.Error()))
}

func flatten(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", "; ")), " ")
}
