package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// configs/default.yaml's comments and the key table of docs/configuration.md
// (written by hand, with each key's meaning) list the same values as flitsim
// list (the registries) for every enumerated key.
func TestKeyValuesAgreeWithDocs(t *testing.T) {
	yaml, err := os.ReadFile("../../configs/default.yaml")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	vals := keyValues()
	// default.yaml: "key: value  # a | b | c" (or commented "# key: value # …").
	line := regexp.MustCompile(`(?m)^\s*(?:# )?(\w+): *[^#\n]*# *([^\n]*)$`)
	sections := map[string]string{"kind": "topology.", "path": "topology.", "worm": "multicast.", "encoding": "multicast.", "scheme": "multicast."}
	checked := 0
	for _, m := range line.FindAllStringSubmatch(string(yaml), -1) {
		key := sections[m[1]] + m[1]
		want, ok := vals[key]
		if !ok || !strings.Contains(m[2], "|") {
			continue
		}
		checked++
		var got []string
		for _, alt := range strings.Split(m[2], "|") {
			if i := strings.Index(alt, ":"); i >= 0 && !strings.Contains(alt[:i], "(") {
				alt = alt[i+1:] // "hardware header: single"
			}
			got = append(got, strings.Fields(alt)[0])
		}
		if !sameSet(got, want) {
			t.Errorf("default.yaml lists %s as %q, flitsim list as %q", key, got, want)
		}
	}
	if checked < 6 {
		t.Errorf("only %d enumerated keys found in default.yaml", checked)
	}
	// docs/configuration.md: the key's table row names every value in backticks.
	for _, key := range []string{"topology.kind", "topology.path", "switching", "arbiter", "multicast.worm", "multicast.encoding", "multicast.scheme"} {
		row := regexp.MustCompile("(?m)^\\| `" + regexp.QuoteMeta(key) + "` \\|[^\n]*").FindString(string(doc))
		if row == "" {
			t.Errorf("docs/configuration.md has no row for %s", key)
			continue
		}
		for _, v := range vals[key] {
			if !strings.Contains(row, "`"+v+"`") {
				t.Errorf("docs/configuration.md's %s row lacks `%s`", key, v)
			}
		}
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// Every configuration key has a row in docs/configuration.md's key table,
// which says what it means (flitsim list and docs/reference.md say only
// what it accepts): a new key is documented when it is added.
func TestEveryKeyHasADocRow(t *testing.T) {
	doc, err := os.ReadFile("../../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	var firstCells strings.Builder
	for _, m := range regexp.MustCompile("(?m)^\\| ([^|\n]*`[^|\n]*) \\|").FindAllStringSubmatch(string(doc), -1) {
		firstCells.WriteString(m[1] + "\n")
	}
	keys := listedKeys()
	if len(keys) < 50 {
		t.Fatalf("only %d keys listed", len(keys))
	}
	for _, k := range keys {
		if !strings.Contains(firstCells.String(), "`"+k.Key+"`") {
			t.Errorf("docs/configuration.md's key table has no row for %s: add one saying what it means", k.Key)
		}
	}
}
