package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/mattn/go-runewidth"
)

// sectionTitles are the section titles of a flitsim list table output:
// the first line and each line after a blank one.
func sectionTitles(out string) []string {
	var titles []string
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	for i, l := range lines {
		if i == 0 || lines[i-1] == "" {
			titles = append(titles, l)
		}
	}
	return titles
}

// widest is the display width of out's widest line.
func widest(out string) int {
	w := 0
	for _, l := range strings.Split(out, "\n") {
		w = max(w, runewidth.StringWidth(l))
	}
	return w
}

// Every line fits the width asked for, and a narrower width wraps rather
// than drops: every name of the wide list is in the narrow one.
func TestListFitsWidth(t *testing.T) {
	_, wide, _ := runMain(t, "list", "--width", "1000")
	for _, w := range []string{"72", "80", "100", "133"} {
		code, out, stderr := runMain(t, "list", "--width", w)
		if code != 0 {
			t.Fatalf("--width %s: exit %d: %s", w, code, stderr)
		}
		if got := widest(out); got > atoi(w) {
			t.Errorf("--width %s: a line is %d columns wide", w, got)
		}
		for _, k := range listedKeys() {
			if !strings.Contains(out, "│ "+k.Key+" ") {
				t.Errorf("--width %s: key %s missing", w, k.Key)
			}
		}
	}
	if widest(wide) <= 133 {
		t.Errorf("--width 1000 is only %d wide: the test does not wrap anything", widest(wide))
	}
	// Not a terminal (a buffer): 100 columns.
	_, out, _ := runMain(t, "list")
	if got := widest(out); got > defaultListWidth || got < defaultListWidth-10 {
		t.Errorf("list into a pipe is %d columns wide, want ≤ %d and close to it", got, defaultListWidth)
	}
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// On a terminal, list fits $COLUMNS.
func TestListTerminalWidth(t *testing.T) {
	old := isTerminal
	isTerminal = func(w io.Writer) bool { _, ok := w.(*bytes.Buffer); return ok } // runMain's stdout
	defer func() { isTerminal = old }()
	t.Setenv("COLUMNS", "84")
	_, out, _ := runMain(t, "list")
	if got := widest(out); got > 84 || got < 80 {
		t.Errorf("COLUMNS=84 on a terminal: %d columns wide", got)
	}
	if got := listWidth(&checkedWriter{w: &bytes.Buffer{}}); got != 84 {
		t.Errorf("listWidth = %d, want 84", got)
	}
	t.Setenv("COLUMNS", "20")
	if got := listWidth(&bytes.Buffer{}); got != minListWidth {
		t.Errorf("COLUMNS=20: listWidth = %d, want the minimum %d", got, minListWidth)
	}
}

func TestListFilter(t *testing.T) {
	for _, c := range []struct {
		word string
		want []string // section titles' starts
		has  []string
		not  []string
	}{
		{"routing", []string{"Routing functions"}, []string{"│ ecube ", "│ dor "}, []string{"round-robin"}},
		{"topology", []string{"Topologies", "Topology parameters"}, []string{"│ mesh ", "│ topology.k "}, []string{"traffic.load"}},
		{"KEYS", []string{"Configuration keys"}, []string{"│ traffic.load "}, []string{"│ ecube "}},
		{"arbiter", []string{"Arbiters"}, []string{"│ round-robin "}, nil},
		{"queue", []string{"Configuration keys"}, []string{"│ queue.discipline "}, []string{"│ traffic.load "}},
		// A word in an entry: the kind, its parameters, its routings and
		// the keys that take it.
		{"mesh", []string{"Topologies", "Topology parameters", "Routing functions", "Switching modes", "Configuration keys"},
			[]string{"│ mesh ", "│ dor ", "│ topology.kind "}, []string{"│ hypercube ", "│ ecube "}},
	} {
		code, out, stderr := runMain(t, "list", c.word)
		if code != 0 {
			t.Errorf("list %s: exit %d: %s", c.word, code, stderr)
			continue
		}
		titles := sectionTitles(out)
		if len(titles) != len(c.want) {
			t.Errorf("list %s: sections %q, want %q", c.word, titles, c.want)
		} else {
			for i, w := range c.want {
				if !strings.HasPrefix(titles[i], w) {
					t.Errorf("list %s: section %d is %q, want %q", c.word, i, titles[i], w)
				}
			}
		}
		for _, s := range c.has {
			if !strings.Contains(out, s) {
				t.Errorf("list %s lacks %q", c.word, s)
			}
		}
		for _, s := range c.not {
			if strings.Contains(out, s) {
				t.Errorf("list %s has %q", c.word, s)
			}
		}
	}
	wantFail(t, 2, []string{"list", "zzz"}, `list: "zzz" is not allowed (allowed: a section (topologies, parameters, routing, arbiters, switching, patterns, keys) or a word in an entry's name)`)
	wantFail(t, 2, []string{"list", "mesh", "torus"}, `list: "mesh torus" is not allowed (allowed: one word)`)
	wantFail(t, 2, []string{"list", "--format", "yaml"}, `--format: "yaml" is not allowed (allowed: table, json, markdown)`)
	wantFail(t, 2, []string{"list", "--width", "71"}, `--width: 71 is not allowed (allowed: 72 to 1000 columns)`)
}

func TestListJSON(t *testing.T) {
	code, out, _ := runMain(t, "list", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var got listJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range got.Sections {
		names = append(names, s.Name)
	}
	if want := "topologies parameters routing arbiters switching patterns keys"; strings.Join(names, " ") != want {
		t.Errorf("sections %q, want %s", names, want)
	}
	keys := got.Sections[len(got.Sections)-1]
	found := false
	for _, r := range keys.Rows {
		if r["key"] == "traffic.load" {
			found = r["default"] == "0.2" && r["allowed"] != ""
		}
	}
	if !found {
		t.Errorf("keys section has no row traffic.load with default 0.2: %v", keys.Rows)
	}
	// A filter applies to JSON too.
	_, out, _ = runMain(t, "list", "routing", "--format", "json")
	got = listJSON{}
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Sections) != 1 || got.Sections[0].Name != "routing" {
		t.Errorf("list routing --format json: %v %+v", err, got.Sections)
	}
}

// docs/reference.md is what flitsim list --format markdown prints.
func TestReferencePageIsCurrent(t *testing.T) {
	code, out, _ := runMain(t, "list", "--format", "markdown")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	page, err := os.ReadFile("../../docs/reference.md")
	if err != nil {
		t.Fatal(err)
	}
	if string(page) != out {
		t.Errorf("docs/reference.md differs from the output of flitsim list --format markdown; regenerate it from the repository's root with\n\tgo run ./cmd/flitsim list --format markdown > docs/reference.md")
	}
	for _, k := range listedKeys() {
		if !strings.Contains(out, "| `"+k.Key+"` |") {
			t.Errorf("the reference has no row for %s", k.Key)
		}
	}
}
