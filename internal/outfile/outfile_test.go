package outfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/configs/inputerr"
)

// inDir runs the test in a fresh folder holding c.yaml.
func inDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("c.yaml", []byte("topology: {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestCheckClashes(t *testing.T) {
	dir := inDir(t)
	os.Mkdir("sub", 0o755)
	if err := os.Symlink("c.yaml", "sym.yaml"); err != nil {
		t.Fatal(err)
	}
	if err := os.Link("c.yaml", "hard.yaml"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "sub"), "subl"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("nowhere.csv", "dangling.csv"); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		build func(s *Set)
		want  string // "" for no clash
	}{
		{"output is the config", func(s *Set) { s.Input("-c", "c.yaml"); s.Output("--per-node", "c.yaml") },
			"--per-node: c.yaml is the file -c reads"},
		{"through ..", func(s *Set) { s.Input("-c", "c.yaml"); s.Output("--per-node", "sub/../c.yaml") },
			"--per-node: sub/../c.yaml is the file -c reads"},
		{"absolute", func(s *Set) { s.Input("-c", "c.yaml"); s.Output("--channels", filepath.Join(dir, "c.yaml")) },
			"--channels: " + filepath.Join(dir, "c.yaml") + " is the file -c reads"},
		{"symbolic link", func(s *Set) { s.Input("-c", "c.yaml"); s.Output("--trace-vcd", "sym.yaml") },
			"--trace-vcd: sym.yaml is the file -c reads"},
		{"hard link", func(s *Set) { s.Input("-c", "c.yaml"); s.Output("--trace-perfetto", "hard.yaml") },
			"--trace-perfetto: hard.yaml is the file -c reads"},
		{"linked folder", func(s *Set) { s.Input("traffic.trace", "sub/t.csv"); s.Output("--trace-events", "subl/t.csv") },
			"--trace-events: subl/t.csv is the file traffic.trace reads"},
		{"input given after", func(s *Set) { s.Output("--routers", "t.csv"); s.Input("traffic.trace", "./t.csv") },
			"--routers: t.csv is the file traffic.trace reads"},
		{"two outputs", func(s *Set) { s.Output("--channels", "x.csv"); s.Output("--histogram", "./x.csv") },
			"--histogram: ./x.csv is the file --channels writes too"},
		{"dangling link to an output", func(s *Set) { s.Output("--channels", "nowhere.csv"); s.Output("--per-pair", "dangling.csv") },
			"--per-pair: dangling.csv is the file --channels writes too"},
		{"side file", func(s *Set) { s.Side("--trace-vcd", "GTKWave save file", "q.gtkw"); s.Output("--channels", "q.gtkw") },
			"--channels: q.gtkw is the GTKWave save file --trace-vcd writes too"},
		{"side file later", func(s *Set) { s.Output("--channels", "q.gtkw"); s.Side("--trace-vcd", "GTKWave save file", "q.gtkw") },
			"--trace-vcd (its GTKWave save file): q.gtkw is the file --channels writes too"},
		{"two inputs", func(s *Set) { s.Input("-c", "c.yaml"); s.Input("traffic.trace", "c.yaml") }, ""},
		{"one file read and rewritten under one flag", func(s *Set) { s.Input("--out", "j.jsonl"); s.Output("--out", "j.jsonl") }, ""},
		{"distinct", func(s *Set) {
			s.Input("-c", "c.yaml")
			s.Output("--channels", "c.csv")
			s.Output("--per-node", "sub/c.csv")
		}, ""},
		{"a device", func(s *Set) { s.Output("--channels", os.DevNull); s.Output("--per-node", os.DevNull) }, ""},
		{"none given", func(s *Set) { s.Input("-c", ""); s.Output("--channels", ""); s.Output("--per-node", "") }, ""},
	}
	for _, c := range cases {
		var s Set
		c.build(&s)
		err := s.Check()
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want == "":
		case err == nil:
			t.Errorf("%s: no clash found, want %q", c.name, c.want)
		case !strings.HasPrefix(err.Error(), c.want):
			t.Errorf("%s: %q, want it to start %q", c.name, err, c.want)
		default:
			if _, ok := inputerr.As(err); !ok {
				t.Errorf("%s: %T is not an *inputerr.Error", c.name, err)
			}
		}
	}
}

func readString(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// tempsIn lists the temporary files left in dir.
func tempsIn(t *testing.T, dir string) []string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, ".*.tmp"))
	return m
}

func TestCreateCommitAbort(t *testing.T) {
	dir := inDir(t)
	os.WriteFile("out.csv", []byte("old, complete\n"), 0o600)
	f, err := Create("out.csv")
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("new, half")
	if got := readString(t, "out.csv"); got != "old, complete\n" {
		t.Fatalf("while writing, out.csv holds %q", got)
	}
	f.Abort()
	if got := readString(t, "out.csv"); got != "old, complete\n" {
		t.Errorf("after Abort, out.csv holds %q", got)
	}
	if tmp := tempsIn(t, dir); len(tmp) > 0 {
		t.Errorf("Abort left %v", tmp)
	}

	f, err = Create("out.csv")
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("new, complete\n")
	if f.Name() != "out.csv" {
		t.Errorf("Name %q", f.Name())
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	f.Abort() // (after Commit: nothing)
	if got := readString(t, "out.csv"); got != "new, complete\n" {
		t.Errorf("after Commit, out.csv holds %q", got)
	}
	if st, _ := os.Stat("out.csv"); st.Mode().Perm() != 0o600 {
		t.Errorf("the replaced file's mode became %v", st.Mode().Perm())
	}
	if tmp := tempsIn(t, dir); len(tmp) > 0 {
		t.Errorf("Commit left %v", tmp)
	}
}

func TestWriteFailureKeepsTheOldFile(t *testing.T) {
	dir := inDir(t)
	os.WriteFile("r.json", []byte("{}\n"), 0o644)
	boom := errors.New("boom")
	err := Write("r.json", func(w io.Writer) error {
		w.Write([]byte(`{"half": `))
		return boom
	})
	if !errors.Is(err, boom) {
		t.Errorf("Write returned %v, want the writer's error", err)
	}
	if got := readString(t, "r.json"); got != "{}\n" {
		t.Errorf("a failed write left r.json holding %q", got)
	}
	if tmp := tempsIn(t, dir); len(tmp) > 0 {
		t.Errorf("the failed write left %v", tmp)
	}
}

func TestSymlinkWrittenThrough(t *testing.T) {
	inDir(t)
	os.WriteFile("target.csv", []byte("old\n"), 0o644)
	os.Symlink("target.csv", "link.csv")
	os.Symlink("new-target.csv", "dangling.csv")
	if err := WriteFile("link.csv", []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile("dangling.csv", []byte("made\n")); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat("link.csv"); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("link.csv is no longer a link (%v)", err)
	}
	if got := readString(t, "target.csv"); got != "new\n" {
		t.Errorf("target.csv holds %q", got)
	}
	if got := readString(t, "new-target.csv"); got != "made\n" {
		t.Errorf("new-target.csv holds %q", got)
	}
}

func TestCreateFailsAtOnce(t *testing.T) {
	inDir(t)
	os.Mkdir("d", 0o755)
	for _, p := range []string{"d", "missing/x.csv"} {
		f, err := Create(p)
		if err == nil {
			f.Abort()
			t.Errorf("Create(%q) succeeded", p)
		} else if !strings.Contains(err.Error(), p) {
			t.Errorf("Create(%q): %v does not name the path", p, err)
		}
	}
}

func TestDeviceWrittenDirectly(t *testing.T) {
	f, err := Create(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("x")
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(os.DevNull); err != nil || st.Mode().IsRegular() {
		t.Fatalf("%s was replaced (%v)", os.DevNull, err)
	}
}

func TestRemoveTemps(t *testing.T) {
	dir := inDir(t)
	os.WriteFile("a.csv", []byte("old\n"), 0o644)
	f, err := Create("a.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Abort()
	f.WriteString("half")
	RemoveTemps()
	if tmp := tempsIn(t, dir); len(tmp) > 0 {
		t.Errorf("RemoveTemps left %v", tmp)
	}
	if got := readString(t, "a.csv"); got != "old\n" {
		t.Errorf("a.csv holds %q", got)
	}
}

// An open file's name (/dev/stdout, possibly a regular file the shell
// opened) is written in place, not replaced.
func TestOpenFileNamesWrittenInPlace(t *testing.T) {
	dir := inDir(t)
	for _, p := range []string{"/dev/stdout", "/dev/fd/1"} {
		f, err := Create(p)
		if err != nil {
			t.Fatal(err)
		}
		if f.tmp != "" {
			t.Errorf("%s is written through %s", p, f.tmp)
		}
		if err := f.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	if tmp := tempsIn(t, dir); len(tmp) > 0 {
		t.Errorf("left %v", tmp)
	}
}

// Standard output redirected to a file is an output like the others.
func TestStdoutRedirected(t *testing.T) {
	inDir(t)
	f, err := os.OpenFile("c.yaml", os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	other, err := os.Create("out.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	for _, c := range []struct {
		name  string
		build func(s *Set)
		want  string
	}{
		{"to the config", func(s *Set) { s.Stdout(f); s.Input("-c", "./c.yaml") },
			"stdout: redirected to ./c.yaml, the file -c reads (allowed: a file of its own; a > redirection empties"},
		{"to an output", func(s *Set) { s.Stdout(other); s.Output("--channels", "out.txt") },
			"--channels: out.txt is the file stdout writes too"},
		{"elsewhere", func(s *Set) { s.Stdout(other); s.Input("-c", "c.yaml") }, ""},
		{"not a file", func(s *Set) { s.Stdout(nil); s.Input("-c", "c.yaml") }, ""},
	} {
		var s Set
		c.build(&s)
		err := s.Check()
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}
