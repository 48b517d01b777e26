package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	docLinkRe    = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	docCodeRe    = regexp.MustCompile("`[^`]*`")
	docHeadingRe = regexp.MustCompile(`^#{1,6} (.+?)\s*$`)
	docAnchorDel = regexp.MustCompile(`[^\p{L}\p{N}_\- ]`)
)

// docAnchor is the anchor GitHub gives a heading: lower case, punctuation
// dropped, spaces to hyphens.
func docAnchor(heading string) string {
	h := strings.ToLower(strings.ReplaceAll(heading, "`", ""))
	return strings.ReplaceAll(docAnchorDel.ReplaceAllString(h, ""), " ", "-")
}

// docProse is a markdown text without its fenced blocks and inline code,
// and the anchors of its headings.
func docProse(text string) (prose []string, anchors map[string]bool) {
	anchors = map[string]bool{}
	fenced := false
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		if m := docHeadingRe.FindStringSubmatch(l); m != nil {
			anchors[docAnchor(m[1])] = true
		}
		prose = append(prose, docCodeRe.ReplaceAllString(l, ""))
	}
	return prose, anchors
}

// TestDocLinks: every relative link of README.md and docs/*.md names a file
// of the repository, and a #fragment a heading of its page, so the manual
// can be navigated (moving a section breaks this test, not the reader).
func TestDocLinks(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	files := docFiles(t, root)
	anchorsOf := map[string]map[string]bool{}
	prose := map[string][]string{}
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		prose[f], anchorsOf[f] = docProse(string(text))
	}
	links := 0
	for _, f := range files {
		rel, _ := filepath.Rel(root, f)
		for i, l := range prose[f] {
			for _, m := range docLinkRe.FindAllStringSubmatch(l, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				links++
				path, frag, _ := strings.Cut(target, "#")
				dest := f
				if path != "" {
					dest = filepath.Join(filepath.Dir(f), path)
					if _, err := os.Stat(dest); err != nil {
						t.Errorf("%s:%d: link %s: no such file", rel, i+1, target)
						continue
					}
				}
				if frag == "" {
					continue
				}
				anchors, ok := anchorsOf[dest]
				if !ok {
					t.Errorf("%s:%d: link %s: a fragment on a page that is not README.md or docs/*.md", rel, i+1, target)
				} else if !anchors[frag] {
					t.Errorf("%s:%d: link %s: %s has no heading with that anchor", rel, i+1, target, filepath.Base(dest))
				}
			}
		}
	}
	if links < 50 {
		t.Errorf("only %d relative links found: the scan is broken", links)
	}
}

func TestDocAnchor(t *testing.T) {
	for h, want := range map[string]string{
		"Valiant's routing and Brebner's tables":           "valiants-routing-and-brebners-tables",
		"The packet-switched router (`switching: packet`)": "the-packet-switched-router-switching-packet",
		"Multiple reads and writes (Brebner §2.6)":         "multiple-reads-and-writes-brebner-26",
		"What is available: `flitsim list`":                "what-is-available-flitsim-list",
	} {
		if got := docAnchor(h); got != want {
			t.Errorf("docAnchor(%q) = %q, want %q", h, got, want)
		}
	}
}

// The README is the front page: at most 300 lines, leading to the manual.
func TestReadmeIsAFrontPage(t *testing.T) {
	text, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(text), "\n"); n > 300 {
		t.Errorf("README.md has %d lines; the front page keeps at most 300, the rest belongs in docs/", n)
	}
	if !strings.Contains(string(text), "](docs/README.md)") {
		t.Error("README.md does not link the manual's contents, docs/README.md")
	}
}
