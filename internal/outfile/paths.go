// Package outfile is the one home of flitsim's rule that an output never
// destroys an input: a command registers every file it reads and writes
// (Set), each labelled by the flag or key that named it, and checks them
// before it opens anything for writing; it then writes each output through
// a temporary file beside it that is renamed into place only when complete
// (Create, WriteFile), so that a failed or interrupted command leaves the
// previous file or the new whole one, never half of one.
package outfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/flitsim/flitsim/configs/inputerr"
)

// Set is the files one command reads and writes.
type Set struct {
	files []entry
}

type entry struct {
	label string // the flag or key that named it: "-c", "traffic.trace", "--per-node"
	what  string // a side file's kind ("GTKWave save file"), else ""
	path  string // as the user (or the side file's rule) wrote it
	out   bool
	info  os.FileInfo // an open file's (stdout), which has no path
}

// Input registers a file the command reads; "" (none given) is ignored.
func (s *Set) Input(label, path string) {
	s.add(entry{label: label, path: path})
}

// Output registers a file the command writes; "" (none given) is ignored.
func (s *Set) Output(label, path string) {
	s.add(entry{label: label, path: path, out: true})
}

// Side registers a file the command writes beside the output of flag
// label: what says which (e.g. "GTKWave save file").
func (s *Set) Side(label, what, path string) {
	s.add(entry{label: label, what: what, path: path, out: true})
}

// Stdout registers the command's standard output f (nil: not a file)
// when the shell redirected it to a regular file: it is an output too. (A
// ">" redirection has emptied the file before the command started; a
// clash still says so rather than let the results replace an input.)
func (s *Set) Stdout(f *os.File) {
	if f == nil {
		return
	}
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		s.files = append(s.files, entry{label: "stdout", out: true, info: st})
	}
}

func (s *Set) add(e entry) {
	if e.path != "" {
		s.files = append(s.files, e)
	}
}

// Check refuses an output that is an input or another output: the same
// path after resolving "..", symbolic links and, for files that exist,
// hard links. Devices (/dev/null) are exempt: writing them destroys
// nothing. The error is an *inputerr.Error naming both flags and the path.
func (s *Set) Check() error {
	type resolved struct {
		entry
		real string
		info os.FileInfo // nil when the file does not exist yet
	}
	var done []resolved
	for _, e := range s.files {
		r := resolved{entry: e, info: e.info}
		if e.info == nil {
			real, err := Resolve(e.path)
			if err != nil {
				return inputerr.New(e.label, e.path, "a path flitsim can resolve (%v)", unwrap(err))
			}
			r.real = real
			// (Stat the path given: the kernel follows /dev/stdout and the
			// like, which name no file Resolve can find.)
			if info, err := os.Stat(e.path); err == nil {
				if info.Mode()&fs.ModeDevice != 0 {
					continue
				}
				r.info = info
			}
		}
		for _, p := range done {
			if !e.out && !p.out {
				continue // two inputs: reading twice harms nothing
			}
			same := (r.real != "" && p.real == r.real) || (p.info != nil && r.info != nil && os.SameFile(p.info, r.info))
			if !same || (p.label == e.label && p.what == e.what) {
				continue
			}
			return clash(r.entry, p.entry)
		}
		done = append(done, r)
	}
	return nil
}

// clash is the error for file a, which is the same file as b (registered
// before it). The output is the one blamed: it is the one that would
// destroy the other.
func clash(a, b entry) error {
	if !a.out {
		a, b = b, a
	}
	what, verb := "the file", "reads"
	if b.out {
		verb = "writes too"
	}
	if a.label == "stdout" {
		return &inputerr.Error{Key: "stdout", Value: b.path, Problem: fmt.Sprintf(
			"redirected to %s, %s %s %s (allowed: a file of its own; a > redirection empties the file before flitsim starts)",
			b.path, what, b.label, verb)}
	}
	if b.what != "" {
		what = "the " + b.what
	}
	key := a.label
	if a.what != "" {
		key += " (its " + a.what + ")"
	}
	return &inputerr.Error{Key: key, Value: a.path,
		Problem: fmt.Sprintf("%s is %s %s %s (allowed: a file of its own, not an input or another output)", a.path, what, b.label, verb)}
}

// Resolve returns path as an absolute path with "..", and the symbolic
// links of every part that exists (the file itself, a dangling link's
// target, or only its folders), resolved.
func Resolve(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	for range 40 { // (a link loop ends here)
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			return real, nil
		}
		dir, base := filepath.Split(abs)
		if rdir, err := filepath.EvalSymlinks(dir); err == nil {
			dir = rdir
		}
		abs = filepath.Join(dir, base)
		target, err := os.Readlink(abs)
		if err != nil { // not a link: a file to be created
			return abs, nil
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(dir, target)
		}
		abs = filepath.Clean(target)
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", path)
}

func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
