package outfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// File is an output being written. For a regular file (or a new one) the
// bytes go to a temporary file in the same folder, which Commit renames
// over the destination; a pipe or a device is written directly (it cannot
// be replaced, and holds nothing to lose).
type File struct {
	*os.File
	dest string // the file written: the path given, its links resolved
	name string // the path as given, for messages
	tmp  string // the temporary file, "" when writing dest directly
	done bool
}

// Create starts writing path. It fails at once, as os.Create would, when
// the file cannot be written there (a missing or read-only folder, a
// folder of that name). A symbolic link is written through: its target is
// replaced, the link stays.
func Create(path string) (*File, error) {
	bad := func(err error) (*File, error) {
		return nil, &fs.PathError{Op: "open", Path: path, Err: unwrap(err)}
	}
	st, err := os.Stat(path)
	switch {
	case err == nil && st.IsDir():
		return bad(errors.New("is a directory"))
	case err == nil && direct(path, st):
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
		if err != nil {
			return bad(err)
		}
		return &File{File: f, dest: path, name: path}, nil
	}
	dest, err := Resolve(path)
	if err != nil {
		return bad(err)
	}
	perm := fs.FileMode(0o644)
	if st != nil {
		perm = st.Mode().Perm() // a replaced file keeps its permissions
	}
	f, err := os.CreateTemp(filepath.Split(tempPattern(dest)))
	if err != nil {
		return bad(err)
	}
	if err := f.Chmod(perm); err != nil {
		f.Close()
		os.Remove(f.Name())
		return bad(err)
	}
	out := &File{File: f, dest: dest, name: path, tmp: f.Name()}
	live.add(out.tmp)
	return out, nil
}

// direct reports whether path, which exists (st), is written in place
// rather than replaced: a pipe or a device, which cannot be replaced and
// holds nothing to lose, or a name of an open file (/dev/stdout,
// /dev/fd/N, /proc/...), which may stand for a regular file the shell
// opened and must stay the one written.
func direct(path string, st os.FileInfo) bool {
	if !st.Mode().IsRegular() {
		return true
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	switch abs {
	case "/dev/stdout", "/dev/stderr":
		return true
	}
	return strings.HasPrefix(abs, "/dev/fd/") || strings.HasPrefix(abs, "/proc/")
}

// tempPattern is the name pattern of dest's temporary files (os.CreateTemp:
// * is random): hidden, beside dest.
func tempPattern(dest string) string {
	dir, base := filepath.Split(dest)
	return filepath.Join(dir, "."+base+".*.tmp")
}

// Temps lists the temporary files of outputs to path being written now
// (by this or another process): their size shows a long write's progress.
func Temps(path string) []string {
	dest, err := Resolve(path)
	if err != nil {
		return nil
	}
	m, _ := filepath.Glob(tempPattern(dest))
	return m
}

// Name is the path the file was asked for as (not the temporary file's).
func (f *File) Name() string { return f.name }

// Commit closes the file and puts it in place. On an error the destination
// is left as it was.
func (f *File) Commit() error {
	if f.done {
		return nil
	}
	f.done = true
	err := f.File.Close()
	if f.tmp == "" {
		return err
	}
	defer live.remove(f.tmp)
	if err == nil {
		err = os.Rename(f.tmp, f.dest)
	}
	if err != nil {
		os.Remove(f.tmp)
		return &fs.PathError{Op: "write", Path: f.name, Err: unwrap(err)}
	}
	return nil
}

// Abort closes the file and drops what was written, leaving the
// destination as it was. It does nothing after Commit.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.File.Close()
	if f.tmp != "" {
		os.Remove(f.tmp)
		live.remove(f.tmp)
	}
}

// Close is Commit: an output closed without an error is complete.
func (f *File) Close() error { return f.Commit() }

// Write writes path whole with write, or leaves it as it was when write
// fails.
func Write(path string, write func(io.Writer) error) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

// WriteFile is os.WriteFile through a temporary file.
func WriteFile(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// RemoveTemps removes the temporary files of outputs not yet committed or
// aborted: a command that must quit at once (a second interrupt) calls it
// before exiting, so that it leaves its destinations as they were and no
// temporary files.
func RemoveTemps() {
	live.mu.Lock()
	defer live.mu.Unlock()
	for p := range live.paths {
		os.Remove(p)
	}
	live.paths = nil
}

// live is the temporary files being written.
var live temps

type temps struct {
	mu    sync.Mutex
	paths map[string]bool
}

func (t *temps) add(p string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.paths == nil {
		t.paths = map[string]bool{}
	}
	t.paths[p] = true
}

func (t *temps) remove(p string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.paths, p)
}
