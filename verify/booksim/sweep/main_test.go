package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// Bad input: one line naming the flag or argument, exit 2.
func TestBadInput(t *testing.T) {
	rf := "../runfiles/mesh88_2vc.cfg"
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"-seeds", "0", rf}, "sweep: -seeds: 0 is not allowed (allowed: 1 to 99)"},
		{[]string{"-loads", "0.2,x", rf}, `sweep: -loads: "x" is not allowed`},
		{[]string{"-loads", "1.5", rf}, `sweep: -loads: "1.5" is not allowed`},
		{nil, "sweep: RUNFILE: none given"},
		{[]string{"no/such.cfg"}, "sweep: RUNFILE: no/such.cfg is not a readable file"},
		{[]string{"-booksim", "/no/such/booksim", rf}, `sweep: -booksim: booksim binary "/no/such/booksim" not found`},
	} {
		var out, errb bytes.Buffer
		if code := run(c.args, &out, &errb); code != 2 {
			t.Errorf("%v: exit %d, want 2", c.args, code)
		}
		msg := errb.String()
		if !strings.HasPrefix(msg, c.says) || strings.Count(msg, "\n") != 1 || out.Len() != 0 {
			t.Errorf("%v: stderr %q stdout %q, want one line starting %q", c.args, msg, out.String(), c.says)
		}
	}
}

// -flitsim refuses a runfile whose options flitsim cannot reproduce before
// running anything.
func TestUntranslatableRunfile(t *testing.T) {
	f := t.TempDir() + "/bad.cfg"
	if err := os.WriteFile(f, []byte("topology = mesh;\ninternal_speedup = 2.0;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := run([]string{"-flitsim", f}, &out, &errb)
	want := "sweep: RUNFILE: " + f + ": BookSim option internal_speedup: 2.0 (flitsim has only 1 or 1.0)\n"
	if code != 2 || errb.String() != want {
		t.Errorf("exit %d, stderr %q, want 2 and %q", code, errb.String(), want)
	}
}
